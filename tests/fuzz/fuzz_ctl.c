/*
 * fuzz_ctl: libFuzzer over the whole control language, through the
 * device's entry points (devctl, devstate, devread), built with clang's
 * address and undefined-behaviour sanitizers from the sources of dev/.  Only the
 * public interface (dev/devtrace.h) is used, so the device's insides
 * may move.  An input is segments split at NUL bytes:
 *	\1 k		read k+1 bytes of records (a record may split)
 *	anything else	one write to tracectl (one or more lines)
 * After every write:
 *	- devctl answers 0 or one of the device's errnos; a refusal
 *	  leaves a reason, and deverr is NUL-terminated within Errmax;
 *	- the state text is NUL-terminated, shorter than Statemax, as long
 *	  as devstate says, printable lines, nothing written past it, and
 *	  #hits = #read + #queued + #lost + #dropped;
 *	- devstate into a short buffer writes the text's start, NUL-terminated,
 *	  and nothing past its end, and returns the length written.
 * At the end:
 *	- the state's command lines, written to a fresh device, are
 *	  accepted and give the same command lines back (README: `cat
 *	  saved > tracectl` rebuilds the same set-up);
 *	- the records left read back as whole 121-byte E/X lines.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dev/devtrace.h"
#include "tests/dev/testhost.h"

enum {
	Logmaxfuzz = 10,	/* "size 4".."size 10" work, above is refused */
	Guard = 64,		/* bytes checked untouched past each buffer */
	Wpid = 100,		/* the writing process */
	Readpid = 200,		/* the process with trace open */
};

#define check(x)	do { if (!(x)) __builtin_trap(); } while (0)

static Dev *dev, *dev2, *dev3;	/* dev3: the same writes, split */
static size_t devbytes;
static char state[Statemax + Guard], state2[Statemax + Guard];
static char line[Statemax];

static void
fresh(Dev *d)
{
	memset(d, 0, devbytes);
	devinit(d, Logmaxfuzz, Testnring, 1000000000);
	devmapped(d, Logmaxfuzz, Testnring, 0);	/* the bound the device trusts: the size it was made with */
}

static int
okerrno(int e)
{
	return e == 0 || e == Enoent || e == E2big || e == Eexist || e == Einval ||
		e == Enospc || e == Erange;
}

/* the value of "#key N" in the state text s */
static uint64_t
counter(const char *s, const char *key)
{
	size_t k = strlen(key);
	const char *p;

	for (p = s; (p = strstr(p, key)) != NULL; p++)
		if ((p == s || p[-1] == '\n') && p[k] == ' ')
			return strtoull(p + k + 1, NULL, 10);
	__builtin_trap();	/* every state has every counter */
}

/* devstate into buf (Statemax + Guard bytes): checked, its length */
static size_t
readstate(Dev *d, char *buf)
{
	size_t n, i;

	memset(buf, 0xa5, Statemax + Guard);
	n = devstate(d, buf, Statemax);
	check(n < Statemax);
	check(buf[n] == 0 && strlen(buf) == n);
	for (i = Statemax; i < Statemax + Guard; i++)
		check((unsigned char)buf[i] == 0xa5);
	check(n > 0 && buf[n - 1] == '\n');
	for (i = 0; i < n; i++)
		check(buf[i] == '\n' || buf[i] == '\t' || (buf[i] >= ' ' && buf[i] < 0x7f));
	return n;
}

static void
checkstate(Dev *d, size_t small)
{
	char buf[256 + Guard];
	size_t n, i, len;

	len = readstate(d, state);
	check(counter(state, "#hits") ==
		counter(state, "#read") + counter(state, "#queued") + counter(state, "#lost") + counter(state, "#dropped"));
	memset(buf, 0xa5, sizeof buf);
	n = devstate(d, buf, small);	/* what fits, NUL-terminated; the length written (callers index with it) */
	check(small == 0 ? n == 0 : n == (len < small - 1 ? len : small - 1) && buf[n] == 0);
	check(memcmp(buf, state, n) == 0);
	for (i = small; i < sizeof buf; i++)
		check((unsigned char)buf[i] == 0xa5);
}

static void
checkerr(Dev *d, int e)
{
	const char *err = deverr(d);

	check(okerrno(e));
	check(memchr(err, 0, Errmax) != NULL);
	if (e != 0)
		check(err[0] != 0);
}

/* the command lines of a state: those not starting with # */
static size_t
commands(const char *s, char *out)
{
	size_t n = 0, k;
	const char *e;

	for (; *s; s = e + 1) {
		e = strchr(s, '\n');
		k = e - s + 1;
		if (*s != '#') {
			memcpy(out + n, s, k);
			n += k;
		}
	}
	out[n] = 0;
	return n;
}

/* what a write to a fresh device of the state's commands gives back */
static void
roundtrip(void)
{
	static char cmds2[Statemax];
	size_t n;
	int e;

	readstate(dev, state);
	n = commands(state, line);
	fresh(dev2);
	e = devctl(dev2, line, n, Wpid);
	check(e == 0);
	readstate(dev2, state2);
	commands(state2, cmds2);
	check(strcmp(line, cmds2) == 0);
}

static size_t
readrecs(Reader *r, size_t n)
{
	static char buf[4096];
	static char rec[121];
	static size_t have;	/* bytes of rec so far, across reads */
	size_t got, i;

	if (n == 0) {	/* start of an input; and its end: whole records read */
		check(have == 0 || (r->off < r->len && have + (r->len - r->off) == sizeof rec));
		have = 0;
		return 0;
	}
	got = devread(dev, r, buf, n);
	check(got <= n);
	for (i = 0; i < got; i++) {
		rec[have++] = buf[i];
		if (have < sizeof rec)
			continue;
		check((rec[0] == 'E' || rec[0] == 'X') && rec[1] == ' ' && rec[120] == '\n');
		have = 0;
	}
	return got;
}

/*
 * The write given to dev whole, given to dev3 in pieces (1 to 13 bytes,
 * by the input's own bytes) on one open file, then closed: a line runs
 * whole however the writes fall.  While every write so far succeeded,
 * both must take each piece and hold the same command lines.
 */
static void
splitwrite(const uint8_t *p, size_t k, int whole, int *same)
{
	static char c1[Statemax], c3[Statemax];
	Ctlfile f;
	size_t i, m;
	int e = 0;

	if (!*same)
		return;
	if (whole != 0) {	/* a refusal stops a write, not the writes after it: no longer comparable */
		*same = 0;
		return;
	}
	memset(&f, 0, sizeof f);
	for (i = 0; i < k && e == 0; i += m) {
		m = 1 + p[i] % 13;
		if (m > k - i)
			m = k - i;
		e = devctlwrite(dev3, &f, (const char *)p + i, m, Wpid);
	}
	if (e == 0)
		e = devctlclose(dev3, &f);
	check(e == 0);
	readstate(dev, state);
	commands(state, c1);
	readstate(dev3, state2);
	commands(state2, c3);
	check(strcmp(c1, c3) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static Reader r;
	const uint8_t *p = data, *end = data + n, *z;
	size_t k, small = n % 200;
	int e, same = 1;

	if (dev == NULL) {
		devbytes = devsize(Logmaxfuzz, Testnring);
		dev = malloc(devbytes);
		dev2 = malloc(devbytes);
		dev3 = malloc(devbytes);
		check(dev != NULL && dev2 != NULL && dev3 != NULL);
	}
	fresh(dev);
	fresh(dev3);
	memset(&r, 0, sizeof r);
	check(devreader(dev, Readpid, 1) == 0);
	readrecs(&r, 0);
	while (p < end) {
		z = memchr(p, 0, end - p);
		k = (z ? z : end) - p;
		if (k >= 1 && p[0] == 1) {
			readrecs(&r, k >= 2 ? (size_t)p[1] + 1 : 1);
		} else {
			e = devctl(dev, (const char *)p, k, Wpid);
			checkerr(dev, e);
			checkstate(dev, small);
			splitwrite(p, k, e, &same);
		}
		p += k + 1;
	}
	roundtrip();
	while (readrecs(&r, 4096) > 0)
		;
	readrecs(&r, 0);
	return 0;
}
