/*
 * apply.c: the device's state made the hooks' and the sites': a new
 * View (which trace each site belongs to, whether this process is
 * watched), published by one pointer, then one store per site whose
 * state changed, then the old View retired (grace.c).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "rt/rt.h"
#include "rt/thr.h"

/*
 * Is this process watched: an empty list, or one naming our pid, the
 * tree of one of our ancestors or one of our threads, and not a reader.
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
	if ((r = devwatched(d, rt.pid, rt.pid)) || n == 0 || i < n)
		return r;
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

/* a fresh View of n sites, with a part for each live session (sd[n-1] not nil), every site slot -1 */
static View *
viewnew(uint32_t n, Dev **sd)
{
	size_t head = (sizeof(View) + 2 * (size_t)n + 7) & ~(size_t)7, part = (sizeof(Vsess) + n + 7) & ~(size_t)7;
	size_t pcs = n * sizeof(uint64_t);
	char *next;
	View *v;
	uint32_t j, ns = 0;

	for (j = 0; j < Nsess; j++)
		ns += sd[j] != NULL;
	if ((v = calloc(1, head + pcs + ns * part)) == NULL)
		return NULL;
	v->nsite = n;
	memset(v->slot, -1, n);
	v->pc = (uint64_t *)((char *)v + head);
	next = (char *)v + head + pcs;
	for (j = 0; j < Nsess; j++)
		if (sd[j] != NULL) {
			v->sess[j] = (Vsess *)next;
			v->sess[j]->slot = (int8_t *)(v->sess[j] + 1);
			memset(v->sess[j]->slot, -1, n);
			next += part;
		}
	return v;
}

static int
select1(Dev *d, uint32_t i)
{
	Site *s = siteat(i);
	Obj *o = rt.obj[s->obj];

	return devselect(d, s->pc, s->pc - o->bias, o->inmain, s->name);
}

/*
 * A live session's part: its traces, the sites they select, and in the
 * sites' masks bit b where the session wants the site on.  Its
 * selections are made afresh at every change: sessions are few, and a
 * change of theirs is rare.
 */
static void
sessapply(View *v, Vsess *p, Dev *d, uint32_t b)
{
	uint8_t *mask = sitemask(v);
	int k, on;
	uint32_t i;

	p->d = d;
	for (k = 0; k < Ntrace; k++)
		p->has[k] = devtsel(d, k, &p->sel[k]);
	on = watched(d) && devstarted(d);
	if (on)
		v->sessactive |= b;
	for (i = 0; i < v->nsite; i++) {
		p->slot[i] = select1(d, i);
		k = p->slot[i];
		if (on && k >= 0 && p->has[k] && devsiteon(d, &p->sel[k]))
			mask[i] |= b;
	}
}

/*
 * The level whose plain hits the fast path writes (hook.c): the top
 * level where it traces this process, else the lowest live session
 * (devtrace record's, run -t's); its control generation as read
 * before its state (sgen: the sessions').  Gen 0 (the generation
 * wrapped) is a Writer's "not fast": no level then.
 */
static void
fastlevel(View *v, const uint32_t *sgen)
{
	uint32_t n = v->sessactive ? (uint32_t)__builtin_ctz(v->sessactive) + 1 : 0;

	if (v->active || n == 0) {
		v->fd = v->d;
		v->fsess = 1;
		v->fwoff = offsetof(Thr, w);
	} else {
		v->fd = v->sess[n - 1]->d;
		v->fsess = 1u << n;
		v->fwoff = offsetof(Thr, ws) + (n - 1) * sizeof(Writer);
		v->gen = sgen[n - 1];
	}
	if (v->gen == 0)
		v->fd = NULL;
}

/*
 * Every site's pc, for the hooks; Pcslow set but where the hit is
 * decided now, not at every hit (hook.c's fast path): fastlevel's
 * alone, a plain trace (no predicate, aggregation or action, records
 * on), on.
 */
static void
fastsites(View *v)
{
	uint32_t i, n = v->fsess > 1 ? (uint32_t)__builtin_ctz(v->fsess) : 0, want = v->fsess >> 1;
	const int8_t *slot = n ? v->sess[n - 1]->slot : v->slot;
	const uint8_t *has = n ? v->sess[n - 1]->has : v->has;
	const Tsel *sel = n ? v->sess[n - 1]->sel : v->sel;
	int k, fast;

	for (i = 0; i < v->nsite; i++) {
		k = slot[i];
		fast = v->fd && k >= 0 && has[k] && sel[k].plain && sitemask(v)[i] == want && devsiteon(v->fd, &sel[k]);
		v->pc[i] = siteat(i)->pc | (fast ? 0 : Pcslow);
	}
}

/*
 * A new View from the device's state, then the sites' bytes.  The
 * lock is held.  Trace selection is redone only when a trace came or
 * went; otherwise only on/off changes.  A site is on if the top level
 * or a session wants it.
 */
void
apply(void)
{
	Dev *d = rt.dev;
	uint32_t n = ald(&rt.nsite), i, *idx = NULL, g;
	View *v, *old = rt.view;
	uint8_t *val = NULL, want;
	int k, same, np = 0;
	Dev *sd[Nsess];
	uint32_t j, sgen[Nsess];
	Tsel *sel;

	for (j = 0; j < Nsess; j++)
		sd[j] = d ? devsess(d, j + 1) : NULL;
	if ((v = viewnew(n, sd)) == NULL)
		return;
	v->d = d;
	v->epoch = ++rt.epoch;
	if ((v->epoch & 0x1ff) == 0)
		memset(rt.classic, 0, sizeof rt.classic);
	if (d) {
		v->gen = ald(devctlgen(d)) + 1;	/* first: a change while the View is made moves it */
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
		for (j = 0; j < Nsess; j++)
			if (v->sess[j]) {
				sgen[j] = ald(devctlgen(sd[j])) + 1;	/* as v->gen */
				sessapply(v, v->sess[j], sd[j], 1u << j);
			}
		fastlevel(v, sgen);
	}
	fastsites(v);
	ast(&rt.view, v);
	if (n > 0 && ((idx = malloc(n * sizeof *idx)) == NULL || (val = malloc(n)) == NULL)) {
		free(idx);
		idx = NULL;
	}
	for (i = 0; idx && i < n; i++) {
		k = v->slot[i];
		sel = k >= 0 && v->has[k] ? &v->sel[k] : NULL;
		want = (v->active && sel && devsiteon(d, sel)) || sitemask(v)[i] != 0;
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
	retire(old);
}

