/*
 * replay.c: devtrace replay FILE, the call flow of a recording as
 * devtrace run -t prints it: the records chosen here, by call
 * (calls.c: a call's entry and exit go or stay together), then
 * formatted by the same scripts run uses, scripts/name FILE.syms |
 * scripts/flow -a FILE.sigs, with the file's #hz; -t MIN is flow's
 * -v min (a call shown once known long, with its callers).
 */
#include <errno.h>
#include <fnmatch.h>
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

enum {
	Nglobs = 32,		/* -F and -N each */
	Nline = 4096,		/* record lines written at once */
	Keep = 1,		/* a call's word: its records are shown */
	Inside = 2,		/* it is, or is below, a call of -F's functions */
};

static const char Usage[] =
	"usage: devtrace replay [-t MIN] [-D N] [-F GLOB ...] [-N GLOB ...] [--tid N] FILE\n"
	"  the call flow of FILE (a recording of devtrace record) as devtrace run -t prints it:\n"
	"  arguments and return values typed from FILE.sigs, durations in ns\n"
	"  -t MIN      only the calls that took at least MIN (10us, 1.5ms; ns, us, ms, s), with\n"
	"              their callers\n"
	"  -D N        only the calls less than N deep (-D 1: each thread's bottom calls)\n"
	"  -F GLOB     only the calls of GLOB's functions and below them\n"
	"  -N GLOB     not the calls of GLOB's functions (those they make stay)\n"
	"  --tid N     only thread N's records\n";

typedef struct Filter Filter;
struct Filter {
	char *only[Nglobs], *not[Nglobs];
	int nonly, nnot;
	long depth;		/* -1: any */
	long long tid;		/* -1: any */
};

static int
any(char *const *glob, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (fnmatch(glob[i], name, 0) == 0)
			return 1;
	return 0;
}

/* whether an event's record is shown; a call's choice rides in its word for its exit */
static int
chosen(Calls *c, const Filter *f, const Call *k)
{
	const char *name = callname(c, k->fn);
	uint64_t in = f->nonly == 0 || (k->upaux & Inside);

	if (f->tid >= 0 && k->tid != (uint64_t)f->tid)
		return 0;
	switch (k->kind) {
	case Centry:
		if (f->nonly > 0 && any(f->only, f->nonly, name))
			in = 1;
		*k->aux = (in ? Inside : 0) | (in && (f->depth < 0 || k->depth < f->depth) && !any(f->not, f->nnot, name) ? Keep : 0);
		return *k->aux & Keep;
	case Cexit:
		return *k->aux & Keep;
	case Cprobe:
		return in && (f->depth < 0 || k->depth < f->depth);
	case Cnoentry:	/* below nothing known: not inside -F's calls */
		return f->nonly == 0 && (f->depth < 0 || k->depth < f->depth) && !any(f->not, f->nnot, name);
	}
	return 0;
}

/* the formatter, run's: name | flow, reading the pipe; its pid, or -1 (told) */
static pid_t
formatter(const char *file, uint64_t hz, const char *min, int *fd)
{
	char want[PATH_MAX], name[PATH_MAX], flow[PATH_MAX], syms[PATH_MAX], sigs[PATH_MAX], hzarg[32] = "", minarg[64] = "";
	int p[2];
	pid_t pid;

	snprintf(want, sizeof want, "%s/../scripts/name", bindir());
	if (realpath(want, name) == NULL) {
		fprintf(stderr, "devtrace replay: no %s: %s\n", want, strerror(errno));
		return -1;
	}
	snprintf(want, sizeof want, "%s/../scripts/flow", bindir());
	if (realpath(want, flow) == NULL) {
		fprintf(stderr, "devtrace replay: no %s: %s\n", want, strerror(errno));
		return -1;
	}
	/* none beside it: pcs in hex, calls untyped */
	snprintf(syms, sizeof syms, "%s.syms", file);
	if (access(syms, R_OK) != 0)
		snprintf(syms, sizeof syms, "/dev/null");
	snprintf(sigs, sizeof sigs, "%s.sigs", file);
	if (access(sigs, R_OK) != 0)
		sigs[0] = 0;
	if (hz)
		snprintf(hzarg, sizeof hzarg, "hz=%llu", (unsigned long long)hz);
	if (min)
		snprintf(minarg, sizeof minarg, "min=%s", min);
	fflush(NULL);
	if (pipe(p) < 0 || (pid = fork()) < 0) {
		fprintf(stderr, "devtrace replay: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		execl("/bin/sh", "sh", "-c", "\"$0\" \"$1\" | \"$2\" ${3:+-a \"$3\"} ${4:+-v \"$4\"} ${5:+-v \"$5\"}",
			name, syms, flow, sigs, hzarg, minarg, (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	*fd = p[1];
	return pid;
}

/* the chosen records to fd as lines: 0, 1 (told), or 2: the reader went away */
static int
feed(Calls *c, const Filter *f, int fd)
{
	static char buf[Nline * Reclen];
	size_t n = 0;
	Call k;
	int rc;

	while ((rc = callnext(c, &k)) > 0) {
		if (k.kind == Cnoexit || !chosen(c, f, &k))
			continue;
		devfmt(buf + n++ * Reclen, k.rec);
		if (n == Nline) {
			if (writeall(fd, buf, n * Reclen) < 0)
				return 2;
			n = 0;
		}
	}
	if (rc == 0 && n > 0 && writeall(fd, buf, n * Reclen) < 0)
		return 2;
	return rc < 0;
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

/* a time as flow reads it: a number, then ns, us, ms or s */
static int
badmin(const char *s)
{
	regex_t re;
	int bad;

	regcomp(&re, "^[0-9]+(\\.[0-9]+)?(ns|us|ms|s)?$", REG_EXTENDED | REG_NOSUB);
	bad = regexec(&re, s, 0, NULL, 0) != 0;
	regfree(&re);
	if (bad)
		fprintf(stderr, "devtrace replay: -t '%s': a time, a number and ns, us, ms or s (10us, 1.5ms)\n", s);
	return bad;
}

static int
options(int argc, char **argv, Filter *f, char **min)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "tid", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	long long v;
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "ht:D:F:N:", lo, NULL)) != -1)
		switch (ch) {
		case 'h':
			printf("%s", Usage);
			exit(0);
		case 't':
			if (badmin(optarg))
				return 2;
			*min = optarg;
			break;
		case 'D':
			if (badnum("-D", optarg, &v))
				return 2;
			f->depth = v;
			break;
		case 'T':
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
			return badopt("devtrace replay", "tDFNT", Usage, argv);
		}
	if (optind + 1 != argc) {
		fprintf(stderr, "devtrace replay: %s\n%s", optind == argc ? "no FILE (a recording of devtrace record)" : "one FILE only", Usage);
		return 2;
	}
	return 0;
}

int
xreplay(Cmd *c, int argc, char **argv)
{
	Filter f = { .depth = -1, .tid = -1 };
	char *min = NULL;
	Calls *k;
	int rc, fd, st;
	pid_t pid;

	(void)c;
	if ((rc = options(argc, argv, &f, &min)) != 0)
		return rc;
	if ((k = callsopen(argv[optind], "devtrace replay")) == NULL)
		return 1;
	signal(SIGPIPE, SIG_IGN);	/* a formatter that ended early: told by the write */
	if ((pid = formatter(argv[optind], callhz(k), min, &fd)) < 0) {
		callsclose(k);
		return 1;
	}
	rc = feed(k, &f, fd);
	close(fd);
	rc = rc == 1 || callsend(k);
	callsclose(k);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return rc || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}
