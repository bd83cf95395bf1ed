/*
 * gen CASES N [L]: write to stdout a C++ program that prints the predicate
 * table: every expression of the file CASES (one a line, # comments),
 * N random ones and L random && || ! trees of the tests a term table
 * takes (pred.h), each with the answer the C++ compiler computes on
 * the fixture's entry hit and on its exit hit (1 true, 0 false,
 * -1 fault).  The translation is token for token; see truth.hh.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	Maxtok = 30,	/* random expressions stay well inside Progmax and Stackmax */
	Maxdepth = 3,
};

static const char *binops[] = {
	"||", "&&", "|", "^", "&", "==", "!=", "<", "<=", ">", ">=",
	"<<", ">>", "+", "-", "*", "/", "%",
};
static const char *unops[] = {"-", "~", "!", "+"};
static const char *atoms[] = {
	"0", "1", "2", "3", "5", "7", "10", "63", "64", "65", "100", "4096",
	"0x7fffffffffffffff", "0x8000000000000000", "9223372036854775807",
	"9223372036854775808", "18446744073709551615", "0xffffffffffffffff",
	"0xff", "0XfF", "017", "0777", "00", "01777777777777777777777",
	"'a'", "'\\n'", "'\\0'", "'\\x41'", "'\\\\'", "'\\''", "'\\xff'", "'\\177'",
	"arg0", "arg1", "arg2", "arg3", "retval", "entry", "pc", "pid", "tid",
	"ppid", "uid", "cpu", "timestamp", "depth",
	"(execname == \"sshd\")", "(execname != \"sshd\")", "(\"ssh\" == execname)",
};

#define nelem(a)	(sizeof(a) / sizeof((a)[0]))

static char buf[1024];
static size_t buflen;
static int ntok;
static int full;	/* a token did not fit in buf: the expression is thrown away */
static unsigned long long seed = 88172645463325252ull;

static int
rnd(int n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed % n;
}

/* append a token; one that does not fit marks the expression full (too long) */
static void
put(const char *s)
{
	size_t n = strlen(s), sep = buflen > 0;

	ntok++;
	if (full || buflen + sep + n >= sizeof buf) {
		full = 1;
		return;
	}
	if (sep)
		buf[buflen++] = ' ';
	memcpy(buf + buflen, s, n + 1);
	buflen += n;
}

static void
restart(void)
{
	buf[0] = 0;
	buflen = 0;
	full = 0;
	ntok = 0;
}

static void top(int d);

static void
unary(int d)
{
	int n;

	for (n = rnd(8) < 2 ? 1 + rnd(2) : 0; n > 0; n--)
		put(unops[rnd(nelem(unops))]);
	if (d > 0 && rnd(4) == 0) {
		put("(");
		top(d - 1);
		put(")");
	} else
		put(atoms[rnd(nelem(atoms))]);
}

static void
chain(int d)
{
	int n;

	unary(d);
	for (n = rnd(4); n > 0; n--) {
		put(binops[rnd(nelem(binops))]);
		unary(d);
	}
}

static void
top(int d)
{
	chain(d);
	if (d > 0 && rnd(5) == 0) {
		put("?");
		top(d - 1);
		put(":");
		top(d - 1);
	}
}

/*
 * The shape predterms turns into a term table: && || and ! over
 * var CMP k, k CMP var, a bare var and execname == or != a string, with
 * the constants near the fixture's values and at the ends of the range.
 */
static const char *vars[] = {
	"arg0", "arg1", "arg2", "arg3", "retval", "entry", "pc", "pid", "tid",
	"ppid", "uid", "cpu", "timestamp", "depth",
};
static const char *near[] = {	/* the fixture's value of each, in that order */
	"3", "-1", "4096", "0x8000000000000000", "3", "1", "0x401000", "4242", "42",
	"1", "1000", "2", "123456789", "3",
};
static const char *edges[] = {
	"0", "1", "-1", "0x7fffffffffffffff", "0x8000000000000000", "-0x7fffffffffffffff",
	"9223372036854775807", "18446744073709551615", "0xfffffffffffe", "0x1000000000000",
	"-0x1000000000000", "0x80000000000000", "-0x80000000000000", "0x7fffffffffffff",
};
static const char *cmps[] = {"==", "!=", "<", "<=", ">", ">="};
static const char *names[] = {"\"sshd\"", "\"ssh\"", "\"\"", "\"sshdd\"", "\"abcdefghijklmno\""};

static void
test(void)
{
	char k[64];
	int v = rnd(nelem(vars));

	if (rnd(3) == 0)
		put("!");
	switch (rnd(8)) {
	case 0:
		put(vars[v]);
		return;
	case 1:
		put("(");
		put("execname");
		put(rnd(2) ? "==" : "!=");
		put(names[rnd(nelem(names))]);
		put(")");
		return;
	}
	switch (rnd(3)) {
	case 0:
		snprintf(k, sizeof k, "%s", edges[rnd(nelem(edges))]);
		break;
	case 1:
		snprintf(k, sizeof k, "%s", near[v]);
		break;
	default:
		snprintf(k, sizeof k, "(%s %s 1)", near[v], rnd(2) ? "+" : "-");
		break;
	}
	put("(");
	if (rnd(4) == 0) {
		put(k);
		put(cmps[rnd(nelem(cmps))]);
		put(vars[v]);
	} else {
		put(vars[v]);
		put(cmps[rnd(nelem(cmps))]);
		put(k);
	}
	put(")");
}

static void
logic(int d)
{
	int n;

	if (d == 0 || rnd(3) == 0) {
		test();
		return;
	}
	if (rnd(5) == 0)
		put("!");
	put("(");
	logic(d - 1);
	for (n = 1 + rnd(3); n > 0; n--) {
		put(rnd(2) ? "&&" : "||");
		logic(d - 1);
	}
	put(")");
}

/* the same text for the C++ compiler: see truth.hh */
static void
cxx(const char *s)
{
	const char *t;
	int last = 0;

	while (*s) {
		t = s;
		if (isdigit((unsigned char)*s)) {
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			printf("I(%.*sull)", (int)(s - t), t);
		} else if (*s == '\'' || *s == '"') {
			for (s++; *s && *s != *t; s++)
				if (*s == '\\' && s[1])
					s++;
			if (*s)
				s++;
			if (*t == '\'')
				printf("I((unsigned char)%.*s)", (int)(s - t), t);
			else
				printf("%.*s", (int)(s - t), t);
		} else if (isalpha((unsigned char)*s) || *s == '_') {
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			printf("V%.*s", (int)(s - t), t);
		} else if (*s == '(') {
			printf("P(");
			s++;
		} else {
			if ((*s == '-' || *s == '+') && last == *s)
				putchar(' ');	/* "- -1" is no decrement */
			putchar(*s++);
		}
		last = s[-1];
	}
}

static void
quote(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if (*s == '\t')
			fputs("\\t", stdout);
		else
			putchar(*s);
	}
	putchar('"');
}

static int n;

static void
emit(const char *src)
{
	printf("static I e%d() { return P(", n);
	cxx(src);
	printf("); }\nstatic const char s%d[] = ", n);
	quote(src);
	printf(";\n");
	n++;
}

int
main(int argc, char **argv)
{
	char line[1024];
	FILE *f;
	int i, nrand, nlogic;
	size_t len;

	if (argc < 3 || argc > 4 || (f = fopen(argv[1], "r")) == NULL) {
		fprintf(stderr, "usage: gen cases n [l]\n");
		return 1;
	}
	nrand = atoi(argv[2]);
	nlogic = argc > 3 ? atoi(argv[3]) : 0;
	printf("#include \"tests/pred/truth.hh\"\n\n");
	while (fgets(line, sizeof line, f) != NULL) {
		len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			fprintf(stderr, "gen: %s: a line longer than %d bytes\n", argv[1], (int)sizeof line - 2);
			return 1;
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (len == 0 || line[0] == '#')
			continue;
		emit(line);
	}
	fclose(f);
	for (i = 0; i < nrand; i++) {
		do {
			restart();
			top(Maxdepth);
		} while (full || ntok > Maxtok);
		emit(buf);
	}
	for (i = 0; i < nlogic; i++) {
		do {
			restart();
			logic(3);
		} while (full || ntok > 4 * Maxtok);
		emit(buf);
	}
	printf("\nstatic const Ent tab[] = {\n");
	for (i = 0; i < n; i++)
		printf("\t{s%d, e%d},\n", i, i);
	printf("};\n\nint main() { return run(tab, sizeof tab / sizeof tab[0]); }\n");
	return 0;
}
