/*
 * agg_test.c: the aggregation tables themselves (dev/agg/agg.c, aggfmt.c).
 * Writers claim tables of their own, those beyond the pool share one,
 * the reader merges them exactly; a full table drops and counts, a
 * clear is a new generation; what another process scribbled on the
 * block is counted (#corrupt, #predfaults) or ignored, never followed
 * out of bounds; the keys the host may type.  The end-to-end behaviour
 * is tests/aggs.
 */
#include "tests/dev/util.h"

enum { Fn = 0x1000 };	/* the traced function: trace t is [0x1000, 0x2000) */

/* a device with trace t, started, and the aggregation line given */
static Dev *
aggdev(const char *agg, Tsel *sel)
{
	Dev *d = newdev(8);
	char line[256];

	assert_int_equal(ctl(d, "trace 1000 2000 new t\ntrace t on\nstart"), 0);
	snprintf(line, sizeof line, "agg t %s", agg);
	assert_int_equal(ctl(d, line), 0);
	assert_int_equal(devtsel(d, 0, sel), 1);
	return d;
}

/* one entry hit of trace t by thread tid (w: its Writer, or nil), arg0 a */
static int
ahit(Dev *d, const Tsel *sel, Writer *w, uint32_t tid, uint64_t a)
{
	Hit h = { .pc = Fn, .ticks = 1, .a = { a, 0, 0, 0 }, .tid = tid, .pid = 7, .w = w };

	return devfilter(d, sel, &h);
}

/* aggraw, as a host reads it */
static char *
raw(Dev *d)
{
	static char buf[1 << 20];
	void *work = malloc(devaggwork());
	size_t n;

	assert_non_null(work);
	n = devaggs(d, work, buf, sizeof buf, Amachine, NULL, 0);
	free(work);
	assert_true(n < sizeof buf);
	return buf;
}

/* the entries of table b (Naggbuf: the shared one) in use */
static int
used(Dev *d, int b)
{
	int i, n = 0;

	for (i = 0; i < Aslots; i++)
		n += d->aggs.buf[b].ent[i].tag != 0;
	return n;
}

/* each writer its own table, by tid; released when the thread is done */
static void
test_claim_own_tables(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @c[tid] = count()", &sel);
	Writer w1 = { 0 }, w2 = { 0 }, w3 = { 0 };

	(void)unused;
	assert_int_equal(ahit(d, &sel, &w1, 11, 0), 0);	/* aggregated alone, call not followed */
	ahit(d, &sel, &w2, 12, 0);
	ahit(d, &sel, &w1, 11, 0);
	assert_int_equal(w1.aggbuf, 1);
	assert_int_equal(w2.aggbuf, 2);
	assert_int_equal(d->aggs.buf[0].tid, 11);
	assert_int_equal(d->aggs.buf[1].tid, 12);
	assert_int_equal(d->aggs.buf[0].hits, 2);
	assert_int_equal(d->aggs.buf[1].hits, 1);
	assert_int_equal(used(d, Naggbuf), 0);
	assert_string_equal(raw(d), "@c count - 1 1 12\n@c count - 2 2 11\n");
	devwriterdone(&w1);
	assert_int_equal(d->aggs.buf[0].tid, 0);
	assert_int_equal(w1.aggbuf, 0);
	/* a thread's Writer made afresh (a new device generation in the host): the tid finds its table */
	ahit(d, &sel, &w3, 12, 0);
	assert_int_equal(w3.aggbuf, 2);
	/* results stay; the next thread takes the free table and adds to them */
	ahit(d, &sel, &w1, 13, 0);
	assert_int_equal(w1.aggbuf, 1);
	assert_string_equal(raw(d), "@c count - 1 1 13\n@c count - 2 2 11\n@c count - 2 2 12\n");
	free(d);
}

/* a dead owner's table is taken over; 17 live threads: the last one shares */
static void
test_pool_then_shared(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @s = sum(arg0)", &sel);
	Writer w[Naggbuf + 2];
	uint32_t i;

	(void)unused;
	memset(w, 0, sizeof w);
	for (i = 0; i < Naggbuf + 1; i++)
		ahit(d, &sel, &w[i], 100 + i, i + 1);
	for (i = 0; i < Naggbuf; i++)
		assert_int_equal(w[i].aggbuf, i + 1);
	assert_int_equal(w[Naggbuf].aggbuf, Naggbuf + 1);	/* the shared table */
	assert_int_equal(used(d, Naggbuf), 1);
	ahit(d, &sel, NULL, 500, 1000);	/* no Writer: the shared table too */
	assert_int_equal(d->aggs.buf[Naggbuf].hits, 2);
	assert_int_equal(d->aggs.buf[Naggbuf].tid, 0);
	/* thread 105 is gone: its table goes to the next newcomer */
	testdead = 105;
	ahit(d, &sel, &w[Naggbuf + 1], 300, 10000);
	testdead = 0;
	assert_int_equal(w[Naggbuf + 1].aggbuf, 6);
	assert_int_equal(d->aggs.buf[5].tid, 300);
	/* 1 + ... + 17, 1000 and 10000, merged over 18 tables */
	assert_string_equal(raw(d), "@s sum - 19 11153\n");
	free(d);
}

/* every function merges exactly: n and sums add, min and max compare, buckets by bucket */
static void
test_merge_exact(void **unused)
{
	static const char *const agg[] = {
		"entry @a = sum(arg0)", "entry @b = min(arg0)", "entry @c = max(arg0)",
		"entry @d = avg(arg0)", "entry @e = quantize(arg0)", "entry @f[arg0 & 1] = count()",
	};
	static const uint64_t v[] = { 5, -3ull, 8, 0, 1024, 7, 8 };
	Tsel sel;
	Dev *d = aggdev(agg[0], &sel);
	Writer w1 = { 0 }, w2 = { 0 };
	char line[128];
	uint32_t i;

	(void)unused;
	for (i = 1; i < sizeof agg / sizeof agg[0]; i++) {
		snprintf(line, sizeof line, "agg t %s", agg[i]);
		assert_int_equal(ctl(d, line), 0);
	}
	assert_int_equal(devtsel(d, 0, &sel), 1);
	for (i = 0; i < sizeof v / sizeof v[0]; i++)	/* own, own, shared, ... */
		ahit(d, &sel, i % 3 == 0 ? &w1 : i % 3 == 1 ? &w2 : NULL, i % 3 == 0 ? 1 : 2, v[i]);
	assert_int_equal(counter(d, "#aggregated "), 6 * 7);
	assert_string_equal(raw(d),
		"@a sum - 7 1049\n"
		"@b min - 7 -3\n"
		"@c max - 7 1024\n"
		"@d avg - 7 149\n"
		"@e quantize -2 1 1\n"	/* -3: DTrace's bucket -2 */
		"@e quantize 0 1 1\n"
		"@e quantize 4 2 2\n"
		"@e quantize 8 2 2\n"
		"@e quantize 1024 1 1\n"
		"@f count - 3 3 1\n"
		"@f count - 4 4 0\n");
	free(d);
}

/* more keys than a table holds: what finds no room is dropped, and aggregated + dropped = hits */
static void
test_table_full(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @c[arg0] = count()", &sel);
	Writer w = { 0 };
	uint64_t i, drops, rows = 0, n = 0, c;
	char *s, *nl;

	(void)unused;
	for (i = 0; i < 2 * Aslots; i++)
		ahit(d, &sel, &w, 1, i);
	drops = counter(d, "#aggdrops ");
	assert_true(drops >= Aslots);	/* 4096 slots at most for 8192 keys */
	assert_int_equal(counter(d, "#aggregated ") + drops, 2 * Aslots);
	assert_int_equal(used(d, 0), 2 * Aslots - drops);	/* one key, one entry */
	for (s = raw(d); *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (*s == '#') {
			assert_int_equal(sscanf(s, "# @c drops %lu", &c), 1);
			assert_int_equal(c, drops);
			continue;
		}
		assert_int_equal(sscanf(s, "@c count - %lu", &c), 1);
		assert_int_equal(c, 1);
		rows++, n += c;
	}
	assert_int_equal(rows, 2 * Aslots - drops);
	/* a key that has its entry still counts */
	ahit(d, &sel, &w, 1, 0);
	assert_int_equal(counter(d, "#aggdrops "), drops);
	free(d);
}

/* clear: a new generation; the old entries are ignored, then taken again, so a full table has room again */
static void
test_clear_generations(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @c[arg0] = count()", &sel);
	Writer w = { 0 };
	uint64_t i, drops;
	uint32_t g;

	(void)unused;
	for (i = 0; i < 2 * Aslots; i++)
		ahit(d, &sel, &w, 1, i);
	drops = counter(d, "#aggdrops ");
	g = d->aggs.agg[0].gen;
	assert_int_equal(ctl(d, "agg @c clear"), 0);
	assert_int_not_equal(d->aggs.agg[0].gen, g);
	assert_string_equal(raw(d), "");	/* nothing of the old generation, not even its drops */
	/* the host's copy is stale until devtsel: the hits read the block meanwhile, and count */
	ahit(d, &sel, &w, 1, 5);
	assert_int_equal(devtsel(d, 0, &sel), 1);
	ahit(d, &sel, &w, 1, 5);
	ahit(d, &sel, &w, 1, 6);
	assert_string_equal(raw(d), "@c count - 1 1 6\n@c count - 2 2 5\n");
	assert_int_equal(counter(d, "#aggdrops "), drops);	/* the stale entries were free to take */
	assert_int_equal(used(d, 0), 2 * Aslots - drops);	/* no entry more: two old ones taken again */
	free(d);
}

/* definitions scribbled on: the hit counts #corrupt and adds nothing */
static void
test_scribbled_definition(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @c[arg0] = count()", &sel);
	Writer w = { 0 };
	Agg *a = &d->aggs.agg[0];

	(void)unused;
	ahit(d, &sel, &w, 1, 1);
	/* the host's checked copy holds: the block's func is not read */
	rst(&a->func, 99);
	ahit(d, &sel, &w, 1, 1);
	assert_int_equal(counter(d, "#corrupt "), 0);
	/* taken again: not a simple one, read from the block, refused */
	assert_int_equal(devtsel(d, 0, &sel), 1);
	assert_int_equal(sel.agg[0].gen, 0);
	ahit(d, &sel, &w, 1, 1);
	assert_int_equal(counter(d, "#corrupt "), 1);
	rst(&a->func, Fcount);
	rst(&a->nkey, 1000);
	assert_int_equal(devtsel(d, 0, &sel), 1);
	ahit(d, &sel, &w, 1, 1);
	assert_int_equal(counter(d, "#corrupt "), 2);
	rst(&a->nkey, 1);
	/* a variable number past the table's: not simple; the block's read gives 0 */
	rst(&a->key[0].var, 200);
	assert_int_equal(devtsel(d, 0, &sel), 1);
	assert_int_equal(sel.agg[0].gen, 0);
	ahit(d, &sel, &w, 1, 1);
	assert_string_equal(raw(d), "@c count - 1 1 0\n@c count - 2 2 1\n");
	assert_int_equal(counter(d, "#aggregated "), 3);
	free(d);
}

/* lquantize with its bounds scribbled: #corrupt, no bucket computed from them */
static void
test_scribbled_lquantize(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @l = lquantize(arg0, 0, 100, 10)", &sel);
	Writer w = { 0 };
	Agg *a = &d->aggs.agg[0];

	(void)unused;
	ahit(d, &sel, &w, 1, 55);
	rst(&a->step, 0);
	ahit(d, &sel, &w, 1, 55);
	rst(&a->step, 3);	/* does not divide 100 */
	ahit(d, &sel, &w, 1, 55);
	rst(&a->step, 1);
	rst(&a->high, 1 << 20);	/* more buckets than Lqmax */
	ahit(d, &sel, &w, 1, 55);
	assert_int_equal(counter(d, "#corrupt "), 3);
	assert_int_equal(counter(d, "#aggregated "), 1);
	free(d);
}

/* a key program scribbled on: run checked, a fault counted in #predfaults */
static void
test_scribbled_program(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @s[arg0 & 3] = sum(arg0 + 1)", &sel);
	Writer w = { 0 };
	Agg *a = &d->aggs.agg[0];
	Prog p;

	(void)unused;
	assert_int_equal(sel.agg[0].gen, 0);	/* programs: not simple */
	ahit(d, &sel, &w, 1, 6);
	assert_string_equal(raw(d), "@s sum - 1 7 2\n");
	p = a->key[0].prog;
	rst(&a->key[0].prog.ninst, Progmax + 1);	/* past the program */
	ahit(d, &sel, &w, 1, 6);
	a->key[0].prog = p;
	rst(&a->key[0].prog.inst[0], (uint64_t)Nop);	/* no such instruction */
	ahit(d, &sel, &w, 1, 6);
	a->key[0].prog = p;
	rst(&a->key[0].prog.inst[0], (uint64_t)Ojmp | 0);	/* a branch to itself: no end */
	ahit(d, &sel, &w, 1, 6);
	a->key[0].prog = p;
	rst(&a->key[0].prog.inst[0], (uint64_t)Oadd);	/* pops an empty stack */
	ahit(d, &sel, &w, 1, 6);
	a->key[0].prog = p;
	rst(&a->key[0].prog.ninst, 1);	/* ends before its Oret */
	ahit(d, &sel, &w, 1, 6);
	assert_int_equal(counter(d, "#predfaults "), 5);
	a->key[0].prog = p;
	ahit(d, &sel, &w, 1, 6);
	assert_string_equal(raw(d), "@s sum - 2 14 2\n");
	free(d);
}

/* table entries scribbled on: the reader skips what no writer could have made */
static void
test_scribbled_entries(void **unused)
{
	Tsel sel;
	Dev *d = aggdev("entry @q = quantize(arg0)", &sel);
	Writer w = { 0 };
	Aent *e;
	int i;

	(void)unused;
	ahit(d, &sel, &w, 1, 4);
	for (i = 0; i < Aslots; i++)
		if ((e = &d->aggs.buf[0].ent[i])->tag != 0)
			break;
	assert_true(i < Aslots);
	e = &d->aggs.buf[1].ent[7];	/* a table nobody owns */
	*e = d->aggs.buf[0].ent[i];
	e->tag = (e->tag & ~0xffff00ull) | 0xffff00;	/* a bucket past quantize's */
	e[1] = d->aggs.buf[0].ent[i];
	e[1].tag = (e[1].tag & ~0xffull) | 0xfe;	/* a slot past Nagg */
	e[2] = d->aggs.buf[0].ent[i];
	e[2].tag |= Abusy;	/* claimed forever */
	e[3] = d->aggs.buf[0].ent[i];
	e[3].n = 0;
	e[4] = d->aggs.buf[0].ent[i];	/* a true duplicate: merged */
	assert_string_equal(raw(d), "@q quantize 4 2 2\n");
	/* and a writer's table tid scribbled: the owner keeps its index, others find it taken */
	rst(&d->aggs.buf[0].tid, 999);
	ahit(d, &sel, &w, 1, 4);
	assert_string_equal(raw(d), "@q quantize 4 3 3\n");
	free(d);
}

/* keys[0..n) as "word v glob;" */
static char *
listed(const Aggkey *k, size_t n)
{
	static char t[256];
	size_t i, l = 0;

	t[0] = 0;
	for (i = 0; i < n; i++)
		l += snprintf(t + l, sizeof t - l, "%d %llu %s;", k[i].word, (unsigned long long)k[i].v, k[i].glob);
	return t;
}

/* the keys the host may type: an entry's lone argN, an exit's lone retval, of a glob trace; no other */
static void
test_typed_keys(void **unused)
{
	static char buf[4096];
	Aggkey keys[8];
	Dev *d = newdev(8);
	void *work = malloc(devaggwork());
	Tsel g, r;
	Hit h = { .pc = Fn, .ticks = 1, .a = { 5, 6, 0, 0 }, .tid = 1, .pid = 7 };

	(void)unused;
	assert_non_null(work);
	assert_int_equal(ctl(d, "trace 'ty_*' new g\ntrace g on\ntrace 1000 2000 new r\ntrace r on\nstart"), 0);
	assert_int_equal(ctl(d, "agg g entry @a[arg1, arg0 + 1, pid] = count()"), 0);
	assert_int_equal(ctl(d, "agg g exit @b[retval, arg0] = count()"), 0);
	assert_int_equal(ctl(d, "agg r entry @c[arg0] = count()"), 0);
	assert_int_equal(devtsel(d, 0, &g), 1);
	assert_int_equal(devtsel(d, 1, &r), 1);
	devfilter(d, &g, &h);
	devfilter(d, &r, &h);
	h.exit = Kexit;
	h.a[0] = 9;
	devfilter(d, &g, &h);
	/* the machine form types nothing */
	assert_int_equal(devaggkeys(d, work, keys, 8, Amachine), 0);
	assert_int_equal(devaggkeys(d, work, keys, 8, Aprinta), 2);
	assert_string_equal(listed(keys, 2), "-1 9 ty_*;1 6 ty_*;");
	keys[0].text = "w-1";
	keys[1].text = "w\0011";	/* a byte not printable: '?' */
	devaggs(d, work, buf, sizeof buf, Amachine, keys, 2);
	assert_string_equal(buf,
		"@a count - 1 1 6 6 7\n"
		"@b count - 1 1 9 0\n"
		"@c count - 1 1 5\n");
	devaggs(d, work, buf, sizeof buf, Aprinta, keys, 2);
	assert_string_equal(buf,
		"@a[arg1, arg0 + 1, pid] = count()\n"
		"  w?1  6  7  1\n"
		"\n"
		"@b[retval, arg0] = count()\n"
		"  w-1  0  1\n"
		"\n"
		"@c[arg0] = count()\n"
		"  5  1\n");
	free(work);
	free(d);
}

/* func keys: listed in both forms, each once; one that appears after the listing prints in hex, as one the host could not name */
static void
test_key_table(void **unused)
{
	static char buf[4096];
	Aggkey keys[8];
	Tsel sel;
	Dev *d = aggdev("entry @f[func, func] = count()", &sel);
	void *work = malloc(devaggwork());
	Hit h = { .pc = Fn + 0x10, .ticks = 1, .tid = 1, .pid = 7 };

	(void)unused;
	assert_non_null(work);
	devfilter(d, &sel, &h);
	h.pc = Fn;
	devfilter(d, &sel, &h);
	devfilter(d, &sel, &h);
	/* too little room: the count, so the host grows its table */
	assert_int_equal(devaggkeys(d, work, keys, 1, Amachine), 4);
	assert_int_equal(devaggkeys(d, work, keys, 8, Amachine), 2);
	assert_string_equal(listed(keys, 2), "-2 4096 ;-2 4112 ;");
	keys[0].text = "fa";
	keys[1].text = "f b";	/* a func's name keeps no space */
	h.pc = Fn + 0x20;	/* after the listing */
	devfilter(d, &sel, &h);
	devaggs(d, work, buf, sizeof buf, Amachine, keys, 2);
	assert_string_equal(buf,
		"@f count - 1 1 f?b f?b\n"
		"@f count - 1 1 0x0000000000001020 0x0000000000001020\n"
		"@f count - 2 2 fa fa\n");
	assert_int_equal(devaggkeys(d, work, keys, 8, Aprinta), 3);
	keys[0].text = "fa";
	keys[1].text = NULL;	/* not known: hex */
	keys[2].text = "fc";
	devaggs(d, work, buf, sizeof buf, Aprinta, keys, 3);
	assert_string_equal(buf,
		"@f[func, func] = count()\n"
		"  0x0000000000001010  0x0000000000001010  1\n"
		"  fc                  fc                  1\n"
		"  fa                  fa                  2\n");
	free(work);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim_own_tables),
		cmocka_unit_test(test_pool_then_shared),
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_table_full),
		cmocka_unit_test(test_clear_generations),
		cmocka_unit_test(test_scribbled_definition),
		cmocka_unit_test(test_scribbled_lquantize),
		cmocka_unit_test(test_scribbled_program),
		cmocka_unit_test(test_scribbled_entries),
		cmocka_unit_test(test_typed_keys),
		cmocka_unit_test(test_key_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
