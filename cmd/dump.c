/*
 * dump.c: devtrace dump --perfetto|--speedscope FILE, a recording of
 * devtrace record (capfile.h) for a viewer: Perfetto's native trace
 * (TracePacket/TrackEvent protobuf, written by hand: pbwrite.h), or
 * speedscope's evented JSON.  Both read the records in the merge's
 * order and walk each thread's calls: an entry opens a call, an exit
 * closes the innermost open call of its function (and the calls inside
 * it, at the same time: their exits were cut), an exit with none open
 * is dropped, and what is open at the end closes at the thread's last
 * record.  Names come from FILE.syms, arguments and return values from
 * FILE.sigs (recsyms.h), as scripts/name and sigs.awk read them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/client.h"
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
	TPtimestamp = 8, TPseqid = 10, TPevent = 11, TPinterned = 12, TPflags = 13, TPtrack = 60,
	Seqcleared = 1, Seqneeds = 2,	/* TracePacket.SequenceFlags */
	TEannot = 4, TEtype = 9, TEnameiid = 10, TEtrack = 11,
	Tbegin = 1, Tend = 2, Tinstant = 3,	/* TrackEvent.Type */
	TDuuid = 1, TDprocess = 3, TDthread = 4, TDparent = 5,
	PDpid = 1, PDname = 6,
	THpid = 1, THtid = 2,
	IDnames = 2, IDannot = 3, INiid = 1, INname = 2,	/* InternedData; EventName and DebugAnnotationName alike */
	DAnameiid = 1, DAbool = 2, DAuint = 3, DAint = 4, DAstring = 6, DApointer = 7,
};

/* a string → index map, open addressing; also u64 keys (pcs, tids) */
typedef struct Map Map;
struct Map {
	uint64_t *key;		/* u64 keys: key + 1, 0 free */
	char **str;		/* string keys: nil free */
	uint32_t *val;
	size_t n, cap;
};

typedef struct Sig Sig;	/* a function's line of FILE.sigs, cut: "NAME RET ARG..." */
struct Sig {
	char *ret;
	char *arg[8];		/* "name:class:word" */
	int narg;
};

typedef struct Fn Fn;	/* a recorded pc */
struct Fn {
	char *name;
	uint32_t id;		/* 1 + its name's index: Perfetto's iid, speedscope's frame + 1 */
	Sig *sig;		/* nil: untyped */
};

typedef struct Thr Thr;
struct Thr {
	uint32_t tid;
	uint32_t *stack;	/* the open calls' Fn indexes */
	size_t depth, cap;
	uint64_t first, last;	/* its first and last record's ticks */
};

typedef struct Dump Dump;
struct Dump {
	const char *path;
	uint64_t hz, t0, ns0;	/* a time's ns: ns0 + (ticks - t0) / hz */
	Map pcs, names, sigs, anames, tids;
	Fn *fn;
	size_t nfn;
	char **name;		/* the names, by id - 1 */
	size_t nname, sent;	/* Perfetto: names interned so far */
	size_t nanames, asent;
	char **aname;
	Sig **sig;
	size_t nsig;
	Thr *thr;
	size_t nthr;
	Pb pb;
	uint32_t pid;
	int emitted;		/* a thread's descriptor sent, Perfetto */
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

static uint64_t
hashkey(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	return k ^ k >> 33;
}

static uint64_t
hashstr(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211ull;
	return h;
}

static void mapgrow(Map *m, int str);

/* the slot of key (k, or s if m holds strings): its own or the free one it would take */
static size_t
mapslot(Map *m, uint64_t k, const char *s)
{
	size_t i = (s ? hashstr(s) : hashkey(k)) & (m->cap - 1);

	for (;; i = (i + 1) & (m->cap - 1)) {
		if (s ? m->str[i] == NULL || strcmp(m->str[i], s) == 0 : m->key[i] == 0 || m->key[i] == k + 1)
			return i;
	}
}

/* v's index, or -1 absent */
static long
mapget(Map *m, uint64_t k, const char *s)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	i = mapslot(m, k, s);
	if (s ? m->str[i] == NULL : m->key[i] == 0)
		return -1;
	return m->val[i];
}

static void
mapput(Map *m, uint64_t k, char *s, uint32_t v)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		mapgrow(m, s != NULL);
	i = mapslot(m, k, s);
	if (s ? m->str[i] == NULL : m->key[i] == 0)
		m->n++;
	if (s)
		m->str[i] = s;
	else
		m->key[i] = k + 1;
	m->val[i] = v;
}

static void
mapgrow(Map *m, int str)
{
	Map o = *m;
	size_t i;

	m->cap = o.cap ? 2 * o.cap : 64;
	m->n = 0;
	m->key = str ? NULL : xalloc(NULL, m->cap * sizeof *m->key);
	m->str = str ? xalloc(NULL, m->cap * sizeof *m->str) : NULL;
	m->val = xalloc(NULL, m->cap * sizeof *m->val);
	if (str)
		memset(m->str, 0, m->cap * sizeof *m->str);
	else
		memset(m->key, 0, m->cap * sizeof *m->key);
	for (i = 0; i < o.cap; i++)
		if (str ? o.str[i] != NULL : o.key[i] != 0)
			mapput(m, str ? 0 : o.key[i] - 1, str ? o.str[i] : NULL, o.val[i]);
	free(o.key);
	free(o.str);
	free(o.val);
}

/* the id of a name (1 + its index in names), added if new */
static char	*strsave(const char *s);

static uint32_t
intern(Map *m, char ***names, size_t *n, const char *s)
{
	long v = mapget(m, 0, s);
	char *c;

	if (v >= 0)
		return (uint32_t)v;
	c = strsave(s);
	*names = xalloc(*names, (*n + 1) * sizeof **names);
	(*names)[(*n)++] = c;
	mapput(m, 0, c, (uint32_t)*n);
	return (uint32_t)*n;
}

static char *
strsave(const char *s)
{
	return strcpy(xalloc(NULL, strlen(s) + 1), s);
}

/* the function at pc: FILE.syms's name, or the pc in hex; its id given at its first use (id 0) */
static Fn *
fnat(Dump *d, uint64_t pc)
{
	char hex[24];
	long i = mapget(&d->pcs, pc, NULL);
	Fn *f;

	if (i >= 0)
		return &d->fn[i];
	snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)pc);
	d->fn = xalloc(d->fn, (d->nfn + 1) * sizeof *d->fn);
	f = &d->fn[d->nfn];
	f->name = strsave(hex);
	f->id = 0;
	f->sig = NULL;
	mapput(&d->pcs, pc, NULL, (uint32_t)d->nfn++);
	return f;
}

/* FILE.syms: "PC NAME OBJECT" lines, a later one for a pc winning, as scripts/name reads them */
static void
loadsyms(Dump *d)
{
	char path[4096], line[8192], name[4096];
	unsigned long long pc;
	FILE *f;
	Fn *fn;

	snprintf(path, sizeof path, "%s.syms", d->path);
	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "devtrace dump: %s: cannot read it: functions are named by their pcs (devtrace record writes it beside the recording)\n", path);
		return;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%llx %4095s", &pc, name) != 2)
			continue;
		fn = fnat(d, pc);
		free(fn->name);
		fn->name = strsave(name);
	}
	fclose(f);
}

/* FILE.sigs: "NAME RET ARG..."; a name of two different lines stays untyped, as sigs.awk has it */
static void
loadsigs(Dump *d)
{
	char path[4096], line[8192], *p, *name, *rest, *w;
	FILE *f;
	Sig *s;
	long i;

	snprintf(path, sizeof path, "%s.sigs", d->path);
	if ((f = fopen(path, "r")) == NULL)
		return;		/* no signatures: calls without arguments */
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || (p = strchr(line, ' ')) == NULL)
			continue;
		*p = 0;
		name = line;
		rest = p + 1;
		if ((i = mapget(&d->sigs, 0, name)) >= 0) {
			if (d->sig[i] != NULL && strcmp(d->sig[i]->ret, rest) != 0)
				d->sig[i] = NULL;	/* lines are cut only after all are read: ret still holds the whole rest */
			continue;
		}
		s = xalloc(NULL, sizeof *s);
		memset(s, 0, sizeof *s);
		s->ret = xalloc(NULL, strlen(rest) + 1);
		strcpy(s->ret, rest);
		d->sig = xalloc(d->sig, (d->nsig + 1) * sizeof *d->sig);
		d->sig[d->nsig] = s;
		mapput(&d->sigs, 0, strsave(name), (uint32_t)d->nsig++);
	}
	fclose(f);
	/* each kept line cut into its words, once no later line can differ from it */
	for (i = 0; i < (long)d->nsig; i++) {
		if ((s = d->sig[i]) == NULL || strcmp(s->ret, "-") == 0) {
			d->sig[i] = NULL;
			continue;
		}
		for (w = strtok(s->ret, " "); (w = strtok(NULL, " ")) != NULL && s->narg < 8;)
			s->arg[s->narg++] = w;
	}
	for (i = 0; i < (long)d->nfn; i++)
		if ((p = d->fn[i].name) != NULL && mapget(&d->sigs, 0, p) >= 0)
			d->fn[i].sig = d->sig[mapget(&d->sigs, 0, p)];
}

static uint64_t
ns(Dump *d, uint64_t ticks)
{
	if (ticks >= d->t0)
		return d->ns0 + (uint64_t)((unsigned __int128)(ticks - d->t0) * 1000000000u / d->hz);
	return d->ns0 - (uint64_t)((unsigned __int128)(d->t0 - ticks) * 1000000000u / d->hz);
}

static Thr *
throf(Dump *d, uint32_t tid, uint64_t ticks, int *isnew)
{
	long i = mapget(&d->tids, tid, NULL);
	Thr *t;

	*isnew = i < 0;
	if (i < 0) {
		d->thr = xalloc(d->thr, (d->nthr + 1) * sizeof *d->thr);
		t = &d->thr[d->nthr];
		memset(t, 0, sizeof *t);
		t->tid = tid;
		t->first = ticks;
		mapput(&d->tids, tid, NULL, (uint32_t)d->nthr);
		i = (long)d->nthr++;
	}
	t = &d->thr[i];
	t->last = ticks;
	return t;
}

/* one record of thread t through the walk (the head comment) */
static void
step(Dump *d, const Emit *e, Thr *t, const Rec *r)
{
	Fn *f = fnat(d, r->pc);
	uint32_t k = (uint32_t)(f - d->fn);
	size_t i;

	if (f->id == 0)
		f->id = intern(&d->names, &d->name, &d->nname, f->name);

	if (r->exit == Kprobe) {
		if (e->instant)
			e->instant(d, t, f, r);
		return;
	}
	if (r->exit == Kentry) {
		if (t->depth == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->stack = xalloc(t->stack, t->cap * sizeof *t->stack);
		}
		t->stack[t->depth++] = k;
		e->begin(d, t, f, r);
		return;
	}
	for (i = t->depth; i > 0 && t->stack[i - 1] != k; i--)
		;
	if (i == 0)
		return;		/* an exit whose entry was not recorded */
	while (t->depth > i)
		e->end(d, t, &d->fn[t->stack[--t->depth]], r->ticks, NULL);
	t->depth--;
	e->end(d, t, f, r->ticks, r);
}

/* the file's records through the walk, of thread tid alone if only; what stays open closed at the end */
static int
walk(Dump *d, const Emit *e, int only, uint32_t tid)
{
	const Rec *r;
	Capfile *f;
	size_t n, i;
	int isnew, rc;
	Thr *t;

	if ((f = capopen(d->path, "devtrace dump")) == NULL)
		return 1;
	while ((r = caprun(f, Nrec, &n)) != NULL)
		for (i = 0; i < n; i++) {
			if (only && r[i].tid != tid)
				continue;
			t = throf(d, r[i].tid, r[i].ticks, &isnew);
			if (isnew && e->thread)
				e->thread(d, t);
			step(d, e, t, &r[i]);
		}
	for (i = 0; i < d->nthr; i++)
		for (t = &d->thr[i]; t->depth > 0 && (!only || t->tid == tid);)
			e->end(d, t, &d->fn[t->stack[--t->depth]], t->last, NULL);
	rc = captruncated(f);
	capclose(f);
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

static void
pfpacket(Dump *d, uint64_t ticks, int flags)
{
	pbbegin(&d->pb, Tpacket);
	if (ticks != ~0ull)
		pbvarint(&d->pb, TPtimestamp, ns(d, ticks));
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
procuuid(Dump *d)
{
	return 1ull << 32 | d->pid;
}

/* the process's track: the recording's program (capfile.h: pid, command), starting the sequence */
static void
pfprocess(Dump *d, Capfile *f)
{
	const char *v;

	d->pid = (v = capinfo(f, "pid", 0)) != NULL ? (uint32_t)strtoul(v, NULL, 10) : 0;
	pfpacket(d, ~0ull, Seqcleared);
	pbbegin(&d->pb, TPtrack);
	pbvarint(&d->pb, TDuuid, procuuid(d));
	pbbegin(&d->pb, TDprocess);
	pbvarint(&d->pb, PDpid, d->pid);
	if ((v = capinfo(f, "command", 0)) != NULL)
		pbstr(&d->pb, PDname, v);
	pbend(&d->pb);
	pbend(&d->pb);
	pbend(&d->pb);
}

static void
pfthread(Dump *d, Thr *t)
{
	pfpacket(d, ~0ull, 0);
	pbbegin(&d->pb, TPtrack);
	pbvarint(&d->pb, TDuuid, thruuid(t));
	pbvarint(&d->pb, TDparent, procuuid(d));
	pbbegin(&d->pb, TDthread);
	pbvarint(&d->pb, THpid, d->pid);
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
		iid = intern(&d->anames, &d->aname, &d->nanames, name);
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
		iid = intern(&d->anames, &d->aname, &d->nanames, "return");
		pfvalue(d, iid, class, r->a[0], 0);
	}
	for (i = 0; type == Tinstant && i < 4; i++) {
		snprintf(name, sizeof name, "arg%d", i);
		pfvalue(d, intern(&d->anames, &d->aname, &d->nanames, name), "s64", r->a[i], 0);
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
	loadsyms(d);
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
	loadsyms(d);
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
