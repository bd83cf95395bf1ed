/*
 * shmsess.c: sessions (dev/sess.c) on the shared device: clone, open,
 * close, remove and reap under the header's lock, and a handle on a
 * session's Dev.  The handle shares the mapping, the header and its
 * lock with the top level's, so every function of shm.h works on it as
 * on the top level (shmctl, shmstate, shmtake, aggtext); a change of a
 * session's control state moves the top level's generation too, which
 * the runtime's control thread sleeps on (shmctl.c, shmlock.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "host/shm.h"
#include "host/shmdat.h"

/* the lock, or its error as errno */
static int
take(Shm *s, char *err, size_t nerr)
{
	int e;

	if ((e = shmlock(s)) != 0 && err)
		snprintf(err, nerr, "%s", shmbusy(e));
	return e;
}

/* r from the device (-errno on a refusal, its reason in deverr), the lock let go */
static int
done(Shm *s, int r, char *err, size_t nerr)
{
	if (r < 0 && err)
		snprintf(err, nerr, "%s", deverr(s->top));
	shmunlock(s);
	shmwake(s);
	return r;
}

int
shmclone(Shm *s, uint32_t uid, uint32_t pid, char *err, size_t nerr)
{
	int e;

	if ((e = take(s, err, nerr)) != 0)
		return -e;
	return done(s, devclone(s->top, uid, pid), err, nerr);
}

int
shmsessopen(Shm *s, uint32_t n, uint32_t uid, int others)
{
	int e;

	if ((e = take(s, NULL, 0)) != 0)
		return e;
	return -done(s, -devsessopen(s->top, n, uid, others), NULL, 0);
}

int
shmsessclose(Shm *s, uint32_t n)
{
	int e;

	if ((e = take(s, NULL, 0)) != 0)
		return e;
	return -done(s, -devsessclose(s->top, n), NULL, 0);
}

int
shmsessremove(Shm *s, uint32_t n, uint32_t uid, char *err, size_t nerr)
{
	int e;

	if ((e = take(s, err, nerr)) != 0)
		return e;
	return -done(s, -devsessremove(s->top, n, uid), err, nerr);
}

/* the sessions whose holder is gone, ended: how many; -errno if the lock was not had */
int
shmsessreap(Shm *s)
{
	int e;

	if ((e = take(s, NULL, 0)) != 0)
		return -e;
	return done(s, (int)devsessreap(s->top), NULL, 0);
}

int
shmsessowner(Shm *s, uint32_t n, uint32_t *uid, uint32_t *serial)
{
	return devsessowner(s->top, n, uid, serial) ? ENOENT : 0;
}

Shm *
shmsess(Shm *s, uint32_t n)
{
	Shm *v;
	Dev *d;

	if (n == 0 || (d = devsess(s->top, n)) == NULL) {
		errno = ENOENT;
		return NULL;
	}
	if ((v = malloc(sizeof *v)) == NULL)
		return NULL;
	*v = *s;
	v->d = d;
	v->holder = 0;
	return v;
}
