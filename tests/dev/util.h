/* util.h: helpers shared by the device's unit tests */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dev/dat.h"
#include "tests/dev/testhost.h"

static inline Dev *
newdev(int logmax)
{
	Dev *d = calloc(1, devsize(logmax, Testnring));

	devinit(d, logmax, Testnring, 1000000);
	devmapped(d, logmax, Testnring, 0);
	return d;
}

/* a device with nring writers' rings */
static inline Dev *
newdevn(int logmax, int nring)
{
	Dev *d = calloc(1, devsize(logmax, nring));

	devinit(d, logmax, nring, 1000000);
	devmapped(d, logmax, nring, 0);
	return d;
}

/* a block with nsess sessions after the top level (dev/sess.c) */
static inline Dev *
newsessdev(int logmax, int nsess)
{
	Dev *d = calloc(1, devblocksize(logmax, Testnring, nsess));

	devinit(d, logmax, Testnring, 1000000);
	devsessinit(d, nsess);
	devmapped(d, logmax, Testnring, nsess);
	return d;
}

static inline int
ctl(Dev *d, const char *s)
{
	return devctl(d, s, strlen(s), 42);
}

static inline char *
state(Dev *d)
{
	static char buf[Statemax];
	size_t n = devstate(d, buf, sizeof buf);

	assert_true(n < sizeof buf);
	buf[n] = 0;
	return buf;
}

/* the state without its comment lines: what a replay must rebuild */
static inline char *
commands(Dev *d)
{
	static char out[Statemax];
	char *s = state(d), *o = out, *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (*s != '#') {
			memcpy(o, s, nl - s + 1);
			o += nl - s + 1;
		}
	}
	*o = 0;
	return out;
}

/*
 * two devices' commands (or states) the same: the first copied out
 * before the second is made, since both are made in one static buffer
 * (comparing commands(e) with commands(d) compares a buffer with itself)
 */
static inline void
assert_same(char *(*text)(Dev *), Dev *a, Dev *b)
{
	static char first[Statemax];

	strcpy(first, text(a));
	assert_string_equal(first, text(b));
}

static inline void
hit(Dev *d, int exit, uint64_t pc, uint64_t a0)
{
	Hit h = { .pc = pc, .ticks = 0x100, .a = { a0, 2, 3, 4 }, .tid = 7, .pid = 7, .exit = exit };

	devrecord(d, &h);
}

static inline size_t
readall(Dev *d, char *buf, size_t n, size_t chunk)
{
	Reader r = { 0 };
	size_t got = 0, k;
	int waits = 0;

	/* as a host does: a record being written is asked for again (a bounded number of times) */
	while (got < n && ((k = devread(d, &r, buf + got, chunk < n - got ? chunk : n - got)) > 0 ||
	    (r.wait && ++waits < 100000)))
		got += k;
	buf[got] = 0;
	return got;
}

static inline uint64_t
counter(Dev *d, const char *name)
{
	char *s = strstr(state(d), name);

	assert_non_null(s);
	return strtoull(s + strlen(name), 0, 10);
}

/* hits = read + queued + lost + dropped, as the state shows them */
static inline void
assert_identity(Dev *d)
{
	assert_int_equal(counter(d, "#hits "),
		counter(d, "#read ") + counter(d, "#queued ") + counter(d, "#lost ") + counter(d, "#dropped "));
}
