/*
 * run.c: devtrace run.  Without options it execs the program attached
 * (LD_PRELOAD), as it always did.  With options it is a whole session,
 * uftrace's record and replay in one command, on a session of its own
 * (ownsess.c): traces made by name pattern, the program run while its
 * records are read, then the traces removed and the call flow printed
 * by scripts/name and scripts/flow.  It writes to the session's ctl
 * what a user would (-v shows it); the top level's traces and records
 * are not touched, and a server it started is stopped.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/recsyms.h"

enum {
	Pollms = 5,		/* the program runs: read the records this often */
};

typedef struct Run Run;
struct Run {
	Ownsess o;		/* the session: -t, -p, -v */
	char *out;		/* -o: the records go here */
	char *min;		/* --min: flow's min, or nil */
	int werr;		/* writing the records failed */
};

#define Usage "usage: devtrace run [-t GLOB ...] [-p EXPR] [-P POLICY] [--min DUR] [-o FILE] [-v] [--] prog [arg ...]\n"

static void
usage(FILE *f)
{
	fprintf(f, Usage
"Run prog attached to the device (LD_PRELOAD of lib/libdevtrace.so beside\n"
"this binary).  Without options it only does that: it starts a server if\n"
"none runs, leaves it running, and execs prog, which keeps devtrace's pid.\n"
"\n"
"With options it is a whole session in one command, on a session of its\n"
"own (as devtrace record -t):\n"
"  -t, --trace GLOB   trace the functions whose names match GLOB, a shell\n"
"                     pattern (* ? [set] [!set]) of letters, digits and\n"
"                     _ . $ -, at most 63 bytes; repeatable, up to %d.\n"
"                     Written as `trace GLOB new runN' and `trace runN on'\n"
"  -p, --pred EXPR    keep only the hits for which EXPR is true: written as\n"
"                     `trace runN pred /EXPR/' for every -t (needs -t); EXPR\n"
"                     may name prog's arguments, from its debug information;\n"
"                     one that reads only what an entry knows keeps or drops\n"
"                     whole calls, entry and exit (devtrace(4))\n"
"  -P, --policy POLICY  the session's buffer policy, as `policy' takes it\n"
"                     (ring, fill, block [MS]); default block %d: nothing is\n"
"                     lost unless the reader stalls for %d ms\n"
"      --min DUR      show only the calls that took at least DUR (10us,\n"
"                     1.5ms; units ns us ms s, ns if none), with their\n"
"                     entries and exits: scripts/flow's min\n"
"  -o, --output FILE  write the records to FILE, as the 121-byte lines cat\n"
"                     trace gives, the symbol file to FILE.syms and the\n"
"                     signatures to FILE.sigs, instead of printing the\n"
"                     call flow\n"
"  -v, --show-ctl     print each line written to tracectl, on standard\n"
"                     error, as `# echo 'LINE' > DIR/tracectl'\n"
"  -h, --help         this text\n"
"A session uses the server that serves the device, or starts one of its\n"
"own (without /dev links) and stops it at the end.  It clones a session,\n"
"makes its traces (runN), watches prog and the processes it starts, starts\n"
"it, runs prog, reads the session's records while prog runs, then closes\n"
"the session and prints the call flow: scripts/name SYMS RECORDS |\n"
"scripts/flow, program output first.  The top level (its traces, watches,\n"
"predicates, start or stop, records) and other sessions are not touched.\n"
"If records were lost it says how many, and what keeps them.\n"
"Exit status: prog's (128+N if signal N ended it); 127 if prog is not\n"
"found; 1 for a refused option or command, or a GLOB no function of\n"
"the device's symbol file matched after prog ran; 2 for bad usage.\n",
		Nglob, Blockms, Blockms);
}

/* DUR as --min takes it: digits, a fraction, a unit or none */
static int
baddur(const char *s)
{
	static const char *units[] = { "", "ns", "us", "ms", "s" };
	const char *p = s;
	size_t i;

	if (*p < '0' || *p > '9')
		return 1;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.' && p[1] >= '0' && p[1] <= '9')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(p, units[i]) == 0)
			return 0;
	return 1;
}

/* the program the user asked for runs all the same, as if devtrace were not there */
static int
untraced(const char *dir, char **argv)
{
	fprintf(stderr, "devtrace run: the device of %s looks damaged (bad header): running %s untraced\n", dir, argv[0]);
	unpreload();
	execvp(argv[0], argv);
	fprintf(stderr, "devtrace: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

/* devtrace run -- prog: as it has always been */
static int
plainrun(const char *dir, char **argv)
{
	Shm *s;

	if (preload(dir) < 0)
		return 1;
	/* two runs at once may race to start it: the loser finds the winner's */
	if (livepid(dir) == 0 && spawn(NULL, 0) != 0 && livepid(dir) == 0)
		return 1;
	if (shmattach(dir, &s, NULL) == NULL)
		return untraced(dir, argv);
	shmunmap(s);
	execvp(argv[0], argv);
	fprintf(stderr, "devtrace: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

/* queued records to fd, at most max bytes; how many were read, or -1 on a write error */
static long long
drain(Run *r, Reader *rd, int fd, unsigned long long max)
{
	static char buf[1024 * 1024];
	unsigned long long got = 0;
	size_t n, want;

	for (;;) {
		want = max - got < sizeof buf ? max - got : sizeof buf;
		if (want == 0 || (n = shmread(r->o.s, rd, buf, want)) == 0)
			return got;
		if (writeall(fd, buf, n) < 0)
			return -1;
		got += n;
	}
}

/* prog, in the session; the records read into fd while it runs; its status as an exit status */
static int
runprog(Run *r, Reader *rd, int fd, char **argv)
{
	struct timespec ts = { 0, Pollms * 1000000L };
	int rc;

	if (ownstart(&r->o, argv) < 0)
		return 1;
	for (;;) {
		/* on a write error go on: prog still runs, the clean-up still follows */
		if (drain(r, rd, fd, ~0ULL) < 0 && !r->werr++)
			fprintf(stderr, "devtrace run: writing the records: %s\n", strerror(errno));
		if ((rc = ownwait(&r->o, 0)) >= 0)
			return rc;
		nanosleep(&ts, NULL);
	}
}

/* stop, remove, then read what is queued (bounded: what the counters said then) */
static int
undo(Run *r, Reader *rd, int fd)
{
	int rc = ownstop(&r->o);

	/* what is queued now, and the rest of a record a read split */
	if (fd >= 0 && drain(r, rd, fd, statecounter(ownstate(&r->o), "queued") * Reclen + (rd->len - rd->off)) < 0 && !r->werr++)
		fprintf(stderr, "devtrace run: writing the records: %s\n", strerror(errno));
	if (r->werr)
		rc = 1;
	shmreader(r->o.s, getpid(), 0);
	return rc;
}

/* the signatures of the objects the program added to the symbol file (from byte symoff), into path */
static int
sigsto(const char *syms, off_t symoff, const char *path)
{
	FILE *f;
	int rc;

	if ((f = fopen(path, "we")) == NULL) {
		fprintf(stderr, "devtrace run: %s: %s\n", path, strerror(errno));
		return 1;
	}
	rc = syms[0] && symsigs(syms, symoff, f, "devtrace run") < 0;
	if (fclose(f) != 0) {
		fprintf(stderr, "devtrace run: %s: %s\n", path, strerror(errno));
		rc = 1;
	}
	return rc;
}

/* scripts/name syms records | scripts/flow -a sigs, the scripts found beside this binary as the library is;
 * times in ns from the device's #hz (0: unknown, ticks) */
static int
showflow(const char *syms, const char *records, const char *sigs, unsigned long long hz, const char *min)
{
	char want[PATH_MAX], name[PATH_MAX], flow[PATH_MAX], hzarg[32] = "", minarg[64] = "";
	int st;
	pid_t pid;

	snprintf(want, sizeof want, "%s/../scripts/name", bindir());
	if (realpath(want, name) == NULL) {
		fprintf(stderr, "devtrace run: no %s: %s\n", want, strerror(errno));
		return 1;
	}
	snprintf(want, sizeof want, "%s/../scripts/flow", bindir());
	if (realpath(want, flow) == NULL) {
		fprintf(stderr, "devtrace run: no %s: %s\n", want, strerror(errno));
		return 1;
	}
	if (hz)
		snprintf(hzarg, sizeof hzarg, "hz=%llu", hz);
	if (min)
		snprintf(minarg, sizeof minarg, "min=%s", min);
	fflush(NULL);
	if ((pid = fork()) < 0)
		return 1;
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "\"$0\" \"$1\" \"$2\" | \"$3\" -a \"$5\" ${4:+-v \"$4\"} ${6:+-v \"$6\"}",
			name, syms, records, flow, hzarg, sigs, minarg, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}

static int
session(Run *r, char **argv)
{
	char tmp[PATH_MAX], sigs[PATH_MAX + 8];
	Ownsess *o = &r->o;
	unsigned long long lost, faults;
	Reader rd;
	int fd = -1, rc, bad;

	if ((rc = owncheck(o)) != 0)
		return rc;
	if (o->policy == NULL)
		o->policy = Lossless;	/* as record -t: nothing lost by default */
	if ((rc = ownopen(o, argv[0])) == Owndamaged)
		return untraced(o->dir, argv);
	if (rc != 0)
		goto out;
	rc = 1;
	if (r->out) {
		/* close-on-exec: neither prog nor the server inherits it */
		if ((fd = open(r->out, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666)) < 0) {
			fprintf(stderr, "devtrace run: %s: %s\n", r->out, strerror(errno));
			goto out;
		}
	} else {
		snprintf(tmp, sizeof tmp, "%s/devtrace-run.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
			fprintf(stderr, "devtrace run: %s: %s\n", tmp, strerror(errno));
			goto out;
		}
	}
	if (shmreader(o->s, getpid(), 1) != 0) {
		fprintf(stderr, "devtrace run: %s\n", deverr(shmdev(o->s)));
		goto out;
	}
	memset(&rd, 0, sizeof rd);
	lost = lostcount(ownstate(o));
	faults = statecounter(ownstate(o), "predfaults");
	if (owntraces(o) < 0) {
		undo(r, &rd, -1);
		goto out;
	}
	rc = runprog(r, &rd, fd, argv);
	bad = undo(r, &rd, fd);
	if ((lost = lostcount(ownstate(o)) - lost) > 0) {
		fprintf(stderr, "devtrace run: %llu records lost while the program ran (the session's #lost and #dropped)", lost);
		fprintf(stderr, "; -P 'block MS' keeps every record, waiting up to MS ms for a stalled reader (now: %s)\n", o->policy);
	}
	if ((faults = statecounter(ownstate(o), "predfaults") - faults) > 0)
		fprintf(stderr, "devtrace run: %llu hits dropped: -p's predicate divided by zero (or the most negative number by -1) there (the session's #predfaults)\n", faults);
	if (close(fd) < 0) {
		fprintf(stderr, "devtrace run: %s: %s\n", r->out ? r->out : tmp, strerror(errno));
		bad = 1;
	}
	fd = -1;
	if (r->out)	/* the symbols and signatures of the objects in the records */
		bad |= recbeside(r->out, o->syms, "devtrace run");
	else {
		snprintf(sigs, sizeof sigs, "%s.sigs", tmp);
		bad |= sigsto(o->syms, o->symoff, sigs);
		bad |= showflow(o->syms, tmp, sigs, statecounter(ownstate(o), "hz"), r->min);
		unlink(sigs);
		unlink(tmp);
	}
	bad |= ownnomatch(o);
	if (rc == 0 && bad)
		rc = 1;
out:
	if (fd >= 0)
		close(fd);
	if (fd >= 0 && !r->out)
		unlink(tmp);
	ownclose(o);
	return rc;
}

int
xrun(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "trace", required_argument, NULL, 't' },
		{ "pred", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "show-ctl", no_argument, NULL, 'v' },
		{ "policy", required_argument, NULL, 'P' },
		{ "min", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	static Run run = { .o.who = "devtrace run" };
	Run *r = &run;
	int ch, opts = 0;

	(void)c;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+ht:p:o:vP:", lo, NULL)) != -1) {
		opts = 1;
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 't':
			if (ownglob(&r->o, optarg) != 0)
				return 2;
			break;
		case 'p':
			r->o.pred = optarg;
			break;
		case 'o':
			r->out = optarg;
			break;
		case 'v':
			r->o.show = 1;
			break;
		case 'P':
			r->o.policy = optarg;
			break;
		case 'm':
			if (baddur(optarg)) {
				fprintf(stderr, "devtrace run: --min '%s': not a duration: digits, a fraction, a unit of ns us ms s (10us, 1.5ms)\n", optarg);
				return 2;
			}
			r->min = optarg;
			break;
		default:
			return badopt("devtrace run", "tpoPm", Usage, argv);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "devtrace run: no program to run\n");
		fprintf(stderr, "%s", Usage);
		return 2;
	}
	if (!opts)
		return plainrun(clientdir(), argv + optind);
	return session(r, argv + optind);
}
