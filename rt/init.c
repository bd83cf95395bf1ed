/*
 * init.c: the runtime's start-up and fork.  The constructor finds the
 * objects and turns their sleds into off-state skip-branches while the
 * process is still single-threaded, attaches if a device is served,
 * applies its state and starts the control thread (ctl.c).  A fork's
 * child gets a control thread of its own.
 */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "host/linux.h"
#include "rt/rt.h"
#include "rt/thr.h"

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
	syncinit();
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

/*
 * The runtime's own code mapped now, not at the first call that runs a
 * part of it: the kernel maps a file's text a fault at a time, and a
 * fault inside a traced call was most of a first call's extra time
 * (devrecord's page, 30 us on a VM here).  One MADV_POPULATE_READ of each
 * executable segment (Linux 5.14); refused, a read of each page.
 */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
static int
textin(struct dl_phdr_info *o, size_t size, void *self)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a, e;
	int i;

	(void)size;
	for (i = 0; i < o->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &o->dlpi_phdr[i];

		if (p->p_type != PT_LOAD || !(p->p_flags & PF_X))
			continue;
		a = (o->dlpi_addr + p->p_vaddr) & ~(pg - 1);
		e = o->dlpi_addr + p->p_vaddr + p->p_memsz;
		if ((uintptr_t)self < a || (uintptr_t)self >= e)
			continue;
		rt.text = a;
		rt.etext = e;
		if (madvise((void *)a, e - a, MADV_POPULATE_READ) != 0)
			for (; a < e; a += pg)
				(void)*(volatile const char *)a;
		return 1;
	}
	return 0;
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
	syncinit();
	pthread_atfork(prefork, parentfork, childfork);
	pthread_mutex_lock(&rt.lock);
	rt.active = objscan() > 0;
	ast(&rt.ready, 1);
	if (rt.active) {
		dl_iterate_phdr(textin, (void *)textin);
		ctlfirst();
	}
	pthread_mutex_unlock(&rt.lock);
	if (rt.active)
		ctlstart();
}
