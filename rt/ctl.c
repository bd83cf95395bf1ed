/*
 * ctl.c: attaching to the device and keeping the sites in step with it.
 *
 * The constructor finds the objects and turns their sleds into
 * off-state skip-branches while the process is still single-threaded,
 * attaches if a device is served and applies its state.  A control
 * thread (signals blocked, so it never takes the program's) then
 * sleeps on the device's control generation and re-applies on every
 * change: a new View for the hooks, and one byte per site whose state
 * changed.  If the device goes (its server stopped, or another replaced
 * it) every site goes off and the thread looks for a device again; the
 * old mapping stays mapped, since hooks may still hold it.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>
#include <time.h>
#include <unistd.h>
#include "host/linux.h"
#include "rt/rt.h"

Rt rt = { .lock = PTHREAD_MUTEX_INITIALIZER };

void
rtdebug(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (!rt.debug)
		return;
	n = snprintf(buf, sizeof buf, "devtrace[%d]: ", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	if (write(2, buf, n) < 0)
		return;
}

static void
membarinit(void)
{
	long r = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	rt.membar = r > 0 && (r & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) &&
		syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0;
	if (!rt.membar)
		rtdebug("no membarrier sync-core: relying on x86 cross-modifying code rules");
}

/*
 * Is this process watched: an empty list, or one naming our pid or one
 * of our threads, and not a reader.
 */
static int
watched(Dev *d)
{
	uint32_t w[Nwatch], tid;
	struct dirent *de;
	int n, i, r = 0;
	DIR *dp;

	n = devwatches(d, w, Nwatch);
	for (i = 0; i < n && w[i] != rt.pid; i++)
		;
	if (n == 0 || i < n)
		return devwatched(d, rt.pid, rt.pid);
	if ((dp = opendir("/proc/self/task")) == NULL)
		return 0;
	while (r == 0 && (de = readdir(dp)) != NULL) {
		tid = strtoul(de->d_name, NULL, 10);
		for (i = 0; i < n && tid; i++)
			if (w[i] == tid && devwatched(d, rt.pid, tid))
				r = 1;
	}
	closedir(dp);
	return r;
}

static int
select1(Dev *d, uint32_t i)
{
	Site *s = siteat(i);
	Obj *o = rt.obj[s->obj];

	return devselect(d, s->pc, s->pc - o->bias, o->inmain, s->name);
}

static void
freeretired(void)
{
	View *v;

	if (rt.retired == NULL || !grace())
		return;		/* a thread stuck in the runtime: keep them */
	while ((v = rt.retired) != NULL) {
		rt.retired = v->old;
		free(v);
	}
}

/*
 * A new View from the device's state, then the sites' bytes.  The
 * lock is held.  Trace selection is redone only when a trace came or
 * went; otherwise only on/off changes.
 */
void
apply(void)
{
	Dev *d = rt.dev;
	uint32_t n = ald(&rt.nsite), i, *idx = NULL, g;
	View *v, *old = rt.view;
	uint8_t *val = NULL, want;
	int k, same, np = 0;
	Tsel *sel;

	if ((v = calloc(1, sizeof *v + n)) == NULL)
		return;
	v->d = d;
	v->nsite = n;
	v->epoch = ++rt.epoch;
	if ((v->epoch & 0x1ff) == 0)
		memset(rt.classic, 0, sizeof rt.classic);
	memset(v->slot, -1, n);
	if (d) {
		same = old && old->d == d;
		for (k = 0; k < Ntrace; k++) {
			v->has[k] = devtsel(d, k, &v->sel[k]);
			g = v->has[k] ? v->sel[k].gen : 0;
			if (g != rt.gens[k])
				same = 0;
			rt.gens[k] = g;
		}
		v->active = watched(d) && devstarted(d);
		for (i = 0; i < n; i++)
			v->slot[i] = same && i < old->nsite ? old->slot[i] : select1(d, i);
	}
	ast(&rt.view, v);
	if (n > 0 && ((idx = malloc(n * sizeof *idx)) == NULL || (val = malloc(n)) == NULL)) {
		free(idx);
		idx = NULL;
	}
	for (i = 0; idx && i < n; i++) {
		k = v->slot[i];
		sel = k >= 0 && v->has[k] ? &v->sel[k] : NULL;
		want = v->active && sel && devsiteon(d, sel);
		if (want != siteat(i)->on) {
			idx[np] = i;
			val[np++] = want;
		}
	}
	if (np > 0) {
		patch(idx, val, np);
		rtdebug("%d sites switched", np);
	}
	free(idx);
	free(val);
	if (old) {
		old->old = rt.retired;
		rt.retired = old;
	}
	freeretired();
}

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

/* a new object with hooks (dl.c): attach if need be, apply, run the control thread */
void
rtgrow(uint32_t first)
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

static void
prefork(void)
{
	pthread_mutex_lock(&rt.lock);
}

static void
parentfork(void)
{
	pthread_mutex_unlock(&rt.lock);
}

/* the child: one thread, its own pid; a control thread of its own, which re-applies for this pid */
static void
childfork(void)
{
	pthread_mutex_unlock(&rt.lock);
	rt.pid = getpid();
	hostrefresh();
	thrforked();
	if (!rt.active)
		return;
	membarinit();
	rt.ctlup = 0;
	rt.dirty = 1;
	ctlstart();
}

static uint32_t
envnum(const char *name, uint32_t def, uint32_t lo, uint32_t hi)
{
	const char *e = getenv(name);
	unsigned long v;

	if (e == NULL || *e == 0)
		return def;
	v = strtoul(e, NULL, 0);
	return v < lo ? lo : v > hi ? hi : v;
}

__attribute__((constructor)) static void
rtinit(void)
{
	const char *e;

	if ((e = getenv("DEVTRACE_DISABLE")) != NULL && *e && strcmp(e, "0") != 0)
		return;
	rt.debug = getenv("DEVTRACE_DEBUG") != NULL;
	rt.pid = getpid();
	rt.shadow = envnum("DEVTRACE_SHADOW", Shadowdef, Shadowmin, Shadowmax);
	snprintf(rt.dir, sizeof rt.dir, "%s", devdir());
	dlinit();
	jmpinit();
	thrinit();
	membarinit();
	pthread_atfork(prefork, parentfork, childfork);
	pthread_mutex_lock(&rt.lock);
	rt.active = objscan() > 0;
	ast(&rt.ready, 1);
	if (rt.active) {
		attach();
		if (rt.dev) {
			rt.gen = ald(devctlgen(rt.dev));
			rt.dirty = 0;
			apply();
		}
	}
	pthread_mutex_unlock(&rt.lock);
	if (rt.active)
		ctlstart();
}
