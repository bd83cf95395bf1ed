/* linux.c: the device's host functions (dev/host.h) for user space on Linux. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "dev/host.h"
#include "host/linux.h"
#include "cycles.h"

uint64_t
hostticks(void)
{
	return cycles();
}

uint64_t
hostnsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* the pair of #clock: the ticks between two reads of real time, stamped with their middle */
void
hostclock(uint64_t *ticks, uint64_t *ns)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_REALTIME, &t0);
	*ticks = cycles();
	clock_gettime(CLOCK_REALTIME, &t1);
	*ns = ((uint64_t)t0.tv_sec * 1000000000ull + t0.tv_nsec) / 2 + ((uint64_t)t1.tv_sec * 1000000000ull + t1.tv_nsec) / 2;
}

/* a blocked writer's nap: a sleep, not a spin, so a reader on the same core gets to run */
void
hostwait(uint64_t nsec)
{
	struct timespec ts = { (time_t)(nsec / 1000000000ull), (long)(nsec % 1000000000ull) };

	nanosleep(&ts, NULL);
}

/*
 * A writer's ring faulted in ahead, in one system call for the whole
 * range (MADV_POPULATE_WRITE, Linux 5.14): a page's first fault costs
 * tens of microseconds on some machines (30 us on a 2-core VM here, where
 * the call takes 2.6 us a page), and it must not land in a traced call.
 * Refused (an older kernel): 0, the device touches each page.
 */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
int
hostfaultin(void *p, size_t n)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p & ~(pg - 1);

	return madvise((void *)a, (uintptr_t)p + n - a, MADV_POPULATE_WRITE) == 0;
}

/*
 * A session's rings made fresh (dev/sess.c): the whole pages of the
 * shared tmpfs mapping are given back (MADV_REMOVE), not written with
 * zeros, so a reused session costs no fault and no copy per page its
 * last run wrote, and holds no memory until written again.  A private
 * mapping (a test's calloc) refuses: zeros written.
 */
void
hostzero(void *p, size_t n)
{
	uintptr_t pg = (uintptr_t)getpagesize(), a = (uintptr_t)p, e = a + n;
	uintptr_t pa = (a + pg - 1) & ~(pg - 1), pe = e & ~(pg - 1);

	if (pe > pa && madvise((void *)pa, pe - pa, MADV_REMOVE) == 0) {
		memset(p, 0, pa - a);
		memset((void *)pe, 0, e - pe);
		return;
	}
	memset(p, 0, n);
}

int
hostalive(uint32_t tid)
{
	return kill((pid_t)tid, 0) == 0 || errno == EPERM;
}

/*
 * Predicate variables that cost a system call are read by hostrefresh,
 * which the runtime calls at attach, in a forked child and at every turn
 * of its control thread, so the hook path makes none.  The name is the
 * process's (the main thread's comm), kept twice so a refresh never
 * rewrites the copy a hook may be reading.  The ancestors (for `watch
 * PID tree`) are read once for each pid the process has: at attach and
 * in a forked child, while its parents are there to be read; a process
 * whose parent has gone stays its descendant.
 */
enum { Nanc = 64 };
static struct {
	uint32_t ppid, uid, cur;
	char name[2][16];
	uint32_t pid, nanc, anc[Nanc];
} proc;

/* process p's parent: the field after its state in /proc/p/stat (the name before them may hold anything but its closing parenthesis is the last); 0 if it cannot be read */
static uint32_t
parentof(uint32_t p)
{
	char path[32], buf[512], *s;
	unsigned int pp = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%u/stat", p);
	if ((fd = open(path, O_RDONLY|O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if ((s = strrchr(buf, ')')) == NULL || sscanf(s, ") %*c %u", &pp) != 1)
		return 0;
	return pp;
}

static void
ancestors(uint32_t pid)
{
	uint32_t p, n = 0;

	for (p = getppid(); p > 0 && n < Nanc; p = parentof(p))	/* up to init, whose parent is 0 */
		__atomic_store_n(&proc.anc[n++], p, __ATOMIC_RELAXED);
	__atomic_store_n(&proc.nanc, n, __ATOMIC_RELAXED);
	__atomic_store_n(&proc.pid, pid, __ATOMIC_RELEASE);
}

int
hostdescends(uint32_t pid, uint32_t anc)
{
	uint32_t i, n;

	if (pid != __atomic_load_n(&proc.pid, __ATOMIC_ACQUIRE))
		return 0;
	n = __atomic_load_n(&proc.nanc, __ATOMIC_RELAXED);
	for (i = 0; i < n && i < Nanc; i++)
		if (__atomic_load_n(&proc.anc[i], __ATOMIC_RELAXED) == anc)
			return 1;
	return 0;
}

void
hostrefresh(void)
{
	uint32_t me = getpid();
	char buf[16] = "";
	ssize_t n;
	int fd;

	if (me != proc.pid)
		ancestors(me);
	__atomic_store_n(&proc.ppid, getppid(), __ATOMIC_RELAXED);
	__atomic_store_n(&proc.uid, getuid(), __ATOMIC_RELAXED);
	if ((fd = open("/proc/self/comm", O_RDONLY|O_CLOEXEC)) < 0)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (strcmp(buf, proc.name[proc.cur]) != 0) {
		memcpy(proc.name[!proc.cur], buf, sizeof buf);
		__atomic_store_n(&proc.cur, !proc.cur, __ATOMIC_RELEASE);
	}
}

uint32_t
hostppid(void)
{
	return __atomic_load_n(&proc.ppid, __ATOMIC_RELAXED);
}

uint32_t
hostuid(void)
{
	return __atomic_load_n(&proc.uid, __ATOMIC_RELAXED);
}

uint32_t
hostcpu(void)
{
	int c = sched_getcpu();	/* the vDSO's: no system call */

	return c < 0 ? 0 : c;
}

const char *
hostexecname(void)
{
	return proc.name[__atomic_load_n(&proc.cur, __ATOMIC_ACQUIRE)];
}
