/*
 * dump.c: devtrace dump --perfetto|--speedscope FILE, a recording of
 * devtrace record (capfile.h) for a viewer: Perfetto's native trace
 * (TracePacket/TrackEvent protobuf, written by hand: pbwrite.h), or
 * speedscope's evented JSON.  Both take the file's calls as report and
 * graph do (calls.h: paired as flow pairs them, named by FILE.syms);
 * arguments and return values are typed by FILE.sigs, as sigs.awk
 * types them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/calls.h"
#include "cmd/capfile.h"
#include "cmd/pbwrite.h"

enum {
	Nrec = 16384,		/* records asked of caprun at once */
	Flush = 1 << 16,	/* Perfetto: bytes gathered before a write */
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

typedef struct Sig Sig;	/* a function's line of FILE.sigs, cut: "NAME RET ARG..." */
struct Sig {
	char *name;
	char *ret;
	char *arg[8];		/* "name:class:word" */
	int narg;
	int twice;		/* the name has two different lines: untyped, as sigs.awk has it */
};

typedef struct Fn Fn;	/* a function, by calls.h's number */
struct Fn {
	uint32_t id;		/* 1 + its index in Dump.name: Perfetto's iid, speedscope's frame + 1; 0: not used yet */
	Sig *sig;		/* nil: untyped */
};

typedef struct Thr Thr;	/* a thread, by calls.h's number */
struct Thr {
	uint32_t tid;
	uint64_t first, last;	/* its first and last record's ticks */
};

typedef struct Proc Proc;	/* a thread's process, from the trailer (capfile.h: thread, process) */
struct Proc {
	uint32_t tid, pid;
};

typedef struct Pname Pname;	/* a process other than the recording's */
struct Pname {
	uint32_t pid;
	char *name;		/* nil: none read */
	int sent;		/* Perfetto: its track written */
};

typedef struct Dump Dump;
struct Dump {
	const char *path;
	uint64_t hz, t0, ns0;	/* a time's ns: ns0 + (ticks - t0) / hz */
	uint64_t last;		/* Perfetto: the incremental clock's ns, the last packet's on it */
	Fn *fn;
	size_t nfn;
	char **name;		/* the functions' names in the order first used, by id - 1 */
	size_t nname, sent;	/* Perfetto: names interned so far */
	char **aname;		/* the arguments' names, the same way */
	size_t nanames, asent;
	Sig *sig;		/* FILE.sigs, sorted by name */
	size_t nsig;
	Thr *thr;
	size_t nthr;
	Pb pb;
	uint32_t pid;		/* the recording's (capfile.h: pid) */
	Proc *proc;		/* the trailer's "thread TID PID" lines */
	size_t nproc;
	Pname *pname;		/* the processes they name, but pid */
	size_t npname;
	int emitted;		/* speedscope: an event of this profile written */
	FILE *out;
};

typedef struct Emit Emit;
struct Emit {
	void (*begin)(Dump *d, Thr *t, Fn *f, const Rec *r);
	void (*end)(Dump *d, Thr *t, Fn *f, uint64_t ticks, const Rec *r);	/* r: its own exit, else nil (cut) */
	void (*instant)(Dump *d, Thr *t, Fn *f, const Rec *r);	/* nil: probes left out */
	void (*thread)(Dump *d, Thr *t);	/* before its first record's */
};

static void *
xalloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL) {
		fprintf(stderr, "devtrace dump: out of memory\n");
		exit(1);
	}
	return p;
}

static char *
strsave(const char *s)
{
	return strcpy(xalloc(NULL, strlen(s) + 1), s);
}

/* the id of s among the n names (1 + its index), added if new: few names (a program's argument names), so a scan */
static uint32_t
intern(char ***names, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*names)[i], s) == 0)
			return (uint32_t)i + 1;
	*names = xalloc(*names, (*n + 1) * sizeof **names);
	(*names)[(*n)++] = strsave(s);
	return (uint32_t)*n;
}

static int
sigcmp(const void *a, const void *b)
{
	return strcmp(((const Sig *)a)->name, ((const Sig *)b)->name);
}

/* FILE.sigs: "NAME RET ARG..."; a name of two different lines stays untyped, as sigs.awk has it */
static void
loadsigs(Dump *d)
{
	char path[4096], line[8192], *p, *w;
	FILE *f;
	Sig *s, *o;
	size_t i, k;

	snprintf(path, sizeof path, "%s.sigs", d->path);
	if ((f = fopen(path, "r")) == NULL)
		return;		/* no signatures: calls without arguments */
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || (p = strchr(line, ' ')) == NULL)
			continue;
		*p = 0;
		d->sig = xalloc(d->sig, (d->nsig + 1) * sizeof *d->sig);
		s = &d->sig[d->nsig++];
		memset(s, 0, sizeof *s);
		s->name = strsave(line);
		s->ret = strsave(p + 1);	/* the whole rest until every line is read */
	}
	fclose(f);
	/* sorted by name, a name's lines together: one kept, marked if another differs */
	qsort(d->sig, d->nsig, sizeof *d->sig, sigcmp);
	for (i = k = 0; i < d->nsig; i++) {
		o = k > 0 ? &d->sig[k - 1] : NULL;
		if (o != NULL && strcmp(o->name, d->sig[i].name) == 0) {
			o->twice |= strcmp(o->ret, d->sig[i].ret) != 0;
			continue;
		}
		d->sig[k++] = d->sig[i];
	}
	d->nsig = k;
	/* each line cut into its words */
	for (i = 0; i < d->nsig; i++) {
		s = &d->sig[i];
		for (w = strtok(s->ret, " "); (w = strtok(NULL, " ")) != NULL && s->narg < 8;)
			s->arg[s->narg++] = w;
	}
}

/* the signature of a function named name, or nil */
static Sig *
sigof(Dump *d, const char *name)
{
	Sig key = { .name = (char *)name }, *s;

	if (d->nsig == 0 || (s = bsearch(&key, d->sig, d->nsig, sizeof *d->sig, sigcmp)) == NULL)
		return NULL;
	return s->twice || strcmp(s->ret, "-") == 0 ? NULL : s;
}

static uint64_t
ns(Dump *d, uint64_t ticks)
{
	if (ticks >= d->t0)
		return d->ns0 + (uint64_t)((unsigned __int128)(ticks - d->t0) * 1000000000u / d->hz);
	return d->ns0 - (uint64_t)((unsigned __int128)(d->t0 - ticks) * 1000000000u / d->hz);
}

/* the function numbered fn in c, its id given at its first use */
static Fn *
fnof(Dump *d, Calls *c, uint32_t fn)
{
	Fn *f;

	if (fn >= d->nfn) {
		d->fn = xalloc(d->fn, (fn + 1) * sizeof *d->fn);
		memset(d->fn + d->nfn, 0, (fn + 1 - d->nfn) * sizeof *d->fn);
		d->nfn = fn + 1;
	}
	f = &d->fn[fn];
	if (f->id == 0) {
		f->id = intern(&d->name, &d->nname, callname(c, fn));
		f->sig = sigof(d, callname(c, fn));
	}
	return f;
}

/* the thread numbered i in c (calls.h: they come in order), 1 in *isnew at its first event */
static Thr *
throf(Dump *d, const Call *k, int *isnew)
{
	Thr *t;

	*isnew = k->thread >= d->nthr;
	if (*isnew) {
		d->thr = xalloc(d->thr, (k->thread + 1) * sizeof *d->thr);
		d->nthr = k->thread + 1;
		t = &d->thr[k->thread];
		t->tid = k->tid;
		t->first = t->last = k->rec->ticks;
	}
	t = &d->thr[k->thread];
	if (k->rec != NULL)	/* nil in a call ended with no exit */
		t->last = k->rec->ticks;
	return t;
}

/*
 * The file's calls (calls.h: paired as flow pairs them) through e, of
 * thread tid alone if only: an exit with no call open is left out; a
 * call an exit passed over, or open at the end, ends at that exit's
 * ticks, or at its thread's last record.
 */
static int
walk(Dump *d, const Emit *e, int only, uint32_t tid)
{
	Calls *c;
	Call k;
	Thr *t;
	Fn *f;
	int isnew, rc;

	if ((c = callsopen(d->path, "devtrace dump")) == NULL)
		return 1;
	while ((rc = callnext(c, &k)) > 0) {
		f = fnof(d, c, k.fn);
		t = throf(d, &k, &isnew);
		if (only && k.tid != tid)
			continue;
		if (isnew && e->thread)
			e->thread(d, t);
		switch (k.kind) {
		case Centry:
			e->begin(d, t, f, k.rec);
			break;
		case Cexit:
			e->end(d, t, f, k.end, k.rec);
			break;
		case Cnoexit:
			e->end(d, t, f, k.end, NULL);
			break;
		case Cprobe:
			if (e->instant)
				e->instant(d, t, f, k.rec);
			break;
		}
	}
	rc = rc < 0 ? 1 : callsend(c);
	callsclose(c);
	return rc;
}

/* Perfetto */

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

static void
pfbegin(Dump *d, Thr *t, Fn *f, const Rec *r)
{
	pfevent(d, t, f, r->ticks, Tbegin, r);
}

static void
pfend(Dump *d, Thr *t, Fn *f, uint64_t ticks, const Rec *r)
{
	pfevent(d, t, f, ticks, Tend, r);
}

static void
pfinstant(Dump *d, Thr *t, Fn *f, const Rec *r)
{
	pfevent(d, t, f, r->ticks, Tinstant, r);
}

static const Emit perfetto = { pfbegin, pfend, pfinstant, pfthread };

static int
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
	rc = walk(d, &perfetto, 0, 0);
	pfflush(d, 1);
	return rc;
}

/* speedscope: one evented profile a thread, each a pass over the file (its events are together) */

static void
jstr(FILE *o, const char *s)
{
	putc('"', o);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(o, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(o, "\\u%04x", (unsigned char)*s);
		else
			putc(*s, o);
	}
	putc('"', o);
}

static void
ssevent(Dump *d, int type, Fn *f, uint64_t ticks)
{
	fprintf(d->out, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%llu}", d->emitted++ ? "," : "",
		type, f->id - 1, (unsigned long long)ns(d, ticks));
}

static void
ssbegin(Dump *d, Thr *t, Fn *f, const Rec *r)
{
	(void)t;
	ssevent(d, 'O', f, r->ticks);
}

static void
ssend(Dump *d, Thr *t, Fn *f, uint64_t ticks, const Rec *r)
{
	(void)t;
	(void)r;
	ssevent(d, 'C', f, ticks);
}

static void
nobegin(Dump *d, Thr *t, Fn *f, const Rec *r)
{
	(void)d, (void)t, (void)f, (void)r;
}

static void
noend(Dump *d, Thr *t, Fn *f, uint64_t ticks, const Rec *r)
{
	(void)d, (void)t, (void)f, (void)ticks, (void)r;
}

static const Emit speedscope = { ssbegin, ssend, NULL, NULL };
static const Emit threads = { nobegin, noend, NULL, NULL };	/* the first pass: the threads and the frames' order */

static int
speedscopedump(Dump *d)
{
	Capfile *f;
	size_t i;
	int rc;

	if ((f = capopen(d->path, "devtrace dump")) == NULL)
		return 1;
	d->hz = caphz(f);
	capclose(f);
	if (d->hz == 0) {
		fprintf(stderr, "devtrace dump: %s: no #hz in the recording: its ticks cannot be made ns\n", d->path);
		return 1;
	}
	if ((rc = walk(d, &threads, 0, 0)) != 0)
		return rc;
	d->t0 = d->nthr > 0 ? d->thr[0].first : 0;	/* ns since the first record */
	d->ns0 = 0;
	d->out = stdout;
	fprintf(d->out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"devtrace dump\",\"name\":");
	jstr(d->out, d->path);
	fprintf(d->out, ",\"activeProfileIndex\":0,\"profiles\":[");
	for (i = 0; i < d->nthr && rc == 0; i++) {
		fprintf(d->out, "%s{\"type\":\"evented\",\"name\":\"tid %u\",\"unit\":\"nanoseconds\",\"events\":[", i ? "," : "", d->thr[i].tid);
		d->emitted = 0;
		rc = walk(d, &speedscope, 1, d->thr[i].tid);
		fprintf(d->out, "],\"startValue\":%llu,\"endValue\":%llu}",
			(unsigned long long)ns(d, d->thr[i].first), (unsigned long long)ns(d, d->thr[i].last));
	}
	fprintf(d->out, "],\"shared\":{\"frames\":[");
	for (i = 0; i < d->nname; i++) {
		fprintf(d->out, "%s{\"name\":", i ? "," : "");
		jstr(d->out, d->name[i]);
		putc('}', d->out);
	}
	fprintf(d->out, "]}}\n");
	if (fflush(d->out) != 0 || ferror(d->out)) {
		perror("devtrace dump: standard output");
		return 1;
	}
	return rc;
}

int
xdump(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "perfetto", no_argument, NULL, 'p' },
		{ "speedscope", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static Dump d;
	int ch, form = 0;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		if (ch == 'h') {
			cmdusage(c, stdout);
			return 0;
		}
		if (ch == '?') {
			fprintf(stderr, "devtrace dump: unknown option %s\n", argv[optind - 1]);
			cmdusage(c, stderr);
			return 2;
		}
		if (form != 0 && form != ch) {
			fprintf(stderr, "devtrace dump: --perfetto or --speedscope, not both\n");
			return 2;
		}
		form = ch;
	}
	if (form == 0 || optind + 1 != argc) {
		fprintf(stderr, "devtrace dump: %s\n", form == 0 ? "no format: give --perfetto or --speedscope" :
			optind == argc ? "no FILE (a file devtrace record wrote)" : "one FILE only");
		cmdusage(c, stderr);
		return 2;
	}
	d.path = argv[optind];
	return form == 'p' ? perfettodump(&d) : speedscopedump(&d);
}
