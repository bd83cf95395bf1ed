/*
 * run.c: devtrace run.  Without options it execs the program attached
 * (LD_PRELOAD), as it always did.  With options it is a whole session,
 * uftrace's record and replay in one command: traces made by name
 * pattern, the device started, the program run while its records are
 * read, then the traces removed and the call flow printed by
 * scripts/name and scripts/flow.  It writes to tracectl what a user
 * would (-v shows it), and it puts back what it found: the other
 * traces are not touched, a device it found stopped is stopped again,
 * a server it started is stopped.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cmd/client.h"

enum {
	Pollms = 5,		/* the program runs: read the records this often */
	Nglob = 32,		/* -t options: half the device's traces */
};

typedef struct Run Run;
struct Run {
	char *glob[Nglob];
	int nglob;
	char *pred;		/* -p: attached to every trace made */
	char *out;		/* -o: the raw records go here */
	int show;		/* -v: print each line written to tracectl */
	const char *dir;
	Shm *top;		/* the device */
	Shm *s;			/* the session of run's own, on it */
	int sess;		/* its number: DIR/N/ctl */
	char name[Nglob][Namelen];	/* the traces made, in order */
	int nmade;
	int started;		/* the device was stopped: run wrote start */
	int own;		/* no server ran: run started one */
	char err[Errmax];	/* the device's reason for the last refusal */
	int werr;		/* writing the records failed */
};

static volatile sig_atomic_t child;

#define Usage "usage: devtrace run [-t GLOB ...] [-p EXPR] [-o FILE] [-v] [--] prog [arg ...]\n"

static void
usage(FILE *f)
{
	fprintf(f, Usage
"Run prog attached to the device (LD_PRELOAD of lib/libdevtrace.so beside\n"
"this binary).  Without options it only does that: it starts a server if\n"
"none runs, leaves it running, and execs prog, which keeps devtrace's pid.\n"
"\n"
"With options it is a whole session in one command:\n"
"  -t, --trace GLOB   trace the functions whose names match GLOB, a shell\n"
"                     pattern (* ? [set] [!set]) of letters, digits and\n"
"                     _ . $ -, at most 63 bytes; repeatable, up to %d.\n"
"                     Written as `trace GLOB new runN' and `trace runN on'\n"
"  -p, --pred EXPR    keep only the hits for which EXPR is true: written as\n"
"                     `trace runN pred /EXPR/' for every -t (needs -t); EXPR\n"
"                     may name prog's arguments, from its debug information\n"
"  -o, --output FILE  write the raw records to FILE, the symbol file to\n"
"                     FILE.syms and the signatures to FILE.sigs, instead\n"
"                     of printing the call flow\n"
"  -v, --show-ctl     print each line written to tracectl, on standard\n"
"                     error, as `# echo 'LINE' > DIR/tracectl'\n"
"  -h, --help         this text\n"
"A session uses the server that serves the device, or starts one of its\n"
"own (without /dev links) and stops it at the end.  It writes `start' if\n"
"the device was stopped, runs prog, reads the records while prog runs,\n"
"writes `stop' if it wrote `start', removes the traces it made (runN: the\n"
"first N free), and prints the call flow: scripts/name SYMS RECORDS |\n"
"scripts/flow, program output first.  Other traces, watches, predicates\n"
"and the device's start or stop are left as they were; records that\n"
"other traces queue are read with prog's, as cat trace reads them.\n"
"Exit status: prog's (128+N if signal N ended it); 127 if prog is not\n"
"found; 1 for a refused option or command, or a GLOB no function of\n"
"the device's symbol file matched after prog ran; 2 for bad usage.\n",
		Nglob);
}

static void
onsig(int sig)
{
	/* the terminal's ^C reaches prog itself; what is sent to us alone is passed on */
	if (child > 0 && sig != SIGINT && sig != SIGQUIT)
		kill(child, sig);
}

/* a server runs but its header does not check: nothing can attach */
static int
damaged(const char *dir)
{
	Shm *s;

	if (shmattach(dir, &s, NULL) == NULL)
		return 1;
	shmunmap(s);
	return 0;
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
	if (preload(dir) < 0)
		return 1;
	/* two runs at once may race to start it: the loser finds the winner's */
	if (livepid(dir) == 0 && spawn(NULL, 0) != 0 && livepid(dir) == 0)
		return 1;
	if (damaged(dir))
		return untraced(dir, argv);
	execvp(argv[0], argv);
	fprintf(stderr, "devtrace: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

/* the device matches names as fnmatch does without escapes (dev/lib.c: globmatch) */
static char *
badglob(const char *g)
{
	const char *p;

	if (*g == 0)
		return "empty pattern";
	if (strlen(g) >= Globlen)
		return "longer than 63 bytes";
	for (p = g; *p; p++) {
		if (*p == '[') {
			/* [ then ! then at least one member, then ]: what the device accepts */
			const char *q = p + 1;
			if (*q == '!')
				q++;
			if (*q == 0 || (q = strchr(q + 1, ']')) == NULL)
				return "[ without ]";
			p = q;
			continue;
		}
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$-*?", *p))
			return "a character no function name has";
	}
	return NULL;
}

/* the state now; a session cannot go on without it */
static char *
state(Run *r)
{
	char *st;

	if ((st = stateget(r->s, "devtrace run")) == NULL)
		exit(1);
	return st;
}

/* a shell word, for -v: the line inside single quotes */
static void
showline(Run *r, const char *line)
{
	const char *p;

	fputs("# echo '", stderr);
	for (p = line; *p; p++)
		if (*p == '\'')
			fputs("'\\''", stderr);
		else
			fputc(*p, stderr);
	fprintf(stderr, "' > %s/%d/ctl\n", r->dir, r->sess);
}

/* a predicate's error is three lines, the reason, the text and a caret: made one */
static void
oneline(char *err)
{
	char *text, *caret, *end;

	if ((text = strchr(err, '\n')) == NULL)
		return;
	*text++ = 0;
	if ((caret = strchr(text, '\n')) != NULL && (end = strchr(++caret, '^')) != NULL && caret[0] == ' ' && caret[1] == ' ')
		snprintf(err + strlen(err), Errmax - strlen(err), " at column %d", (int)(end - caret) - 1);
}

/* one line to tracectl, as echo would write it; 0, else the device's errno */
static int
ctl(Run *r, const char *line, int quiet)
{
	char buf[Linemax + 2];
	size_t n;
	int e;

	n = snprintf(buf, sizeof buf, "%s\n", line);
	if (n >= sizeof buf) {
		fprintf(stderr, "devtrace run: %s: line too long\n", line);
		return E2big;
	}
	if (r->show)
		showline(r, line);
	r->err[0] = 0;
	if ((e = shmctl(r->s, buf, n, getpid(), r->err, sizeof r->err)) != 0 && r->err[0] == 0)
		snprintf(r->err, sizeof r->err, "%s", strerror(e));
	if (e != 0)
		oneline(r->err);
	if (e != 0 && !quiet)
		fprintf(stderr, "devtrace run: %s\n", r->err);
	return e;
}

/* the traces of -t, with -p; on a refusal the ones made are removed by the caller */
static int
mktraces(Run *r)
{
	char line[Linemax + 1], *st;
	Statetrace t;
	int i, k = 1;

	for (i = 0; i < r->nglob; i++) {
		st = state(r);
		/* the device refuses a second trace of one pattern; say which one has it */
		if (statetrace(st, r->glob[i], NULL, &t)) {
			fprintf(stderr, "devtrace run: -t '%s': the session has a trace of that pattern already: %.*s\n",
				r->glob[i], t.len, t.line);
			return -1;
		}
		/* the first free runN; a run at the same moment may take it: then the next */
		for (;; k++) {
			snprintf(r->name[i], Namelen, "run%d", k);
			if (statetrace(st, NULL, r->name[i], &t))
				continue;
			snprintf(line, sizeof line, "trace %s new %s", r->glob[i], r->name[i]);
			if (ctl(r, line, 1) == 0)
				break;
			st = state(r);
			if (!statetrace(st, NULL, r->name[i], &t)) {
				fprintf(stderr, "devtrace run: %s\n", r->err);
				return -1;
			}
		}
		k++;
		r->nmade = i + 1;
		if (r->pred) {
			snprintf(line, sizeof line, "trace %s pred /%s/", r->name[i], r->pred);
			if (strlen(r->pred) + 32 > Linemax) {
				fprintf(stderr, "devtrace run: -p: predicate too long\n");
				return -1;
			}
			if (ctl(r, line, 1) != 0) {
				fprintf(stderr, "devtrace run: -p '%s': %s\n", r->pred,
					strncmp(r->err, "trace: ", 7) == 0 ? r->err + 7 : r->err);
				return -1;
			}
		}
		snprintf(line, sizeof line, "trace %s on", r->name[i]);
		if (ctl(r, line, 0) != 0)
			return -1;
	}
	return 0;
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
		if (want == 0 || (n = shmread(r->s, rd, buf, want)) == 0)
			return got;
		if (writeall(fd, buf, n) < 0)
			return -1;
		got += n;
	}
}

/* prog, attached; the records read into fd while it runs; its status as an exit status */
static int
runprog(Run *r, Reader *rd, int fd, char **argv)
{
	struct timespec ts = { 0, Pollms * 1000000L };
	struct sigaction sa;
	int st, rc;
	pid_t pid;

	char line[32];
	int gate;

	if ((pid = startprog(argv, "devtrace run", &gate)) < 0)
		return 1;
	/* the session records prog alone, from its first call: it execs once watched and started */
	snprintf(line, sizeof line, "watch %d", (int)pid);
	if (ctl(r, line, 0) != 0 || ctl(r, "start", 0) != 0) {
		kill(pid, SIGKILL);
		close(gate);
		waitpid(pid, &st, 0);
		return 1;
	}
	r->started = 1;
	close(gate);
	child = pid;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onsig;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (;;) {
		/* on a write error go on: prog still runs, the clean-up still follows */
		if (drain(r, rd, fd, ~0ULL) < 0 && !r->werr++)
			fprintf(stderr, "devtrace run: writing the records: %s\n", strerror(errno));
		if ((rc = waitpid(pid, &st, WNOHANG)) == pid)
			break;
		if (rc < 0 && errno != EINTR) {
			perror("devtrace run: waitpid");
			return 1;
		}
		nanosleep(&ts, NULL);
	}
	child = 0;
	return exitstatus(st);
}

/* stop, remove, then read what is queued (bounded: others' traces may still write) */
static int
undo(Run *r, Reader *rd, int fd)
{
	char line[64];
	int i, rc = 0;

	if (r->started && ctl(r, "stop", 0) != 0)
		rc = 1;
	for (i = r->nmade - 1; i >= 0; i--) {
		snprintf(line, sizeof line, "trace %s remove", r->name[i]);
		if (ctl(r, line, 0) != 0)
			rc = 1;
	}
	/* what is queued now, and the rest of a record a read split */
	if (fd >= 0 && drain(r, rd, fd, statecounter(state(r), "queued") * Reclen + (rd->len - rd->off)) < 0 && !r->werr++)
		fprintf(stderr, "devtrace run: writing the records: %s\n", strerror(errno));
	if (r->werr)
		rc = 1;
	shmreader(r->s, getpid(), 0);
	return rc;
}

/* a GLOB that named no function of the symbols appended since off */
static int
nomatch(Run *r, const char *syms, off_t off)
{
	char line[8192], name[4096];
	int i, rc = 0, *hit;
	FILE *f;

	if (r->nglob == 0)
		return 0;
	if ((f = fopen(syms, "r")) == NULL || fseeko(f, 0, SEEK_END) != 0 || ftello(f) <= off) {
		fprintf(stderr, "devtrace run: the program wrote no symbols: was it built with devtrace-cc?\n");
		if (f)
			fclose(f);
		return 1;
	}
	if ((hit = calloc(r->nglob, sizeof *hit)) == NULL) {
		fclose(f);
		return 0;
	}
	fseeko(f, off, SEEK_SET);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%*s %4095s", name) == 1)
			for (i = 0; i < r->nglob; i++)
				hit[i] |= fnmatch(r->glob[i], name, FNM_NOESCAPE) == 0;
	fclose(f);
	for (i = 0; i < r->nglob; i++)
		if (!hit[i]) {
			fprintf(stderr, "devtrace run: -t '%s': no function of the program matched\n", r->glob[i]);
			rc = 1;
		}
	free(hit);
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
showflow(const char *syms, const char *records, const char *sigs, unsigned long long hz)
{
	char want[PATH_MAX], name[PATH_MAX], flow[PATH_MAX], hzarg[32] = "";
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
	fflush(NULL);
	if ((pid = fork()) < 0)
		return 1;
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "\"$0\" \"$1\" \"$2\" | \"$3\" -a \"$5\" ${4:+-v \"$4\"}", name, syms, records, flow, hzarg, sigs, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return !WIFEXITED(st) || WEXITSTATUS(st) != 0;
}

/* run's session ended; the server run started stopped as devtrace stop does */
static void
stopown(Run *r)
{
	int pid;

	if (r->s)
		shmsessclose(r->top, r->sess);
	if (r->own && (pid = livepid(r->dir)) != 0)
		stopserver(pid);
}

static int
session(Run *r, char **argv)
{
	char syms[PATH_MAX], tmp[PATH_MAX], sigs[PATH_MAX + 8], *st;
	unsigned long long lost;
	struct stat sb;
	off_t symoff;
	Reader rd;
	int fd, rc, bad, i;

	for (i = 0; i < r->nglob; i++) {
		char *why = badglob(r->glob[i]);
		if (why) {
			fprintf(stderr, "devtrace run: -t '%s': bad pattern: %s\n", r->glob[i], why);
			return 1;
		}
	}
	if (r->pred && r->nglob == 0) {
		fprintf(stderr, "devtrace run: -p needs a -t to attach it to\n");
		return 2;
	}
	if (!findprog(argv[0], tmp, sizeof tmp)) {
		fprintf(stderr, "devtrace run: %s: program not found\n", argv[0]);
		return 127;
	}
	/* -p names the program's arguments before it has attached */
	argnamesdir(r->dir);
	argnamesobj(tmp);
	if (preload(r->dir) < 0)
		return 1;
	if (r->out) {
		/* close-on-exec: neither prog nor the server inherits it */
		if ((fd = open(r->out, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666)) < 0) {
			fprintf(stderr, "devtrace run: %s: %s\n", r->out, strerror(errno));
			return 1;
		}
	} else {
		snprintf(tmp, sizeof tmp, "%s/devtrace-run.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
			fprintf(stderr, "devtrace run: %s: %s\n", tmp, strerror(errno));
			return 1;
		}
	}
	if (livepid(r->dir) == 0) {
		/* two runs at once may race to start it: the loser finds the winner's */
		r->own = spawn((char *[]){ "-n" }, 1) == 0;
		if (!r->own && livepid(r->dir) == 0)
			goto out;
	}
	if (shmattach(r->dir, &r->top, NULL) == NULL) {
		if (livepid(r->dir) > 0) {
			close(fd);
			if (!r->out)
				unlink(tmp);
			return untraced(r->dir, argv);
		}
		fprintf(stderr, "devtrace run: no devtraced serves %s\n", r->dir);
		goto out;
	}
	/* a session of its own: other users' traces neither see its records nor lose theirs to it */
	if ((r->sess = shmclone(r->top, getuid(), getpid(), r->err, sizeof r->err)) < 0) {
		fprintf(stderr, "devtrace run: %s\n", r->err);
		goto out;
	}
	if ((r->s = shmsess(r->top, r->sess)) == NULL) {
		fprintf(stderr, "devtrace run: session %d: %s\n", r->sess, strerror(errno));
		goto out;
	}
	if (shmpath(r->dir, ".syms", syms, sizeof syms) < 0)
		syms[0] = 0;
	symoff = stat(syms, &sb) == 0 ? sb.st_size : 0;
	if (shmreader(r->s, getpid(), 1) != 0) {
		fprintf(stderr, "devtrace run: %s\n", deverr(shmdev(r->s)));
		goto out;
	}
	memset(&rd, 0, sizeof rd);
	st = state(r);
	lost = statecounter(st, "lost");
	if (mktraces(r) < 0)
		goto undo;
	rc = runprog(r, &rd, fd, argv);
	bad = undo(r, &rd, fd);
	if ((lost = statecounter(state(r), "lost") - lost) > 0)
		fprintf(stderr, "devtrace run: %llu records lost while the program ran (the device's #lost)\n", lost);
	if (close(fd) < 0) {
		fprintf(stderr, "devtrace run: %s: %s\n", r->out ? r->out : tmp, strerror(errno));
		bad = 1;
	}
	fd = -1;
	if (r->out) {
		snprintf(tmp, sizeof tmp, "%s.syms", r->out);
		if (copyfile(syms, tmp) < 0) {
			fprintf(stderr, "devtrace run: %s: %s\n", tmp, strerror(errno));
			bad = 1;
		}
		snprintf(tmp, sizeof tmp, "%s.sigs", r->out);
		bad |= sigsto(syms, symoff, tmp);
	} else {
		snprintf(sigs, sizeof sigs, "%s.sigs", tmp);
		bad |= sigsto(syms, symoff, sigs);
		bad |= showflow(syms, tmp, sigs, statecounter(state(r), "hz"));
		unlink(sigs);
		unlink(tmp);
	}
	bad |= nomatch(r, syms, symoff);
	if (rc == 0 && bad)
		rc = 1;
	stopown(r);
	return rc;
undo:
	undo(r, &rd, -1);
out:
	if (fd >= 0)
		close(fd);
	if (!r->out)
		unlink(tmp);
	stopown(r);
	return 1;
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
		{ NULL, 0, NULL, 0 },
	};
	static Run run;
	Run *r = &run;
	int ch, opts = 0;

	(void)c;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+ht:p:o:v", lo, NULL)) != -1) {
		opts = 1;
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 't':
			if (r->nglob == Nglob) {
				fprintf(stderr, "devtrace run: more than %d -t\n", Nglob);
				return 2;
			}
			r->glob[r->nglob++] = optarg;
			break;
		case 'p':
			r->pred = optarg;
			break;
		case 'o':
			r->out = optarg;
			break;
		case 'v':
			r->show = 1;
			break;
		default:
			if (optopt && strchr("tpo", optopt))
				fprintf(stderr, "devtrace run: -%c needs an argument\n", optopt);
			else if (optopt)
				fprintf(stderr, "devtrace run: unknown option -%c\n", optopt);
			else
				fprintf(stderr, "devtrace run: unknown option %s\n", argv[optind - 1]);
			fprintf(stderr, "%s", Usage);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "devtrace run: no program to run\n");
		fprintf(stderr, "%s", Usage);
		return 2;
	}
	r->dir = clientdir();
	if (!opts)
		return plainrun(r->dir, argv + optind);
	return session(r, argv + optind);
}
