/*
 * ctl.c: attaching to the device and following it.  A control thread
 * (signals blocked, so it never takes the program's) sleeps on the
 * device's control generation and re-applies (apply.c) on every
 * change.  If the device goes (its server stopped, or another replaced
 * it) every site goes off and the thread looks for a device again; the
 * old mapping stays mapped, since hooks may still hold it.
 */
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include "host/linux.h"
#include "rt/rt.h"

static void
attach(void)
{
	Shm *s;
	Dev *d;
	uint64_t ino;
	uint32_t i;

	if ((d = shmattach(rt.dir, &s, &ino)) == NULL)
		return;
	hostrefresh();
	rt.shm = s;
	rt.dev = d;
	rt.ino = ino;
	rt.dirty = 1;
	for (i = 0; i < rt.nobj; i++)
		objsyms(rt.obj[i]);
	rtdebug("attached to %s", rt.dir);
}

/* the server stopped, or another device replaced ours */
static int
devgone(void)
{
	char path[PATH_MAX];
	struct stat st;

	if (!shmalive(rt.shm))
		return 1;
	return shmpath(rt.dir, "", path, sizeof path) == 0 && (stat(path, &st) < 0 || st.st_ino != rt.ino);
}

static void
detach(void)
{
	rtdebug("detached from %s", rt.dir);
	rt.shm = NULL;
	rt.dev = NULL;
	apply();
}

/* the lock is held: attach or detach as the device comes and goes, apply any change */
static void
step(void)
{
	uint32_t gen;

	hostrefresh();
	if (rt.dev && devgone())
		detach();
	if (rt.dev == NULL)
		attach();
	if (rt.dev == NULL)
		return;
	gen = ald(devctlgen(rt.dev));
	if (gen != rt.gen || rt.dirty) {
		rt.gen = gen;
		rt.dirty = 0;
		apply();
	}
}

static void *
ctlproc(void *arg)
{
	struct timespec ts = { 0, Pollms * 1000000L };
	uint32_t gen;
	Shm *s;

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&rt.lock);
		step();
		s = rt.shm;
		gen = rt.gen;
		pthread_mutex_unlock(&rt.lock);
		if (s)
			shmwait(s, gen, Pollms);
		else
			nanosleep(&ts, NULL);
	}
	return NULL;
}

/* the control thread, with every signal blocked: the program's signals are not ours to take */
void
ctlstart(void)
{
	sigset_t all, old;
	pthread_attr_t a;

	int no = 0;

	if (!__atomic_compare_exchange_n(&rt.ctlup, &no, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	sigfillset(&all);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 256 * 1024);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&rt.ctl, &a, ctlproc, NULL) != 0)
		ast(&rt.ctlup, 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
}

/* at start-up, with hooks: attach and apply, if a device is served */
void
ctlfirst(void)
{
	attach();
	if (rt.dev) {
		rt.gen = ald(devctlgen(rt.dev));
		rt.dirty = 0;
		apply();
	}
}

/* new objects with hooks (dl.c): attach if need be, apply */
void
ctlgrow(uint32_t first)
{
	uint32_t i;

	rt.active = 1;
	if (rt.dev == NULL)
		attach();
	for (i = first; i < rt.nobj; i++)
		objsyms(rt.obj[i]);
	if (rt.dev) {
		rt.gen = ald(devctlgen(rt.dev));
		rt.dirty = 0;
	}
	apply();
}

