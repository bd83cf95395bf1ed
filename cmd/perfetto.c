/*
 * perfetto.c: devtrace dump --perfetto FILE, a recording as
 * Perfetto's native trace: TracePacket/TrackEvent protobuf, written by
 * hand (pbwrite.h), a track per process and thread, a slice per call
 * (dump.h's walk), its arguments and return value typed by FILE.sigs,
 * as sigs.awk types them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/capfile.h"
#include "cmd/dump.h"

enum {
	Flush = 1 << 16,	/* bytes gathered before a write */
	Seqid = 1,		/* the one packet sequence (trusted_packet_sequence_id) */
};

/* Perfetto's field numbers (its protos/perfetto/trace: trace_packet, track_event, ...) */
enum {
	Tpacket = 1,		/* Trace */
	TPclocks = 6, TPtimestamp = 8, TPseqid = 10, TPevent = 11, TPinterned = 12, TPflags = 13,
	TPclockid = 58, TPdefaults = 59, TPtrack = 60,
	CSclock = 1, CKid = 1, CKtime = 2, CKdelta = 3,	/* ClockSnapshot, its Clock */
	Boottime = 6, Deltaclock = 64,	/* clock ids: the trace's default; ours, sequence-scoped (64..127) */
	Seqcleared = 1, Seqneeds = 2,	/* TracePacket.SequenceFlags */
	TEannot = 4, TEtype = 9, TEnameiid = 10, TEtrack = 11,
	Tbegin = 1, Tend = 2, Tinstant = 3,	/* TrackEvent.Type */
	TDuuid = 1, TDprocess = 3, TDthread = 4, TDparent = 5,
	PDpid = 1, PDname = 6,
	THpid = 1, THtid = 2,
	IDnames = 2, IDannot = 3, INiid = 1, INname = 2,	/* InternedData; EventName and DebugAnnotationName alike */
	DAnameiid = 1, DAbool = 2, DAuint = 3, DAint = 4, DAstring = 6, DApointer = 7,
};

/* ns from the recording's #clock: real time, as devtrace info's start; without one, since the counter's 0 */
static int
timebase(Dump *d, Capfile *f)
{
	const char *v = capinfo(f, "clock", 0);
	unsigned long long t, n;

	if (d->hz == 0) {
		fprintf(stderr, "devtrace dump: %s: no #hz in the recording: its ticks cannot be made ns\n", d->path);
		return -1;
	}
	if (v != NULL && sscanf(v, "%llu %llu", &t, &n) == 2) {
		d->t0 = t;
		d->ns0 = n;
	}
	return 0;
}

static void
pfflush(Dump *d, int force)
{
	if (d->pb.n < Flush && !force)
		return;
	if (d->pb.nomem) {
		fprintf(stderr, "devtrace dump: out of memory\n");
		exit(1);
	}
	if (writeall(1, (char *)d->pb.b, d->pb.n) < 0) {
		perror("devtrace dump: standard output");
		exit(1);
	}
	d->pb.n = 0;
}

/*
 * A packet at ticks (~0: none) on the sequence: its timestamp the ns
 * since the last one's (Deltaclock, the sequence's default), varints of
 * a byte or two where absolute ns take nine; one before the last (a
 * call open at the end, ended at its thread's last record) is absolute,
 * on the trace's clock.
 */
static void
pfpacket(Dump *d, uint64_t ticks, int flags)
{
	uint64_t t = ticks != ~0ull ? ns(d, ticks) : 0;

	pbbegin(&d->pb, Tpacket);
	if (ticks != ~0ull && t >= d->last) {
		pbvarint(&d->pb, TPtimestamp, t - d->last);
		d->last = t;
	} else if (ticks != ~0ull) {
		pbvarint(&d->pb, TPtimestamp, t);
		pbvarint(&d->pb, TPclockid, Boottime);
	}
	pbvarint(&d->pb, TPseqid, Seqid);
	if (flags != 0)
		pbvarint(&d->pb, TPflags, (uint64_t)flags);
}

/* the names and argument names first used since the last packet, interned in this one */
static void
pfinterned(Dump *d)
{
	size_t i;

	if (d->sent == d->nname && d->asent == d->nanames)
		return;
	pbbegin(&d->pb, TPinterned);
	for (i = d->sent; i < d->nname; i++) {
		pbbegin(&d->pb, IDnames);
		pbvarint(&d->pb, INiid, i + 1);
		pbstr(&d->pb, INname, d->name[i]);
		pbend(&d->pb);
	}
	for (i = d->asent; i < d->nanames; i++) {
		pbbegin(&d->pb, IDannot);
		pbvarint(&d->pb, INiid, i + 1);
		pbstr(&d->pb, INname, d->aname[i]);
		pbend(&d->pb);
	}
	pbend(&d->pb);
	d->sent = d->nname;
	d->asent = d->nanames;
}

static uint64_t
thruuid(Thr *t)
{
	return 2ull << 32 | t->tid;
}

static uint64_t
procuuid(uint32_t pid)
{
	return 1ull << 32 | pid;
}

static void
pfclock(Dump *d, uint32_t id, int delta)
{
	pbbegin(&d->pb, CSclock);
	pbvarint(&d->pb, CKid, id);
	pbvarint(&d->pb, CKtime, d->ns0);
	if (delta)
		pbvarint(&d->pb, CKdelta, 1);
	pbend(&d->pb);
}

/*
 * The sequence starts: its packets' timestamps are on Deltaclock by
 * default, an incremental clock that reads the trace's (Boottime) at
 * the #clock's ns; the first packet's delta is from there.
 */
static void
pfclocks(Dump *d)
{
	pfpacket(d, ~0ull, Seqcleared);
	pbbegin(&d->pb, TPdefaults);
	pbvarint(&d->pb, TPclockid, Deltaclock);
	pbend(&d->pb);
	pbbegin(&d->pb, TPclocks);
	pfclock(d, Boottime, 0);
	pfclock(d, Deltaclock, 1);
	pbend(&d->pb);
	pbend(&d->pb);
	d->last = d->ns0;
}

/* a process's track: its pid and name */
static void
pftrack(Dump *d, uint32_t pid, const char *name)
{
	pfpacket(d, ~0ull, 0);
	pbbegin(&d->pb, TPtrack);
	pbvarint(&d->pb, TDuuid, procuuid(pid));
	pbbegin(&d->pb, TDprocess);
	pbvarint(&d->pb, PDpid, pid);
	if (name != NULL)
		pbstr(&d->pb, PDname, name);
	pbend(&d->pb);
	pbend(&d->pb);
	pbend(&d->pb);
}

static Pname *
pnameof(Dump *d, uint32_t pid)
{
	size_t i;

	for (i = 0; i < d->npname; i++)
		if (d->pname[i].pid == pid)
			return &d->pname[i];
	d->pname = xalloc(d->pname, (d->npname + 1) * sizeof *d->pname);
	d->pname[d->npname] = (Pname){ pid, NULL, 0 };
	return &d->pname[d->npname++];
}

/* the trailer's threads and processes (capfile.h), kept: the file is closed before the walk */
static void
loadprocs(Dump *d, Capfile *f)
{
	unsigned tid, pid;
	const char *v;
	int i, k;

	for (i = 0; (v = capinfo(f, "thread", i)) != NULL; i++)
		if (sscanf(v, "%u %u", &tid, &pid) == 2) {
			d->proc = xalloc(d->proc, (d->nproc + 1) * sizeof *d->proc);
			d->proc[d->nproc++] = (Proc){ tid, pid };
		}
	for (i = 0; (v = capinfo(f, "process", i)) != NULL; i++)
		if (sscanf(v, "%u %n", &pid, &k) == 1 && pid != d->pid)
			pnameof(d, pid)->name = strsave(v + k);
}

/* the thread's process: its trailer line's, else the recording's */
static uint32_t
pidof(Dump *d, uint32_t tid)
{
	size_t i;

	for (i = 0; i < d->nproc; i++)
		if (d->proc[i].tid == tid)
			return d->proc[i].pid;
	return d->pid;
}

/*
 * The recording's process track (capfile.h: pid, command); another
 * process's comes before its first thread's, named as record read its
 * /proc/PID/comm, else "pid N".
 */
static void
pfprocess(Dump *d, Capfile *f)
{
	const char *v;

	d->pid = (v = capinfo(f, "pid", 0)) != NULL ? (uint32_t)strtoul(v, NULL, 10) : 0;
	loadprocs(d, f);
	pfclocks(d);
	pftrack(d, d->pid, capinfo(f, "command", 0));
}

static void
pfthread(Dump *d, Thr *t)
{
	uint32_t pid = pidof(d, t->tid);
	Pname *p;
	char name[32];

	if (pid != d->pid && !(p = pnameof(d, pid))->sent) {
		snprintf(name, sizeof name, "pid %u", pid);
		pftrack(d, pid, p->name != NULL ? p->name : name);
		p->sent = 1;
	}
	pfpacket(d, ~0ull, 0);
	pbbegin(&d->pb, TPtrack);
	pbvarint(&d->pb, TDuuid, thruuid(t));
	pbvarint(&d->pb, TDparent, procuuid(pid));
	pbbegin(&d->pb, TDthread);
	pbvarint(&d->pb, THpid, pid);
	pbvarint(&d->pb, THtid, t->tid);
	pbend(&d->pb);
	pbend(&d->pb);
	pbend(&d->pb);
}

enum { Vint, Vuint, Vbool, Vptr, Vstruct, Vnone };

/* the classes of devtrace sigs (dwarf.c), by prefix: how each shows in Perfetto */
static const struct {
	char *prefix;
	int how;
} classes[] = {
	{ "struct", Vstruct }, { "enum", Vint }, { "char", Vint }, { "bool", Vbool },
	{ "ptr", Vptr }, { "other", Vptr }, { "s", Vint }, { "u", Vuint },
};

/* the bits of a class's width: "s32" 32, "char" 8, "struct16" 128; others 64 */
static int
width(const char *c)
{
	int b = atoi(c + strcspn(c, "0123456789"));

	if (strcmp(c, "char") == 0)
		return 8;
	if (strncmp(c, "struct", 6) == 0)
		return 8 * b;
	return b > 0 && b < 64 ? b : 64;
}

static int
how(const char *c)
{
	size_t i;

	for (i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (strncmp(c, classes[i].prefix, strlen(classes[i].prefix)) == 0)
			return classes[i].how;
	return Vnone;	/* floating point: not in the words the record keeps */
}

/* one argument or return value of class c in word w (w2 the next) as a DebugAnnotation of the name's iid */
static void
pfvalue(Dump *d, uint32_t iid, const char *c, uint64_t w, uint64_t w2)
{
	int b = width(c);
	uint64_t low = b < 64 ? w & ((1ull << b) - 1) : w;
	char s[64];

	pbbegin(&d->pb, TEannot);
	pbvarint(&d->pb, DAnameiid, iid);
	switch (how(c)) {
	case Vint:
		pbvarint(&d->pb, DAint, b < 64 ? (uint64_t)((int64_t)(w << (64 - b)) >> (64 - b)) : w);
		break;
	case Vuint:
		pbvarint(&d->pb, DAuint, low);
		break;
	case Vbool:
		pbvarint(&d->pb, DAbool, (w & 0xff) != 0);
		break;
	case Vptr:
		pbvarint(&d->pb, DApointer, w);
		break;
	case Vstruct:
		if (b > 64)
			snprintf(s, sizeof s, "{0x%llx, 0x%llx}", (unsigned long long)w, (unsigned long long)w2);
		else
			snprintf(s, sizeof s, "{0x%llx}", (unsigned long long)w);
		pbstr(&d->pb, DAstring, s);
		break;
	default:
		pbstr(&d->pb, DAstring, "?");
	}
	pbend(&d->pb);
}

/* an entry's arguments, as its signature says: "name:class:word", word 1..4 the record's a[0..3] */
static void
pfargs(Dump *d, Fn *f, const Rec *r)
{
	char name[256], class[4096];
	int i, w;
	uint32_t iid;

	for (i = 0; f->sig != NULL && i < f->sig->narg; i++) {
		if (sscanf(f->sig->arg[i], "%255[^:]:%4095[^:]:%d", name, class, &w) != 3)
			continue;
		iid = intern(&d->aname, &d->nanames, name);
		if (w < 1 || w > 4)
			pfvalue(d, iid, "?", 0, 0);
		else
			pfvalue(d, iid, class, r->a[w - 1], w < 4 ? r->a[w] : 0);
	}
}

static void
pfevent(Dump *d, Thr *t, Fn *f, uint64_t ticks, int type, const Rec *r)
{
	uint32_t iid;
	char class[4096], name[8];
	int i;

	pfpacket(d, ticks, Seqneeds);
	pbbegin(&d->pb, TPevent);
	pbvarint(&d->pb, TEtype, (uint64_t)type);
	pbvarint(&d->pb, TEtrack, thruuid(t));
	if (type != Tend)
		pbvarint(&d->pb, TEnameiid, f->id);
	if (type == Tbegin)
		pfargs(d, f, r);
	if (type == Tend && r != NULL && f->sig != NULL && sscanf(f->sig->ret, "%4095s", class) == 1 && strcmp(class, "void") != 0) {
		iid = intern(&d->aname, &d->nanames, "return");
		pfvalue(d, iid, class, r->a[0], 0);
	}
	for (i = 0; type == Tinstant && i < 4; i++) {
		snprintf(name, sizeof name, "arg%d", i);
		pfvalue(d, intern(&d->aname, &d->nanames, name), "s64", r->a[i], 0);
	}
	pbend(&d->pb);
	pfinterned(d);
	pbend(&d->pb);
	pfflush(d, 0);
}

/* the slice event of each kind of step (calls.h); 0: none */
static const int pftype[] = { [Centry] = Tbegin, [Cexit] = Tend, [Cnoexit] = Tend, [Cprobe] = Tinstant };

static int
pfwalk(Dump *d)
{
	Step s;
	int rc;

	if (walkopen(d) != 0)
		return 1;
	while ((rc = walknext(d, &s, 0, 0)) > 0) {
		if (s.isnew)
			pfthread(d, s.t);
		if (pftype[s.kind] != 0)
			pfevent(d, s.t, s.f, pftype[s.kind] == Tend ? s.end : s.r->ticks, pftype[s.kind], s.r);
	}
	return walkclose(d, rc);
}

int
perfettodump(Dump *d)
{
	Capfile *f;
	int rc;

	if (isatty(1)) {
		fprintf(stderr, "devtrace dump: standard output is a terminal: send the binary trace to a file (> F.pftrace)\n");
		return 2;
	}
	if ((f = capopen(d->path, "devtrace dump")) == NULL)
		return 1;
	d->hz = caphz(f);
	if (timebase(d, f) != 0) {
		capclose(f);
		return 1;
	}
	loadsigs(d);
	pfprocess(d, f);
	capclose(f);
	rc = pfwalk(d);
	pfflush(d, 1);
	return rc;
}
