/*
 * shmmap.c: the device's life in shared memory: made by the server,
 * mapped by every process, checked before it is trusted, stopped,
 * unmapped, removed; each mapping's sizes, once checked, told to the
 * device (devmapped), which trusts them over the block's.
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

/* the process made the block itself: its nring is as it set it, no sessions */
void
shmprivate(Dev *d, int logmax)
{
	uint32_t l, n, ns;

	devsizes(d, &l, &n, &ns);
	devmapped(d, logmax, n, 0);
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
	s->nring = nring;
	s->holder = 0;
	s->top = s->d;
	devmapped(s->d, l, nring, nsess);
	return s;
}

Dev *
shmdev(Shm *s)
{
	return s->d;
}

uint32_t
shmnring(Shm *s)
{
	return s->nring;
}

uint32_t
shmringsqueued(Shm *s, uint32_t *ring, uint32_t n)
{
	return devringsqueued(s->d, ring, n);
}

int
shmringowner(Shm *s, uint32_t ring, uint32_t *tid, uint32_t *pid)
{
	return devringowner(s->d, ring, tid, pid);
}

Dev *
shmcreate(const char *dir, int logmax, int nring, uint64_t hz, Shm **hdr)
{
	char path[PATH_MAX], syms[PATH_MAX], priv[PATH_MAX];
	size_t size = Shmhdr + devblocksize(logmax, nring, Nsess);
	Hdr *h;
	Shm *s;
	int fd;

	if (nring < 1 || nring > Nringmax) {
		errno = EINVAL;
		return NULL;
	}
	if (shmpath(dir, "", path, sizeof path) < 0 || shmpath(dir, ".syms", syms, sizeof syms) < 0 ||
	    shmmkdir(priv, sizeof priv) < 0)
		return NULL;
	/* a stale device of a killed server goes: its processes keep their mapping */
	unlink(path);
	unlink(syms);
	if ((fd = shmopenfile(path, O_RDWR|O_CREAT|O_EXCL, 0600)) < 0)
		return NULL;
	if (ftruncate(fd, size) < 0 || (h = mapfd(fd, size)) == NULL || (s = handle(h, size, logmax, nring, Nsess)) == NULL) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	if ((fd = shmopenfile(syms, O_WRONLY|O_CREAT|O_EXCL, 0600)) >= 0)
		close(fd);
	devinit(s->d, logmax, nring, hz);
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
	devunmapped(s->d);
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
