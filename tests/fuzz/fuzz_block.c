/*
 * fuzz_block: libFuzzer over the readers and writers of a shared block
 * that another process has scribbled on (issue 12: trust nothing in
 * shared memory), built with clang's address and undefined-behaviour
 * sanitizers from the sources of dev/.  A valid block is made once, as
 * tests/dev's newdev does (devinit, then devmapped), given traces (a
 * range, a pattern, a predicate), aggregations (every kind of key and function, tables
 * written through a Writer and without), a watch list, a reader, a
 * query, a refusal's text and records, some read, some lapped, in the
 * shared ring and in writers' rings (Testnring of them), and a session
 * (dev/sess.c) with a trace and records of its own; each input starts
 * from a copy of it.
 *
 * An input is patches, each
 *	offset (4 bytes, little-endian)  length (1 byte)  length bytes
 * written over the block.  The offset's top byte picks a field of the
 * block (fields[] below: the low 24 bits are taken modulo its size) or,
 * from nelem(fields) up, the whole block (modulo its size); the bytes
 * may run on past the field, never past the block.  A patch of length 0
 * runs the checks now (damage, checks, more damage, checks); they run
 * at the end in any case.  First a writer, the reader or the control
 * side meets the damage as it is (the offset's or the input's length
 * says which goes first); then, as a host would call the device:
 *	- devstate into a buffer with guard bytes: NUL-terminated, its
 *	  length < the buffer, printable lines, nothing written past;
 *	  into a short buffer too; a second devstate finds no more damage
 *	  (repairs are counted once);
 *	- the writers' path through a Writer and without one (devselect,
 *	  devtsel, devsiteon, devfilter, devhit, devrecord, devwatched,
 *	  devwatches): every record devhit took is a hit, or counted
 *	  as kept back by a speculation or a trigger, and no write
 *	  leaves the block (it ends on a page boundary, PROT_NONE after it);
 *	  the writers with a Writer claim rings, and give them back;
 *	- devread in a bounded loop, merging every ring, asked again while Reader.wait says a
 *	  record is being written (the host's retry, the test clock
 *	  advancing 1 ms a call): it ends within a bound, returns whole
 *	  121-byte E/X records, and #read grows by the records returned;
 *	  a ring whose claim names a live thread is that reader's, read
 *	  once the thread is gone (testdead): then nothing is queued;
 *	- devaggkeys, printa or machine form, into a table with guard
 *	  entries, whole and short: what it lists is a key the host can
 *	  name (a func, a typed word of a pattern), each once, in order;
 *	  then devaggs with that table (texts with a byte not printable)
 *	  into a buffer with guard bytes, whole and short: NUL-terminated,
 *	  printable lines, nothing written past;
 *	- devctl of a few commands: 0 or one of the device's errnos (EIO:
 *	  damage), a NUL-terminated reason within Errmax;
 *	- the table of sessions as a host meets it (reap, clone, open,
 *	  close) and the session's Dev: its state NUL-terminated, its
 *	  records read in bounded time, a control write answered;
 *	- #hits - #read - #queued - #lost - #dropped, whatever the damage made it,
 *	  does not change once the block has been checked (every ticket
 *	  ends once as read or lost) unless #corrupt counts new damage
 *	  (a head scribbled near 2^64 wraps below tail), and is 0 when no
 *	  patch touched the ring's counters; #corrupt never goes down, and
 *	  a second look right after the first finds nothing more.
 */
#define _DEFAULT_SOURCE	/* MAP_ANONYMOUS, MAP_NORESERVE */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dev/dat.h"
#include "tests/dev/testhost.h"

enum {
	Logblock = 8,	/* tests/dev/hostile's newdev(8) */
	Guard = 64,	/* bytes checked untouched past each buffer */
	Readpid = 200,	/* the process with trace open */
	Maxchecks = 8,	/* check passes per input: a bound on an input's time */
	Maxwaits = 200,	/* Reader.wait answers one read may take: 20 ms of stuck ticket is 21 */
};

/* a failed check says which before libFuzzer's report */
#define check(x)	do { if (!(x)) { fprintf(stderr, "fuzz_block.c:%d: check failed: %s\n", __LINE__, #x); \
	__builtin_trap(); } } while (0)
#define nelem(a)	(sizeof(a) / sizeof((a)[0]))
#define span(a, b)	{ offsetof(Dev, a), offsetof(Dev, b) - offsetof(Dev, a) }
#define Wringoff	(offsetof(Dev, slot) + ((size_t)64 << Logblock))	/* dat.h: wrings */
/* the one session's Dev (dev.c: devsessoff, devsize), its rings after it: the top level's size, then the session's */
#define Devbytes(l)	(sizeof(Dev) + ((size_t)64 << (l)) * (1 + Testnring) + Testnring * sizeof(Wring))
#define Sessoff	Devbytes(Logblock)
#define Sessbytes	Devbytes(Logblock < Logsess ? Logblock : Logsess)

/* the fields a patch's top byte names: where a scribbler hurts most */
static const struct {
	size_t off, len;
} fields[] = {
	span(magic, ctlgen),	/* magic, version, size, hz */
	span(ctlgen, nwatch),	/* ctlgen, started, logmax, log, nring, unused0, policy, waitms */
	span(nwatch, nreader),	/* nwatch, watch[] */
	span(nreader, trace),	/* nreader, reader[], gennext */
	span(trace[0], trace[1]),	/* the range trace */
	span(trace[1], trace[2]),	/* the pattern trace, its predicate */
	span(trace[2], trace[3]),	/* the range trace with a predicate */
	span(trace, head),	/* every trace */
	span(head, filtered),	/* head, tail, nread, nlost, stuck, stuckhead */
	span(filtered, shard),	/* filtered, count[] */
	span(shard, query),
	span(query, err),	/* query, queryname, hasquery */
	span(err, aggs),
	{ offsetof(Dev, slot), (size_t)64 << Logblock },	/* the shared ring */
	span(aggs, aggs.agg),	/* gennext, recmode[], drops, sdrops[] */
	span(aggs.agg[0], aggs.agg[0].name),	/* the first definition's numbers: gen, func, nkey, lquantize's */
	span(aggs.agg[0], aggs.agg[1]),	/* the first definition: keys, value, their programs */
	span(aggs.agg, aggs.buf),	/* every definition */
	span(aggs.buf[0], aggs.buf[1]),	/* the first writer's table */
	span(aggs.buf[Naggbuf], slot),	/* the shared table */
	{ Wringoff, Testnring * sizeof(Wring) },	/* the writers' rings: heads, tails, counts, owners */
	{ Wringoff + Testnring * sizeof(Wring), (size_t)Testnring * 64 << Logblock },	/* their slots */
	{ Wringoff + sizeof(Wring), 8 },	/* ring 1's head */
	{ Wringoff + offsetof(Wring, tail), 8 },	/* ring 0's tail */
	span(nsess, slot),	/* the table of sessions */
	{ Sessoff, Sessbytes },	/* the session's Dev, its rings */
	{ Sessoff, offsetof(Dev, trace) },	/* its header: sizes, log, policy, watch list, readers */
};

static Dev *dev;
static void *aggwork;	/* devaggs' work area */
static char aggtext[1 << 16];
static Aggkey aggkeys[1 << 10];
static char *tmpl;	/* the block every input starts from */
static size_t devbytes;
static char state[Statemax + Guard];

/* the block at the end of its pages, PROT_NONE on both sides: a stray write faults */
static Dev *
mapblock(size_t n)
{
	size_t pg = sysconf(_SC_PAGESIZE), body = (n + pg - 1) / pg * pg;
	size_t gap = (size_t)64 << 31;	/* past a slot index a log of 31 could make */
	char *p;

	p = mmap(NULL, pg + body + gap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	check(p != MAP_FAILED);
	check(mprotect(p + pg, body, PROT_READ | PROT_WRITE) == 0);
	return (Dev *)(p + pg + body - n);
}

/* the value of "#key N" in the state text s into *v: 0 if s has no such line */
static int
look(const char *s, const char *key, uint64_t *v)
{
	size_t k = strlen(key);
	const char *p;

	for (p = s; (p = strstr(p, key)) != NULL; p++)
		if ((p == s || p[-1] == '\n') && p[k] == ' ') {
			*v = strtoull(p + k + 1, NULL, 10);
			return 1;
		}
	return 0;
}

static uint64_t
counter(const char *s, const char *key)
{
	uint64_t v;

	if (!look(s, key, &v))
		__builtin_trap();	/* every state has every counter */
	return v;
}

/* the actions' counts, printed once one is made or counted: 0 until then */
static uint64_t
counteror0(const char *s, const char *key)
{
	uint64_t v;

	return look(s, key, &v) ? v : 0;
}

/*
 * What became of the records devhit took (it says 1 once a record has
 * passed the filters): each is written (#hits), or kept back by a
 * speculation (#specheld, #specnoroom) or a trigger (#untriggered); a
 * commit hands its held records to devrecord again (#speccommitted).
 */
static uint64_t
taken(void)
{
	return counter(state, "#hits") + counteror0(state, "#specheld") + counteror0(state, "#specnoroom") +
		counteror0(state, "#untriggered") - counteror0(state, "#speccommitted");
}

/* devstate, checked: its text in state[] */
static void
readstate(void)
{
	char small[200 + Guard];
	size_t n, i, k;

	memset(state, 0xa5, sizeof state);
	n = devstate(dev, state, Statemax);
	check(n < Statemax);
	check(state[n] == 0 && strlen(state) == n);
	for (i = Statemax; i < sizeof state; i++)
		check((unsigned char)state[i] == 0xa5);
	check(n > 0 && state[n - 1] == '\n');
	for (i = 0; i < n; i++)
		check(state[i] == '\n' || state[i] == '\t' || (state[i] >= ' ' && state[i] < 0x7f));
	/* a short buffer: the length written, NUL-terminated, nothing past it */
	for (k = 1; k <= 200; k += 199) {
		memset(small, 0xa5, sizeof small);
		n = devstate(dev, small, k);
		check(n < k && small[n] == 0 && strlen(small) == n);
		for (i = k; i < sizeof small; i++)
			check((unsigned char)small[i] == 0xa5);
	}
}

/* devaggkeys into a table with guard entries, whole and short: the keys a host may name, sorted, each once; their texts set */
static size_t
listkeys(int form)
{
	enum { Kguard = 16, Kroom = sizeof aggkeys / sizeof aggkeys[0] - Kguard };
	size_t n, i, k;
	const Aggkey *a;

	for (k = 1; k <= Kroom; k += Kroom - 1) {
		memset(aggkeys, 0xa5, sizeof aggkeys);
		n = devaggkeys(dev, aggwork, aggkeys, k, form);
		for (i = k * sizeof aggkeys[0]; i < sizeof aggkeys; i++)
			check(((unsigned char *)aggkeys)[i] == 0xa5);
	}
	if (n > Kroom)
		return 0;
	for (i = 0; i < n; i++) {
		a = &aggkeys[i];
		check(memchr(a->glob, 0, Globlen) != NULL && a->text == NULL);
		check(a->word == Aggfunc ? a->glob[0] == 0 : a->word >= Aggret && a->word <= 3 && a->glob[0] != 0);
		check(form == Aprinta || a->word == Aggfunc);
		check(i == 0 || a[-1].word < a->word || (a[-1].word == a->word &&
			(a[-1].v < a->v || (a[-1].v == a->v && strcmp(a[-1].glob, a->glob) < 0))));
		aggkeys[i].text = a->word == Aggfunc ? "\001fn" : "\001typed";
	}
	return n;
}

/* devaggs into a buffer with guard bytes, whole and short: its length, NUL-terminated, printable lines, nothing past */
static void
readaggs(int form)
{
	size_t n, i, k, nk = listkeys(form);

	for (k = 1; k <= sizeof aggtext - Guard; k += sizeof aggtext - Guard - 1) {
		memset(aggtext, 0xa5, sizeof aggtext);
		n = devaggs(dev, aggwork, aggtext, k, form, aggkeys, nk);
		check(aggtext[n < k ? n : k - 1] == 0);
		check(strlen(aggtext) == (n < k ? n : k - 1));
		for (i = k; i < sizeof aggtext; i++)
			check((unsigned char)aggtext[i] == 0xa5);
		for (i = 0; aggtext[i]; i++)
			check(aggtext[i] == '\n' || (aggtext[i] >= ' ' && aggtext[i] < 0x7f));
	}
}

/* hits - read - queued - lost - dropped: what damage made it; constant while nothing scribbles */
static uint64_t
balance(void)
{
	return counter(state, "#hits") - counter(state, "#read") - counter(state, "#queued") -
		counter(state, "#lost") - counter(state, "#dropped");
}

/*
 * The balance is what it was, or the damage that changed it was found
 * (counted in #corrupt: a head scribbled near 2^64 wraps below tail):
 * 1 if nothing was found.  The new figures are the next look's.
 */
static int
same(uint64_t *bal, uint64_t *corrupt)
{
	uint64_t c = counter(state, "#corrupt");
	int clean = c == *corrupt;

	check(c >= *corrupt);
	if (clean)
		check(balance() == *bal);
	*bal = balance();
	*corrupt = c;
	return clean;
}

static int
okerrno(int e)
{
	return e == 0 || e == Enoent || e == E2big || e == Eexist || e == Einval ||
		e == Enospc || e == Erange || e == Eio;
}

static void
ctl(const char *s)
{
	int e = devctl(dev, s, strlen(s), 42);

	check(okerrno(e));
	check(memchr(deverr(dev), 0, Errmax) != NULL);
	if (e != 0)
		check(deverr(dev)[0] != 0);
}

/*
 * The writers' path, as the runtime calls it at every site, with a
 * Writer and without: the records it says it wrote, returned.
 */
static uint64_t
writes(uint32_t tid)
{
	static const struct {
		uint64_t pc;
		const char *name;
	} sites[] = {
		{ 0x1500, "main" }, { 0x9000, "foo" }, { 0x3500, "bar" }, { 0x9000, "fxx" }, { 0x100, NULL },
	};
	uint32_t pids[Nwatch + 1];
	uint64_t wrote = 0;
	Writer w;
	Tsel sel;
	Hit h;
	size_t i;
	int slot, k, r;

	memset(&w, 0, sizeof w);
	pids[Nwatch] = 0xdeadbeef;
	k = devwatches(dev, pids, Nwatch);
	check(k >= 0 && k <= Nwatch && pids[Nwatch] == 0xdeadbeef);
	devwatched(dev, tid, tid);
	devstarted(dev);
	for (i = 0; i < nelem(sites); i++) {
		slot = devselect(dev, sites[i].pc, sites[i].pc, 1, sites[i].name);
		check(slot >= -1 && slot < Ntrace);
		memset(&sel, 0, sizeof sel);
		if (!devtsel(dev, slot < 0 ? (int)i : slot, &sel))
			continue;
		check(sel.slot < Ntrace && sel.haspred <= 2);
		devsiteon(dev, &sel);
		for (k = 0; k < 4; k++) {
			memset(&h, 0, sizeof h);
			h.pc = sites[i].pc;
			h.ticks = 0x100 + k;
			h.a[0] = k;
			h.a[1] = 3;
			h.tid = h.pid = tid;
			h.w = k & 1 ? &w : NULL;
			r = devfilter(dev, &sel, &h);
			check(r >= 0 && r <= (Hrecord | Hfollow));
			wrote += devhit(dev, &sel, &h);
			h.exit = 1;
			wrote += devhit(dev, &sel, &h);
		}
	}
	memset(&h, 0, sizeof h);
	h.pc = 0x4242;
	h.tid = h.pid = tid;
	devrecord(dev, &h);	/* unfiltered, no Writer */
	h.w = &w;
	devrecord(dev, &h);	/* and with one: its bound is the host's */
	devwriterdone(&w);
	return wrote + 2;
}

/* every record whole: E or X, seven 16-digit hex fields */
static void
checkrec(const char *p)
{
	int i;

	check(p[0] == 'E' || p[0] == 'X');
	for (i = 1; i < Reclen; i++)
		if (i % 17 == 1)
			check(p[i] == (i == Reclen - 1 ? '\n' : ' '));
		else
			check((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'));
}

/* devread until it has nothing, as a host does: the records read */
static uint64_t
readall(unsigned how)
{
	static const size_t chunks[] = { 4096, Reclen, 50, 1, 3 * Reclen };
	static char buf[4096], rec[Reclen];
	size_t chunk = chunks[how % nelem(chunks)], have = 0, k, i;
	uint64_t nrec = 0, calls = 0;
	unsigned waits = 0;
	Reader r;

	memset(&r, 0, sizeof r);
	for (;;) {
		check(++calls < ((((uint64_t)Testnring + 2) << Logblock) + 64) * Reclen + Maxwaits);
		k = devread(dev, &r, buf, chunk);
		check(k <= chunk);
		for (i = 0; i < k; i++) {
			rec[have++] = buf[i];
			if (have == Reclen) {
				checkrec(rec);
				nrec++;
				have = 0;
			}
		}
		if (k > 0)
			continue;
		if (!r.wait)
			break;
		check(++waits <= Maxwaits);	/* a damaged ring is given up in bounded time */
	}
	check(have == 0 && r.off == r.len);
	return nrec;
}

/*
 * A claim naming a live thread keeps its ring from the merge (another
 * reader's, dev/ring/wring.c): once that thread is gone, the ring is
 * taken over and read.  The records read.
 */
static uint64_t
claimersgone(unsigned how)
{
	Wring *wr = (Wring *)((char *)dev + Wringoff);
	uint32_t c, i, dead = testdead;
	uint64_t n = 0;

	for (i = 0; i < Testnring; i++)
		if ((c = __atomic_load_n(&wr[i].claim, __ATOMIC_RELAXED)) != 0 && c < Tidbound) {
			testdead = c;
			n += readall(how);
		}
	testdead = dead;
	return n;
}

/* the session as a host meets it, whatever the damage: it ends, or is there and answers */
static void
sessions(void)
{
	static char buf[4096], text[Statemax];
	Reader r;
	Dev *s;
	size_t n;
	int k;

	devsessreap(dev);
	if ((s = devsess(dev, 1)) != NULL) {
		check((char *)s == (char *)dev + Sessoff);
		n = devstate(s, text, Statemax);
		check(n < Statemax && text[n] == 0 && strlen(text) == n);
		memset(&r, 0, sizeof r);
		for (k = 0; k < (Testnring + 2) << Logblock; k++)	/* a record at least a read, or the end */
			if (devread(s, &r, buf, sizeof buf) == 0 && (!r.wait || k > Maxwaits))
				break;
		check(k < (Testnring + 2) << Logblock);
		k = devctl(s, "trace s off\ntrace s on", 22, 42);
		check(k == 0 || k == Einval || k == Enoent || k == Eio);
		check(memchr(deverr(s), 0, Errmax) != NULL);
	}
	k = devsessopen(dev, 1, 1000, 0);
	check(k == 0 || k == Enoent || k == Eacces);	/* a scribbled owner: another user's session, refused */
	if (k == 0)
		check(devsessclose(dev, 1) == 0);
	k = devclone(dev, 1000, 42);
	check(k == 1 || k == -Enospc);
	check(devsess(dev, 1) != NULL);
}

/* one pass of every reader and writer over the block as it is now */
static void
checks(int ringtouched, unsigned how)
{
	uint64_t bal, corrupt, hits, nread, wrote;

	/* the damage as the first to come finds it: a writer, the reader or the control side */
	switch (how % 3) {
	case 0:
		writes(7);
		readall(how / 3);
		break;
	case 1:
		readall(how / 3);
		writes(9);
		break;
	case 2:
		ctl("watch 9");
		writes(9);
		break;
	}
	/* then with counts: what the control side's look left must add up */
	readstate();
	bal = balance();
	check(ringtouched || bal == 0);
	corrupt = counter(state, "#corrupt");
	readstate();	/* the damage is repaired and counted once */
	check(counter(state, "#corrupt") == corrupt);
	hits = taken();

	wrote = writes(7) + writes(1 + how % 13);
	readstate();
	if (same(&bal, &corrupt))
		check(taken() == hits + wrote);

	nread = counter(state, "#read");
	wrote = readall(how);
	wrote += claimersgone(how);
	readstate();
	check(counter(state, "#read") == nread + wrote);
	check(counter(state, "#queued") == 0);
	same(&bal, &corrupt);

	ctl("watch 7");
	ctl("trace r off");
	ctl("trace r on");
	ctl("trace 5000 6000 new n");
	ctl("trace n pred /arg0 > 1/");
	ctl("trace n remove");
	readaggs(how & 1 ? Amachine : Aprinta);
	ctl("agg @c clear");
	ctl("agg r exit @x[tid, arg0 / (arg1 - 3)] = max(retval)");
	ctl("agg @x remove");
	ctl("query 1500");
	ctl("size 6");
	ctl("start");
	readstate();
	same(&bal, &corrupt);
	sessions();
}

/* the block every input starts from */
static void
makeblock(void)
{
	static const char setup[] =
		"trace 1000 2000 new r\n"
		"trace r on\n"
		"trace 'f*' new g\n"
		"trace g pred /arg0 != 3 && execname == \"unit\"/\n"
		"trace g on\n"
		"trace 3000 4000 new p\n"
		"trace p pred /arg1 > 2/\n"
		"trace p on\n"
		"agg r entry @c[func] = count()\n"
		"agg r exit @q[arg0 & 3] = quantize(retval)\n"
		"agg r records on\n"
		"agg g entry @s[execname, arg0 + 1] = sum(arg1)\n"
		"agg g entry @k[arg1] = count()\n"
		"agg p entry @l = lquantize(arg0, 0, 10, 2)\n"
		"agg p exit @d[tid] = avg(dur)\n"
		"watch 7\n"
		"watch 9\n"
		"start\n"
		"query 1500\n";
	static const char sesssetup[] = "trace 1000 2000 new s\ntrace s on\nstart\n";
	Reader r;
	char buf[Reclen * 5];
	Writer w;
	Tsel sel;
	Hit h;
	Dev *s;
	int i;

	devbytes = devblocksize(Logblock, Testnring, 1);
	check(devbytes == Sessoff + Sessbytes);
	dev = mapblock(devbytes);
	memset(dev, 0, devbytes);
	devinit(dev, Logblock, Testnring, 1000000);
	devsessinit(dev, 1);
	devmapped(dev, Logblock, Testnring, 1);
	check(devclone(dev, 1000, 42) == 1);
	s = devsess(dev, 1);
	check(devctl(s, sesssetup, sizeof sesssetup - 1, 42) == 0);
	check(devtsel(s, 0, &sel));
	memset(&w, 0, sizeof w);
	memset(&h, 0, sizeof h);
	h.pc = 0x1000;
	h.tid = h.pid = 7;
	for (i = 0; i < 600; i++) {	/* its own ring, lapped, and the shared ring */
		h.w = i & 1 ? &w : NULL;
		check(devhit(s, &sel, &h) == 1);
	}
	devwriterdone(&w);
	aggwork = malloc(devaggwork());
	check(aggwork != NULL);
	testnsecstep = 1000 * 1000;	/* every look at the clock: 1 ms later */
	check(devctl(dev, setup, sizeof setup - 1, 42) == 0);
	check(devreader(dev, Readpid, 1) == 0);
	for (i = 0; i < 24; i++)	/* more than a ring: some lapped, lost */
		writes(i & 1 ? 7 : 9);
	memset(&r, 0, sizeof r);
	check(devread(dev, &r, buf, sizeof buf) == sizeof buf);
	check(devctl(dev, "frob", 4, 42) == Einval);	/* a refusal's text in err */
	tmpl = malloc(devbytes);
	check(tmpl != NULL);
	memcpy(tmpl, dev, devbytes);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const uint8_t *p = data, *end = data + n;
	size_t off, len, ringlo = offsetof(Dev, head), ringhi = offsetof(Dev, filtered);
	uint32_t o, sel;
	int touched = 0, passes = 0;

	if (dev == NULL)
		makeblock();
	memcpy(dev, tmpl, devbytes);
	while (end - p >= 5 && passes < Maxchecks) {
		o = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
		len = p[4];
		p += 5;
		if (len > (size_t)(end - p))
			len = end - p;
		if (len == 0) {
			checks(touched, o);
			passes++;
			continue;
		}
		sel = o >> 24;
		if (sel < nelem(fields))
			off = fields[sel].off + (o & 0xffffff) % fields[sel].len;
		else
			off = o % devbytes;
		if (len > devbytes - off)
			len = devbytes - off;
		memcpy((char *)dev + off, p, len);
		p += len;
		if ((off < ringhi && off + len > ringlo) ||
		    (off < Wringoff + Testnring * sizeof(Wring) && off + len > Wringoff))	/* a writer's ring's counts */
			touched = 1;
	}
	checks(touched, n);
	return 0;
}
