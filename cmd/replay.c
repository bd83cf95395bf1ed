/*
 * replay.c: devtrace replay FILE..., the call flow of recordings as
 * devtrace run -t prints it: the records chosen here, by call
 * (calls.c: a call's entry and exit go or stay together), named here
 * (FILE.syms, as scripts/name names them), then formatted by run's
 * scripts/flow -a FILE.sigs with the file's #hz; -t MIN is flow's
 * -v min (a call shown once known long, with its callers).
 * -T's window needs a call's end at its entry: a first pass marks the
 * calls that lie in it by their entry's number.  Times are the
 * program's (calls.h): a thread's tracer waits taken out.
 * Several files are merged by time, as devtrace merge merges hosts:
 * real time from each file's clock pair, the file's number over its
 * threads' ids.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/calls.h"
#include "cmd/capfile.h"
#include "dev/lib.h"

enum {
	Nglobs = 32,		/* -F and -N each */
	Nfiles = 256,		/* recordings merged */
	Keep = 1,		/* a call's word: its records are shown */
	Inside = 2,		/* it is, or is below, a call of -F's functions */
	Hostshift = 48,		/* a file's number over its thread's id, as devtrace merge marks a host's */
	Optid = 256,		/* --tid's getopt code */
	Minspan = 100000000,	/* ns between the clock and end pairs for their rate to be used, as merge's */
};

static const char Usage[] =
	"usage: devtrace replay [-t MIN] [-D N] [-F GLOB ...] [-N GLOB ...] [--tid N] [-T START..END] FILE ...\n"
	"  the call flow of FILE (a recording of devtrace record) as devtrace run -t prints it:\n"
	"  arguments and return values typed from FILE.sigs, durations in ns\n"
	"  -t MIN      only the calls that took at least MIN (10us, 1.5ms; ns, us, ms, s), with\n"
	"              their callers\n"
	"  -D N        only the calls less than N deep (-D 1: each thread's bottom calls)\n"
	"  -F GLOB     only the calls of GLOB's functions and below them\n"
	"  -N GLOB     not the calls of GLOB's functions (those they make stay)\n"
	"  --tid N     only thread N's records\n"
	"  -T START..END  only the calls wholly inside the window, times since the first record\n"
	"              (1ms..2ms; either side may be left out: 1ms.., ..500us)\n"
	"  several FILEs: merged by real time (each file's clock), threads shown as FILENUMBER/TID\n";

typedef struct Filter Filter;
struct Filter {
	char *only[Nglobs], *not[Nglobs];
	int nonly, nnot;
	long depth;		/* -1: any */
	long long tid;		/* -1: any */
	double from, to;	/* -T, ns since the first record; -1: that side open */
};

/* one recording, its next event waiting to be merged */
typedef struct Src Src;
struct Src {
	const char *path;
	Calls *c;
	Call k;
	int rc;			/* callnext's of k: 1 an event waits */
	uint64_t hz;
	uint64_t cticks, cns;	/* its clock pair: real time */
	double nspt;		/* ns a tick, from the pairs or #hz */
	int clocked;		/* its records' times are real ns (several files, all with clocks) */
	uint64_t key0;		/* the merged stream's first time */
	double scale;		/* ns a unit of time: 1 clocked, else 1e9 / #hz (1 without) */
	uint8_t *in;		/* -T ..END: the calls in the window, a bit by entry number */
	size_t nin;		/* bytes */
	uint64_t nentry;	/* entries seen */
	unsigned no;		/* its number: 1, 2, ... with several files, else 0 */
};

static int
any(char *const *glob, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (globmatch(glob[i], name))
			return 1;
	return 0;
}

static int64_t
near(double d)
{
	return (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
}

/* a record's time: its ticks, or real ns */
static uint64_t
key(const Src *s, uint64_t ticks)
{
	double d;

	if (!s->clocked)
		return ticks;
	d = (double)(int64_t)(ticks - s->cticks) * s->nspt;
	return s->cns + near(d);
}

/* ns since the stream's first record, as flow's TIME column rounds it */
static double
since(const Src *s, uint64_t ticks)
{
	return (double)near((double)(int64_t)(key(s, ticks) - s->key0) * s->scale);
}

static int
after(const Filter *f, double t)
{
	return f->from < 0 || t >= f->from;
}

static int
before(const Filter *f, double t)
{
	return f->to < 0 || t <= f->to;
}

/* -T: whether the call of this entry lies in the window */
static int
inwindow(Src *s, const Filter *f, const Call *k)
{
	uint64_t n = s->nentry++;

	if (f->to < 0)
		return after(f, since(s, k->start));
	return n / 8 < s->nin && (s->in[n / 8] >> (n % 8) & 1);
}

/* whether an event's record is shown; a call's choice rides in its word for its exit */
static int
chosen(Src *s, const Filter *f, const Call *k)
{
	const char *name = callname(s->c, k->fn);
	uint64_t in = f->nonly == 0 || (k->upaux & Inside);
	int win = 0;

	if (k->kind == Centry)
		win = inwindow(s, f, k);
	if (f->tid >= 0 && k->tid != (uint64_t)f->tid)
		return 0;
	switch (k->kind) {
	case Centry:
		if (f->nonly > 0 && any(f->only, f->nonly, name))
			in = 1;
		*k->aux = (in ? Inside : 0) | (in && win && (f->depth < 0 || k->depth < f->depth) && !any(f->not, f->nnot, name) ? Keep : 0);
		return *k->aux & Keep;
	case Cexit:
		return *k->aux & Keep;
	case Cprobe:
		return in && (f->depth < 0 || k->depth < f->depth) && after(f, since(s, k->rec->ticks)) && before(f, since(s, k->rec->ticks));
	case Cnoentry:	/* below nothing known: not inside -F's calls; begun before the recording: not after START */
		return f->nonly == 0 && (f->depth < 0 || k->depth < f->depth) && !any(f->not, f->nnot, name)
			&& f->from < 0 && before(f, since(s, k->rec->ticks));
	}
	return 0;
}

static int
mark(Src *s, uint64_t n)
{
	uint8_t *p;
	size_t m;

	if (n / 8 >= s->nin) {
		for (m = s->nin ? 2 * s->nin : 4096; m <= n / 8; m *= 2)
			;
		if ((p = realloc(s->in, m)) == NULL) {
			fprintf(stderr, "devtrace replay: out of memory\n");
			return -1;
		}
		memset(p + s->nin, 0, m - s->nin);
		s->in = p;
		s->nin = m;
	}
	s->in[n / 8] |= 1 << (n % 8);
	return 0;
}

/*
 * -T ..END, the first pass: the calls that begin at or after START and
 * end by END, their exit or the one that passed over them (a call open
 * at the file's end has no end: not inside), marked by entry number
 * (entry n + 1 in the call's word; 0: begun before START).  It reads
 * to the file's end, not to END: times are each thread's program's
 * clock (calls.h), so a thread that waited has records later in the
 * file that are earlier than another's, inside the window.
 */
static int
window(Src *s, const Filter *f)
{
	Calls *c;
	Call k;
	uint64_t n = 0;
	int rc;

	if ((c = callsopen(s->path, "devtrace replay")) == NULL)
		return -1;
	while ((rc = callnext(c, &k)) > 0) {
		if (k.kind == Centry)
			*k.aux = after(f, since(s, k.start)) ? ++n : (n++, 0);
		else if (k.kind == Cexit && *k.aux && before(f, since(s, k.rec->ticks)) && mark(s, *k.aux - 1) < 0)
			rc = -1;
		else if (k.kind == Cnoexit && *k.aux && !k.atend && before(f, since(s, k.end)) && mark(s, *k.aux - 1) < 0)
			rc = -1;
		if (rc < 0)
			break;
	}
	callsclose(c);
	return rc < 0 ? -1 : 0;
}

/* the formatter, run's flow, reading the pipe, typed by the files' signatures (several: one file of them all); its pid, or -1 (told) */
static pid_t
formatter(Src *s, int n, uint64_t hz, const char *min, int *fd)
{
	char want[PATH_MAX], flow[PATH_MAX], sigs[Nfiles][PATH_MAX], hzarg[32] = "", minarg[64] = "";
	char *argv[Nfiles + 8];
	int p[2], i, na = 0;
	pid_t pid;

	snprintf(want, sizeof want, "%s/../scripts/flow", bindir());
	if (realpath(want, flow) == NULL) {
		fprintf(stderr, "devtrace replay: no %s: %s\n", want, strerror(errno));
		return -1;
	}
	if (hz)
		snprintf(hzarg, sizeof hzarg, "hz=%llu", (unsigned long long)hz);
	if (min)
		snprintf(minarg, sizeof minarg, "min=%s", min);
	/* sh -c SCRIPT flow hz min SIGS...: a function typed two ways stays untyped (sigs.awk) */
	argv[na++] = "sh";
	argv[na++] = "-c";
	argv[na++] = "f=$1 h=$2 m=$3; shift 3; a=${1-}\n"
		"if [ $# -gt 1 ]; then a=$(mktemp) || exit 1; trap 'rm -f \"$a\"' EXIT; cat -- \"$@\" > \"$a\" || exit 1; fi\n"
		"\"$f\" ${a:+-a \"$a\"} ${h:+-v \"$h\"} ${m:+-v \"$m\"}";
	argv[na++] = "sh";
	argv[na++] = flow;
	argv[na++] = hzarg;
	argv[na++] = minarg;
	for (i = 0; i < n; i++) {
		snprintf(sigs[i], sizeof sigs[i], "%s.sigs", s[i].path);
		if (access(sigs[i], R_OK) == 0)	/* none: its calls untyped */
			argv[na++] = sigs[i];
	}
	argv[na] = NULL;
	fflush(NULL);
	if (pipe(p) < 0 || (pid = fork()) < 0) {
		fprintf(stderr, "devtrace replay: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		execv("/bin/sh", argv);
		_exit(127);
	}
	close(p[0]);
	*fd = p[1];
	return pid;
}

/* the event's record as flow reads it: named, its time the stream's, its thread marked with its file */
static int
put(FILE *out, Src *s, const Call *k)
{
	char line[Reclen];
	Rec r = *k->rec;
	int i;

	r.ticks = key(s, r.ticks);
	devfmt(line, &r);
	if (s->no)	/* the top 4 of the thread's 16 digits, 0 from devfmt */
		for (i = 0; i < 4; i++)
			line[36 + i] = "0123456789abcdef"[s->no >> (12 - 4 * i) & 15];
	/* "K NAME rest": scripts/name's line */
	return fprintf(out, "%c %s%.*s", line[0], callname(s->c, k->fn), Reclen - 18, line + 18) < 0;
}

/* the next event of s worth merging (a call that ended with no exit has no record to show) */
static void
pull(Src *s)
{
	while ((s->rc = callnext(s->c, &s->k)) > 0 && s->k.kind == Cnoexit)
		;
}

/* the source whose event comes first: the oldest, on a tie the file given first; nil at the end */
static Src *
first(Src *s, int n)
{
	Src *b = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (s[i].rc > 0 && (b == NULL || key(&s[i], s[i].k.rec->ticks) < key(b, b->k.rec->ticks)))
			b = &s[i];
	return b;
}

/* the chosen records to fd as lines: 0, 1 (told), or 2: the reader went away */
static int
feed(Src *s, int n, const Filter *f, int fd)
{
	FILE *out;
	Src *b;
	int rc = 0, i;

	if ((out = fdopen(fd, "w")) == NULL)
		return 1;
	/* to the end, past END too: a thread that waited is behind the others (window's why) */
	while (rc == 0 && (b = first(s, n)) != NULL) {
		if (chosen(b, f, &b->k) && put(out, b, &b->k))
			rc = 2;
		pull(b);
	}
	for (i = 0; i < n; i++)
		if (s[i].rc < 0)
			rc = 1;
	if (fclose(out) != 0 && rc == 0)
		rc = 2;
	return rc;
}

static int
badnum(const char *opt, const char *s, long long *v)
{
	char *e;

	*v = strtoll(s, &e, 10);
	if (*s == 0 || *e != 0 || *v < 0) {
		fprintf(stderr, "devtrace replay: %s '%s': a number, 0 or more\n", opt, s);
		return 1;
	}
	return 0;
}

/* a time as flow reads it: a number, then ns, us, ms or s; in ns, or -1 */
static double
nstime(const char *s)
{
	static const struct { const char *unit; double ns; } u[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1 } };
	regex_t re;
	size_t i, n;
	int bad;

	regcomp(&re, "^[0-9]+(\\.[0-9]+)?(ns|us|ms|s)?$", REG_EXTENDED | REG_NOSUB);
	bad = regexec(&re, s, 0, NULL, 0) != 0;
	regfree(&re);
	if (bad)
		return -1;
	n = strspn(s, "0123456789.");
	for (i = 0; strcmp(u[i].unit, s + n) != 0; i++)
		;
	return strtod(s, NULL) * u[i].ns;
}

static int
badmin(const char *s)
{
	if (nstime(s) >= 0)
		return 0;
	fprintf(stderr, "devtrace replay: -t '%s': a time, a number and ns, us, ms or s (10us, 1.5ms)\n", s);
	return 1;
}

/* -T START..END, either side left out: open */
static int
badwindow(const char *s, Filter *f)
{
	const char *dots = strstr(s, "..");
	char from[64];

	if (dots == NULL || (size_t)(dots - s) >= sizeof from)
		goto bad;
	snprintf(from, sizeof from, "%.*s", (int)(dots - s), s);
	f->from = from[0] ? nstime(from) : -1;
	f->to = dots[2] ? nstime(dots + 2) : -1;
	if ((from[0] && f->from < 0) || (dots[2] && f->to < 0))
		goto bad;
	if (f->to >= 0 && f->to < f->from) {
		fprintf(stderr, "devtrace replay: -T '%s': END before START\n", s);
		return 1;
	}
	return 0;
bad:
	fprintf(stderr, "devtrace replay: -T '%s': a window START..END, each a time (10us, 1.5ms; ns, us, ms, s), either left out (1ms.., ..500us)\n", s);
	return 1;
}

static int
options(int argc, char **argv, Filter *f, char **min)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "tid", required_argument, NULL, Optid },
		{ NULL, 0, NULL, 0 },
	};
	long long v;
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "ht:D:F:N:T:", lo, NULL)) != -1)
		switch (ch) {
		case 'h':
			printf("%s", Usage);
			exit(0);
		case 't':
			if (badmin(optarg))
				return 2;
			*min = optarg;
			break;
		case 'T':
			if (badwindow(optarg, f))
				return 2;
			break;
		case 'D':
			if (badnum("-D", optarg, &v))
				return 2;
			f->depth = v;
			break;
		case Optid:
			if (badnum("--tid", optarg, &v))
				return 2;
			f->tid = v;
			break;
		case 'F':
		case 'N':
			if ((ch == 'F' ? f->nonly : f->nnot) == Nglobs) {
				fprintf(stderr, "devtrace replay: more than %d -%c\n", Nglobs, ch);
				return 2;
			}
			if (ch == 'F')
				f->only[f->nonly++] = optarg;
			else
				f->not[f->nnot++] = optarg;
			break;
		default:
			if (optopt == Optid)
				optopt = 0;
			return badopt("devtrace replay", "tDFNT", Usage, argv);
		}
	if (optind == argc || argc - optind > Nfiles) {
		fprintf(stderr, "devtrace replay: %s\n%s", optind == argc ? "no FILE (a recording of devtrace record)" : "more than 256 FILEs", Usage);
		return 2;
	}
	return 0;
}

/* a file's clock pair and rate: the clock and end pairs' when 0.1 s apart (measured), else #hz; 0 if it has no clock */
static int
readclock(Src *s)
{
	Capfile *f;
	const char *v;
	unsigned long long t, n, et, en;
	int ok;

	if ((f = capopen(s->path, "devtrace replay")) == NULL)
		return -1;
	v = capinfo(f, "clock", 0);
	ok = s->hz > 0 && v != NULL && sscanf(v, "%llu %llu", &t, &n) == 2;
	if (ok) {
		s->cticks = t;
		s->cns = n;
		s->nspt = 1e9 / (double)s->hz;
		v = capinfo(f, "end", 0);
		if (v != NULL && sscanf(v, "%llu %llu", &et, &en) == 2 && en >= n + Minspan && et > t)
			s->nspt = (double)(en - n) / (double)(et - t);
	}
	capclose(f);
	return ok;
}

/*
 * the files opened, their first events waiting; one time line: several
 * with clocks all, real ns (flow's hz 1e9); else their ticks, which
 * must then count alike (one host's counter, one #hz).  Its #hz for
 * flow in *hz; -1 (told): 1 unreadable, 2 files that cannot be merged.
 */
static int
openall(Src *s, int n, char **path, uint64_t *hz)
{
	int i, clocked = n > 1, c = 0;
	uint64_t key0 = UINT64_MAX;

	for (i = 0; i < n; i++) {
		s[i].path = path[i];
		s[i].no = n > 1 ? i + 1 : 0;
		if ((s[i].c = callsopen(path[i], "devtrace replay")) == NULL)
			return 1;
		s[i].hz = callhz(s[i].c);
		if (n > 1 && (c = readclock(&s[i])) < 0)
			return 1;
		clocked = clocked && c;
	}
	for (i = 0; i < n; i++)
		if (!clocked && s[i].hz != s[0].hz) {
			fprintf(stderr, "devtrace replay: %s: #hz %llu, %s's %llu, and not all have a clock: no one time line\n",
				s[i].path, (unsigned long long)s[i].hz, s[0].path, (unsigned long long)s[0].hz);
			return 2;
		}
	*hz = clocked ? 1000000000 : s[0].hz;
	for (i = 0; i < n; i++) {
		s[i].clocked = clocked;
		s[i].scale = clocked || *hz == 0 ? 1 : 1e9 / (double)*hz;
		pull(&s[i]);
		if (s[i].rc < 0)
			return 1;
		if (s[i].rc > 0 && key(&s[i], s[i].k.rec->ticks) < key0)
			key0 = key(&s[i], s[i].k.rec->ticks);
	}
	for (i = 0; i < n; i++)
		s[i].key0 = key0;
	return 0;
}

static void
closeall(Src *s, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		callsclose(s[i].c);
		free(s[i].in);
	}
}

int
xreplay(Cmd *c, int argc, char **argv)
{
	static Src s[Nfiles];
	Filter f = { .depth = -1, .tid = -1, .from = -1, .to = -1 };
	char *min = NULL;
	uint64_t hz = 0;
	int rc, fd, st, n, i;
	pid_t pid;

	(void)c;
	if ((rc = options(argc, argv, &f, &min)) != 0)
		return rc;
	n = argc - optind;
	if ((rc = openall(s, n, argv + optind, &hz)) != 0) {
		closeall(s, n);
		return rc;
	}
	for (i = 0; i < n; i++)
		if (f.to >= 0 && window(&s[i], &f) < 0) {
			closeall(s, n);
			return 1;
		}
	signal(SIGPIPE, SIG_IGN);	/* a formatter that ended early: told by the write */
	if ((pid = formatter(s, n, hz, min, &fd)) < 0) {
		closeall(s, n);
		return 1;
	}
	rc = feed(s, n, &f, fd);
	for (i = 0; i < n; i++)
		rc = rc == 1 || callsend(s[i].c);
	closeall(s, n);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return rc || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}
