/*
 * recpids.c: the recorded threads' processes (recpids.h).  A thread's
 * pid is decided at its first record seen, once: its ring's owner's if
 * the owner is that thread; the last owner's, kept when the ring was
 * freed, for the newest record of a ring now free (only its owner
 * writes a ring); else its /proc/TID/status Tgid; else not known (the
 * viewer puts it under the recording's pid).  A process's name is its
 * /proc/PID/comm when found, if it is still there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/recpids.h"

/* Tgid of /proc/TID/status: 0 if it cannot be read (the thread has gone) */
static uint32_t
tgid(uint32_t tid)
{
	char path[64], line[128];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%u/status", tid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "Tgid: %lu", &v) == 1)
			break;
	fclose(f);
	return (uint32_t)v;
}

/* /proc/PID/comm into c, control characters as ?; "" if it cannot be read */
static void
comm(uint32_t pid, char *c)
{
	char path[64];
	size_t n = 0, i;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%u/comm", pid);
	if ((f = fopen(path, "r")) != NULL) {
		n = fread(c, 1, Commlen - 1, f);
		fclose(f);
	}
	if (n > 0 && c[n - 1] == '\n')
		n--;
	c[n] = 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)c[i] < ' ' || c[i] == 0x7f)
			c[i] = '?';
}

static int
hasproc(const Recpids *p, uint32_t pid)
{
	size_t i;

	for (i = 0; i < p->nproc; i++)
		if (p->proc[i].pid == pid)
			return 1;
	return 0;
}

static int
putproc(Recpids *p, const Recproc *r)
{
	Recproc *q;

	if ((q = realloc(p->proc, (p->nproc + 1) * sizeof *q)) == NULL)
		return -1;
	p->proc = q;
	q[p->nproc++] = *r;
	return 0;
}

static int
addproc(Recpids *p, uint32_t pid)
{
	Recproc r = { .pid = pid };

	if (hasproc(p, pid))
		return 0;
	comm(pid, r.comm);
	return putproc(p, &r);
}

/* tid's slot in the table: its thread's, else the free one where it goes */
static size_t
slot(Recpids *p, uint32_t tid)
{
	size_t i;

	for (i = (tid * 0x9e3779b97f4a7c15ull >> 32) & (p->ixcap - 1); p->ix[i] != 0 && p->thr[p->ix[i] - 1].tid != tid; i = (i + 1) & (p->ixcap - 1))
		;
	return i;
}

static Recpid *
known(Recpids *p, uint32_t tid)
{
	size_t i;

	if (p->ixcap == 0 || p->ix[i = slot(p, tid)] == 0)
		return NULL;
	return &p->thr[p->ix[i] - 1];
}

/* the table doubled, every thread put again: at most half full, a probe stays short */
static int
grow(Recpids *p)
{
	size_t cap = p->ixcap ? 2 * p->ixcap : 64, k;
	uint32_t *ix;

	if ((ix = calloc(cap, sizeof *ix)) == NULL)
		return -1;
	free(p->ix);
	p->ix = ix;
	p->ixcap = cap;
	for (k = 0; k < p->nthr; k++)
		p->ix[slot(p, p->thr[k].tid)] = k + 1;
	return 0;
}

static int
addthr(Recpids *p, uint32_t tid, uint32_t pid)
{
	Recpid *t;

	if (2 * (p->nthr + 1) > p->ixcap && grow(p) < 0)
		return -1;
	if (p->nthr == p->maxthr) {
		if ((t = realloc(p->thr, (p->maxthr ? 2 * p->maxthr : 64) * sizeof *t)) == NULL)
			return -1;
		p->thr = t;
		p->maxthr = p->maxthr ? 2 * p->maxthr : 64;
	}
	p->ix[slot(p, tid)] = p->nthr + 1;
	p->thr[p->nthr++] = (Recpid){ tid, pid };
	return pid != 0 ? addproc(p, pid) : 0;
}

int
recpids(Recpids *p, const Rec *r, size_t n, int owned, uint32_t otid, uint32_t opid)
{
	uint32_t tid, who = 0;
	size_t i;
	Recpid *t;

	if (n == 0)
		return 0;
	if (owned && opid != 0)	/* the thread whose pid the ring holds */
		who = otid != 0 ? otid : r[n - 1].tid;
	if (who != 0 && (t = known(p, who)) != NULL && t->pid == 0) {	/* not found before: in the shared ring, gone */
		t->pid = opid;
		if (addproc(p, opid) < 0)
			return -1;
	}
	for (i = 0; i < n; i++) {
		if ((tid = r[i].tid) == p->last)
			continue;
		p->last = tid;
		if (known(p, tid) == NULL && addthr(p, tid, tid == who ? opid : tgid(tid)) < 0)
			return -1;
	}
	return 0;
}

int
recpidsmerge(Recpids *to, const Recpids *from)
{
	const Recpid *f;
	Recpid *t;
	size_t i;

	for (i = 0; i < from->nproc; i++)	/* first, with the names read then: their processes may have gone */
		if (!hasproc(to, from->proc[i].pid) && putproc(to, &from->proc[i]) < 0)
			return -1;
	for (i = 0; i < from->nthr; i++) {
		f = &from->thr[i];
		if ((t = known(to, f->tid)) == NULL) {
			if (addthr(to, f->tid, f->pid) < 0)
				return -1;
		} else if (t->pid == 0 && f->pid != 0) {
			t->pid = f->pid;
			if (addproc(to, f->pid) < 0)
				return -1;
		}
	}
	return 0;
}

void
recpidsout(Recpids *p, FILE *f, uint32_t mainpid)
{
	size_t i;

	for (i = 0; i < p->nthr; i++)
		if (p->thr[i].pid != 0)
			fprintf(f, "thread %u %u\n", p->thr[i].tid, p->thr[i].pid);
	for (i = 0; i < p->nproc; i++)
		if (p->proc[i].pid != mainpid && p->proc[i].comm[0] != 0)
			fprintf(f, "process %u %s\n", p->proc[i].pid, p->proc[i].comm);
}

void
recpidsfree(Recpids *p)
{
	free(p->thr);
	free(p->ix);
	free(p->proc);
	memset(p, 0, sizeof *p);
}
