/*
 * shmmap.c: the device's life in shared memory: made by the server,
 * mapped by every process, checked before it is trusted, stopped,
 * unmapped, removed; and the sizes each mapping was checked to have,
 * which the device asks its host for (hostlogmax, hostnring).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "host/shm.h"
#include "host/shmdat.h"
#include "dev/host.h"
#include "cycles.h"

/* one calibration for every device maker: records' ticks become time with it; none where the ISA gives the rate */
uint64_t
shmhz(void)
{
	struct timespec ts = { 0, 25 * 1000000L };
	uint64_t n0, c0, n1, c1;

	if (cycleshz() != 0)
		return cycleshz();
	n0 = hostnsec();
	c0 = hostticks();
	nanosleep(&ts, NULL);
	c1 = hostticks();
	n1 = hostnsec();
	return (uint64_t)((double)(c1 - c0) * 1e9 / (double)(n1 - n0));
}

static Hdr *
mapfd(int fd, size_t size)
{
	void *v = mmap(NULL, size, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0);

	if (v == MAP_FAILED)
		return NULL;
	/*
	 * No readahead: where the block is a file system's sparse file (a
	 * /run on disk), a hook's first touch of a page (its ring's header
	 * as it claims it, its aggregation table) faulted in a large folio of
	 * readahead, zeroed: milliseconds on a thread's first hit.  Now one
	 * page a fault.  tmpfs does no readahead: nothing changes there.
	 */
	madvise(v, size, MADV_RANDOM);
	return v;
}

/*
 * What hostlogmax answers: the ring size of each device this process
 * mapped, from the size of its mapping, kept here where no other process
 * writes; and for each of its sessions' Devs, placed by those sizes
 * (devsessoff).  Read on a writer's first hit (hit.c: decide) and by the
 * control side, so lock-free: an entry's sizes are stored before its d.
 */
enum { Nmap = 32 };
static struct {
	Dev *d;
	uint32_t logmax;
	uint32_t nring;
	uint32_t nsess;
} maps[Nmap];

static void
remember(Dev *d, int l, int nring, int nsess)
{
	static uint32_t next;
	Dev *none;
	int i;

	for (i = 0; i < Nmap; i++) {
		none = NULL;
		if (__atomic_load_n(&maps[i].d, __ATOMIC_RELAXED) == NULL &&
		    __atomic_compare_exchange_n(&maps[i].d, &none, (Dev *)1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			goto found;
	}
	/*
	 * Full: the runtime keeps the mapping of every device it left (hooks
	 * may hold it), so a long life of server restarts gets here.  The
	 * oldest goes: its device is long gone, and a thread that wrote to
	 * it keeps its bound in its Writer.
	 */
	i = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % Nmap;
	__atomic_store_n(&maps[i].d, (Dev *)1, __ATOMIC_RELEASE);
found:
	maps[i].logmax = l;
	maps[i].nring = nring;
	maps[i].nsess = nsess;
	__atomic_store_n(&maps[i].d, d, __ATOMIC_RELEASE);
}

/* the process made the block itself: its nring is as it set it, no sessions */
void
shmprivate(Dev *d, int logmax)
{
	uint32_t l, n, ns;

	devsizes(d, &l, &n, &ns);
	remember(d, logmax, n <= Nringmax ? n : 0, 0);
}

static void
forget(Dev *d)
{
	int i;

	for (i = 0; i < Nmap; i++)
		if (__atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE) == d)
			__atomic_store_n(&maps[i].d, NULL, __ATOMIC_RELEASE);
}

/*
 * d's entry: a block this process mapped (*sess 0), or one of its
 * sessions' Devs (*sess 1..nsess); -1 for anything else, where every
 * size in it is damage.
 */
static int
mapof(const Dev *d, uint32_t *sess)
{
	uint32_t n;
	size_t off;
	Dev *top;
	int i;

	for (i = 0; i < Nmap; i++) {
		top = __atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE);
		if (top == NULL || top == (Dev *)1 || (const char *)d < (const char *)top)
			continue;	/* free, or being filled */
		off = (const char *)d - (const char *)top;
		for (n = 0; n <= maps[i].nsess; n++)
			if (off == (n == 0 ? 0 : devsessoff(maps[i].logmax, maps[i].nring, n))) {
				*sess = n;
				return i;
			}
	}
	return -1;
}

uint32_t
hostlogmax(const Dev *d)
{
	uint32_t s;
	int i = mapof(d, &s);

	return i < 0 ? 0 : s == 0 ? maps[i].logmax : (uint32_t)devsesslog(maps[i].logmax);
}

uint32_t
hostnring(const Dev *d)
{
	uint32_t s;
	int i = mapof(d, &s);

	return i < 0 ? 0 : maps[i].nring;
}

/* the sessions a block this process mapped has room for; 0 in a session's Dev */
uint32_t
hostnsess(const Dev *d)
{
	uint32_t s;
	int i = mapof(d, &s);

	return i < 0 || s != 0 ? 0 : maps[i].nsess;
}

/* l, nring, nsess: the sizes the block was made with, checked against the mapping's size by the caller */
static Shm *
handle(Hdr *h, size_t size, int l, int nring, int nsess)
{
	Shm *s;

	if ((s = malloc(sizeof *s)) == NULL) {
		munmap(h, size);
		return NULL;
	}
	s->h = h;
	s->d = (Dev *)((char *)h + Shmhdr);
	s->size = size;
	s->holder = 0;
	s->top = s->d;
	remember(s->d, l, nring, nsess);
	return s;
}

Dev *
shmdev(Shm *s)
{
	return s->d;
}

Dev *
shmcreate(const char *dir, int logmax, uint64_t hz, Shm **hdr)
{
	char path[PATH_MAX], syms[PATH_MAX], priv[PATH_MAX];
	size_t size = Shmhdr + devblocksize(logmax, Nringdef, Nsess);
	Hdr *h;
	Shm *s;
	int fd;

	if (shmpath(dir, "", path, sizeof path) < 0 || shmpath(dir, ".syms", syms, sizeof syms) < 0 ||
	    shmmkdir(priv, sizeof priv) < 0)
		return NULL;
	/* a stale device of a killed server goes: its processes keep their mapping */
	unlink(path);
	unlink(syms);
	if ((fd = shmopenfile(path, O_RDWR|O_CREAT|O_EXCL, 0600)) < 0)
		return NULL;
	if (ftruncate(fd, size) < 0 || (h = mapfd(fd, size)) == NULL || (s = handle(h, size, logmax, Nringdef, Nsess)) == NULL) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	if ((fd = shmopenfile(syms, O_WRONLY|O_CREAT|O_EXCL, 0600)) >= 0)
		close(fd);
	devinit(s->d, logmax, Nringdef, hz);
	devsessinit(s->d, Nsess);
	h->devsize = size - Shmhdr;
	h->serverpid = getpid();
	snprintf(h->dir, sizeof h->dir, "%s", dir);
	__atomic_store_n(&h->alive, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&h->magic, Shmmagic, __ATOMIC_RELEASE);
	*hdr = s;
	return s->d;
}

/* map dir's device; served: only while a server serves it */
static Dev *
mapdev(const char *dir, int served, Shm **hdr, uint64_t *ino)
{
	char path[PATH_MAX];
	struct stat st;
	Hdr *h;
	Dev *d;
	uint32_t l, n, ns;
	int fd;

	if (shmpath(dir, "", path, sizeof path) < 0)
		return NULL;
	if ((fd = shmopenfile(path, O_RDWR, 0)) < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < Shmhdr + sizeof(Hdr) ||
	    (h = mapfd(fd, st.st_size)) == NULL) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != Shmmagic ||
	    (served && !__atomic_load_n(&h->alive, __ATOMIC_ACQUIRE)) ||
	    Shmhdr + h->devsize != (uint64_t)st.st_size || !devok((Dev *)((char *)h + Shmhdr), h->devsize)) {
		munmap(h, st.st_size);
		return NULL;
	}
	/*
	 * The sizes to trust from now on, read once and checked against the
	 * mapping: any pair that makes its size places every ring inside it.
	 */
	d = (Dev *)((char *)h + Shmhdr);
	devsizes(d, &l, &n, &ns);
	if (l < Logmin || l > Logmax || n > Nringmax || ns > Nsess || Shmhdr + devblocksize(l, n, ns) != (uint64_t)st.st_size) {
		munmap(h, st.st_size);
		return NULL;
	}
	if ((*hdr = handle(h, st.st_size, l, n, ns)) == NULL)
		return NULL;
	if (ino)
		*ino = st.st_ino;
	return (*hdr)->d;
}

Dev *
shmattach(const char *dir, Shm **hdr, uint64_t *ino)
{
	return mapdev(dir, 1, hdr, ino);
}

Dev *
shmopen(const char *dir, Shm **hdr)
{
	return mapdev(dir, 0, hdr, NULL);
}

/*
 * Asked by the runtime's control thread on each turn and by devtrace
 * cat -f when it finds nothing to read, never on the hook path: a call
 * costs nothing there worth showing the header's layout for.
 */
int
shmalive(Shm *s)
{
	return __atomic_load_n(&s->h->alive, __ATOMIC_ACQUIRE) != 0;
}

int
shmserverpid(Shm *s)
{
	return (int)__atomic_load_n(&s->h->serverpid, __ATOMIC_RELAXED);
}

void
shmunmap(Shm *s)
{
	if (s->top != s->d) {	/* a session's handle (shmsess.c): the mapping is the top level's */
		free(s);
		return;
	}
	forget(s->d);
	munmap(s->h, s->size);
	free(s);
}

void
shmremove(const char *dir)
{
	char path[PATH_MAX];

	if (shmpath(dir, "", path, sizeof path) == 0)
		unlink(path);
	if (shmpath(dir, ".syms", path, sizeof path) == 0)
		unlink(path);
}

/* the server goes: waiters wake, find alive 0 and detach */
void
shmstop(Shm *s)
{
	__atomic_store_n(&s->h->alive, 0, __ATOMIC_RELEASE);
	shmwake(s);
}
