/* shm.c: name, create and map the shared device (see shm.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "host/shm.h"

const char *
devdir(void)
{
	static char buf[PATH_MAX];
	const char *e;

	if ((e = getenv("DEVTRACE_DIR")) != NULL && *e)
		return e;
	if (geteuid() == 0)
		return "/run/devtrace";
	if ((e = getenv("XDG_RUNTIME_DIR")) != NULL && *e)
		snprintf(buf, sizeof buf, "%s/devtrace", e);
	else
		snprintf(buf, sizeof buf, "/tmp/devtrace-%u", (unsigned)geteuid());
	return buf;
}

/* FNV-1a of the absolute directory name: one device per directory */
int
shmpath(const char *dir, const char *suffix, char *buf, size_t n)
{
	char abs[PATH_MAX];
	uint64_t h = 0xcbf29ce484222325ull;
	const char *p;

	if (dir[0] == '/')
		snprintf(abs, sizeof abs, "%s", dir);
	else if (getcwd(abs, sizeof abs) == NULL)
		return -1;
	else
		snprintf(abs + strlen(abs), sizeof abs - strlen(abs), "/%s", dir);
	for (p = abs; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return snprintf(buf, n, "/dev/shm/devtrace-%u-%016llx%s", (unsigned)geteuid(),
		(unsigned long long)h, suffix) >= (int)n ? -1 : 0;
}

static Shm *
mapfd(int fd, size_t size)
{
	void *v = mmap(NULL, size, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0);

	return v == MAP_FAILED ? NULL : v;
}

Dev *
shmdev(Shm *hdr)
{
	return (Dev *)((char *)hdr + Shmhdr);
}

Dev *
shmcreate(const char *dir, int logmax, uint64_t hz, Shm **hdr)
{
	char path[PATH_MAX], syms[PATH_MAX];
	size_t size = Shmhdr + devsize(logmax);
	Shm *s;
	int fd;

	if (shmpath(dir, "", path, sizeof path) < 0 || shmpath(dir, ".syms", syms, sizeof syms) < 0)
		return NULL;
	/* a stale device of a killed server goes: its processes keep their mapping */
	unlink(path);
	unlink(syms);
	if ((fd = open(path, O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0600)) < 0)
		return NULL;
	if (ftruncate(fd, size) < 0 || (s = mapfd(fd, size)) == NULL) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	if ((fd = open(syms, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0600)) >= 0)
		close(fd);
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&s->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	devinit(shmdev(s), logmax, hz);
	s->devsize = devsize(logmax);
	s->serverpid = getpid();
	snprintf(s->dir, sizeof s->dir, "%s", dir);
	__atomic_store_n(&s->alive, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&s->magic, Shmmagic, __ATOMIC_RELEASE);
	*hdr = s;
	return shmdev(s);
}

Dev *
shmattach(const char *dir, Shm **hdr, uint64_t *ino)
{
	char path[PATH_MAX];
	struct stat st;
	Shm *s;
	int fd;

	if (shmpath(dir, "", path, sizeof path) < 0)
		return NULL;
	if ((fd = open(path, O_RDWR|O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < Shmhdr + sizeof(Shm) ||
	    (s = mapfd(fd, st.st_size)) == NULL) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (__atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != Shmmagic || !__atomic_load_n(&s->alive, __ATOMIC_ACQUIRE) ||
	    Shmhdr + s->devsize != (uint64_t)st.st_size || !devok(shmdev(s), s->devsize)) {
		munmap(s, st.st_size);
		return NULL;
	}
	*hdr = s;
	if (ino)
		*ino = st.st_ino;
	return shmdev(s);
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

/* a process killed while holding the lock leaves it to the next one */
void
shmlock(Shm *s)
{
	if (pthread_mutex_lock(&s->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&s->lock);
}

void
shmunlock(Shm *s)
{
	pthread_mutex_unlock(&s->lock);
}

static long
futex(uint32_t *w, int op, uint32_t v, const struct timespec *ts)
{
	return syscall(SYS_futex, w, op, v, ts, NULL, 0);
}

void
shmwake(Shm *s)
{
	futex(devctlgen(shmdev(s)), FUTEX_WAKE, INT32_MAX, NULL);
}

int
shmwait(Shm *s, uint32_t gen, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	uint32_t *w = devctlgen(shmdev(s));

	if (__atomic_load_n(w, __ATOMIC_ACQUIRE) != gen)
		return 0;
	futex(w, FUTEX_WAIT, gen, &ts);
	return __atomic_load_n(w, __ATOMIC_ACQUIRE) != gen ? 0 : -1;
}

int
shmctl(Shm *s, const char *buf, size_t n, uint32_t pid, char *err, size_t nerr)
{
	Dev *d = shmdev(s);
	int e;

	shmlock(s);
	e = devctl(d, buf, n, pid);
	if (e && err)
		snprintf(err, nerr, "%s", deverr(d));
	shmunlock(s);
	shmwake(s);
	return e;
}

size_t
shmstate(Shm *s, char *buf, size_t n)
{
	size_t r;

	shmlock(s);
	r = devstate(shmdev(s), buf, n);
	shmunlock(s);
	return r;
}

size_t
shmread(Shm *s, Reader *rd, char *buf, size_t n)
{
	size_t r;

	shmlock(s);
	r = devread(shmdev(s), rd, buf, n);
	shmunlock(s);
	return r;
}

int
shmreader(Shm *s, uint32_t pid, int open)
{
	int r;

	shmlock(s);
	r = devreader(shmdev(s), pid, open);
	shmunlock(s);
	shmwake(s);
	return r;
}
