/*
 * shmctl.c: what tracectl and trace do, on the shared device: each
 * call of the device's control or read side under the header's lock.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "host/shm.h"
#include "dev/host.h"

/*
 * a whole text (f nil), one write of an open file, or its close; sigs:
 * the signatures its lines may name arguments from (nil: none), which
 * the caller gathered before this takes the lock; err: the device's
 * reason for a refusal
 */
static int
ctl(Shm *s, Ctlfile *f, int close, const char *buf, size_t n, uint32_t pid, const Devsigs *sigs, char *err, size_t nerr)
{
	Dev *d = shmdev(s);
	int e;

	if ((e = shmlock(s)) != 0) {
		if (err)
			snprintf(err, nerr, "%s", shmbusy(e));
		return e;
	}
	if (f)
		f->sigs = sigs;
	if (f == NULL)
		e = devctlsigs(d, buf, n, pid, sigs);
	else if (close)
		e = devctlclose(d, f);	/* zeroes f */
	else
		e = devctlwrite(d, f, buf, n, pid);
	if (f)
		f->sigs = NULL;
	if (e && err)
		snprintf(err, nerr, "%s", deverr(d));
	shmunlock(s);
	shmwake(s);
	return e;
}

int
shmctl(Shm *s, const char *buf, size_t n, uint32_t pid, const Devsigs *sigs, char *err, size_t nerr)
{
	return ctl(s, NULL, 0, buf, n, pid, sigs, err, nerr);
}

int
shmctlwrite(Shm *s, Ctlfile *f, const char *buf, size_t n, uint32_t pid, const Devsigs *sigs, char *err, size_t nerr)
{
	return ctl(s, f, 0, buf, n, pid, sigs, err, nerr);
}

int
shmctlclose(Shm *s, Ctlfile *f, const Devsigs *sigs, char *err, size_t nerr)
{
	return ctl(s, f, 1, "", 0, 0, sigs, err, nerr);
}

size_t
shmstate(Shm *s, char *buf, size_t n)
{
	size_t r;

	if (shmlock(s) != 0) {
		if (n > 0)
			buf[0] = 0;
		return 0;
	}
	r = devstate(shmdev(s), buf, n);
	shmunlock(s);
	return r;
}

ssize_t
shmtake(Shm *s, Reader *rd, char *buf, size_t n)
{
	size_t r;

	if (shmlock(s) != 0)
		return -1;
	r = devread(shmdev(s), rd, buf, n);
	shmunlock(s);
	return r;
}

/*
 * A capture's read of one source (devtrace record): its records,
 * unmerged; a writer's ring outside the lock, under its claim by this
 * thread (devreadwring), so record's threads copy side by side.
 */
ssize_t
shmtakering(Shm *s, Reader *rd, uint32_t ring, Rec *out, size_t n)
{
	size_t r;

	if (ring < shmnring(s))
		return devreadwring(shmdev(s), ring, (uint32_t)gettid(), out, n, &rd->wait);
	if (shmlock(s) != 0)
		return -1;
	r = devreadring(shmdev(s), rd, ring, out, n);
	shmunlock(s);
	return r;
}

/*
 * A record being written makes devread return with rd->wait set: look
 * again, without the lock, until it is done or the device gives it up
 * (ring.c: Stucknsec).  Readwaitms bounds the whole call all the same,
 * whatever the block says.
 */
enum { Readwaitms = 100 };

size_t
shmread(Shm *s, Reader *rd, char *buf, size_t n)
{
	struct timespec nap = { 0, 200 * 1000L };
	uint64_t end = hostnsec() + Readwaitms * 1000000ull;
	ssize_t r;

	for (;;) {
		if ((r = shmtake(s, rd, buf, n)) < 0)
			return 0;
		if (r > 0 || !rd->wait || hostnsec() >= end) {
			errno = 0;
			return r;
		}
		nanosleep(&nap, NULL);
	}
}

int
shmreader(Shm *s, uint32_t pid, int open)
{
	int r;

	if ((r = shmlock(s)) != 0)
		return r;
	r = devreader(shmdev(s), pid, open);
	shmunlock(s);
	shmwake(s);
	return r;
}
