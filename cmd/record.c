/*
 * record.c: devtrace record, trace-cmd's record for the device: the
 * records saved as the slots hold them, straight from the shared memory
 * and unformatted, into a capture file (capfile.h), so a capture keeps
 * up with the writers; devtrace cat FILE (cat.c) prints them.  record
 * does not merge: its readers (recread.c, -j) copy each source's queued
 * records in bulk, side by side, a chunk a source a pass.  Its header says what the recording is
 * (the command, pid, host, kernel, #hz and #clock), its trailer how it
 * ended (the end's clock, the losses, the objects); FILE.syms and
 * FILE.sigs beside it are the symbols and signatures of the objects the
 * records' pcs fall in (recsyms.c), as devtrace run -o writes them, so
 * the file is read with no device at hand.  With -t the records are those of
 * a session of record's own (ownsess.c) watching the program it starts.
 * Lossless by default: policy block while it reads, in its session or
 * at the top level (toppolicy.c, the policy before put back at the end),
 * so a writer waits for record rather than lose a record; -P says
 * otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/capfile.h"
#include "cmd/recread.h"

/*
 * Readers by default: one a CPU online, at most Defjobs, as trace-cmd's
 * (bench/RESULTS: on 2 CPUs, interleaved, two readers took 0.89-1.03x
 * one's time at 2 to 64 threads; an idle reader naps).
 */
enum { Defjobs = 16 };

#define Usage "usage: devtrace record [-t GLOB ...] [-p EXPR] [-P POLICY] [-j N] -o FILE [--] [prog [arg ...]]\n"


static volatile sig_atomic_t stopping;
static volatile sig_atomic_t child;

static void
usage(FILE *f)
{
	fprintf(f, Usage
"Save the records the device queues into FILE, in its binary form, straight\n"
"from the shared memory, as fast as they are written, until SIGINT or\n"
"SIGTERM; with prog, run prog attached to the device (as devtrace run does)\n"
"and stop when it exits.  Then save what is still queued, and tell on\n"
"standard error how many records were saved and how many the device\n"
"counted lost (#lost and #dropped) meanwhile.  FILE says what it is\n"
"(devtrace info FILE); beside it (when FILE is a regular file) FILE.syms\n"
"and FILE.sigs hold the symbols and signatures of the objects the records\n"
"fall in, so devtrace cat FILE | scripts/name FILE.syms | scripts/flow\n"
"needs no device: cat prints #hz and #clock, then the records as the\n"
"121-byte lines reading trace would have given.\n"
"  -o, --output FILE  where the records go (needed)\n"
"  -t, --trace GLOB   a session of record's own, its trace of the functions\n"
"                     whose names match GLOB (as devtrace run -t; repeatable,\n"
"                     up to %d), watching prog alone (needed): the top\n"
"                     level's traces and records are not touched\n"
"  -p, --pred EXPR    with -t: keep only the hits for which EXPR is true\n"
"  -P, --policy POLICY  the policy while record reads, as `policy' takes it\n"
"                     (ring, fill, block [MS]); default block %d: nothing is\n"
"                     lost unless record stops reading for %d ms\n"
"  -j, --jobs N       readers: threads that copy the writers' rings side by\n"
"                     side, each its share of them (1 to %d; default one\n"
"                     a CPU online, at most %d)\n"
"  -h, --help         this text\n"
"Without -t it reads the device's top level as a server serves it; its\n"
"traces are the device's as they are set up (devtrace ctl); its policy is\n"
"put back at the end, unless changed meanwhile.  With -t it\n"
"starts a server if none runs, and stops it at the end.  Exit status:\n"
"prog's (128+N if signal N ended it); 127 if prog is not found; 1 if no\n"
"server serves the device, an option is refused, FILE could not be\n"
"written, or (prog exiting 0) nothing was recorded because the device\n"
"was stopped; 2 for bad usage.\n", Nglob, Blockms, Blockms, Njmax, Defjobs);
}

static void
onsig(int sig)
{
	/* with prog, the terminal's ^C reaches prog itself: prog's exit ends the capture */
	if (child > 0) {
		if (sig != SIGINT)
			kill(child, sig);
		return;
	}
	stopping = 1;
}

/* the counters of the state text now: records lost are the ring's #lost and the full ring's #dropped */
static int
counters(Shm *s, unsigned long long *lost, unsigned long long *queued)
{
	char *st;

	if ((st = stateget(s, "devtrace record")) == NULL)
		return -1;
	*lost = lostcount(st);
	*queued = statecounter(st, "queued");
	return 0;
}

/* a word as a shell reads it: quoted where needed; a control character shows as ? (the text is lines) */
static void
quote(FILE *f, const char *a)
{
	if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-") == strlen(a)) {
		fputs(a, f);
		return;
	}
	fputc('\'', f);
	for (; *a; a++)
		if (*a == '\'')
			fputs("'\\''", f);
		else
			fputc((unsigned char)*a < ' ' || *a == 0x7f ? '?' : *a, f);
	fputc('\'', f);
}

/* the state's "#clock TICKS NS": 1 if it has one */
static int
clockof(const char *st, unsigned long long *ticks, unsigned long long *ns)
{
	const char *l = strstr(st, "\n#clock ");

	return l != NULL && sscanf(l, "\n#clock %llu %llu", ticks, ns) == 2;
}

/* the header's text (capfile.h's keys): what the recording is; malloc'd, nil if no memory */
static char *
hdrtext(Ownsess *o, char **argv, pid_t pid, const char *clock)
{
	struct utsname u;
	char *text = NULL;
	size_t len;
	FILE *f;
	int i;

	if ((f = open_memstream(&text, &len)) == NULL)
		return NULL;
	fputs(clock, f);
	if (argv[0] != NULL) {
		fprintf(f, "pid %d\ncommand", (int)pid);
		for (i = 0; argv[i]; i++) {
			fputc(' ', f);
			quote(f, argv[i]);
		}
		fputc('\n', f);
	}
	if (o->nglob > 0) {	/* globs hold no space (badglob) */
		fputs("trace", f);
		for (i = 0; i < o->nglob; i++)
			fprintf(f, " %s", o->glob[i]);
		fputc('\n', f);
	}
	if (uname(&u) == 0)
		fprintf(f, "host %s\nkernel %s %s %s\n", u.nodename, u.sysname, u.release, u.machine);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* a text block (the header, the trailer) to the file: 0, or -1 (told) */
static int
writeblock(int fd, const char *out, char *b, size_t len)
{
	int rc = 0;

	if (b == NULL) {
		fprintf(stderr, "devtrace record: out of memory\n");
		return -1;
	}
	if (writeall(fd, b, len) < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", out, strerror(errno));
		rc = -1;
	}
	free(b);
	return rc;
}

/* the trailer: the end's clock and the losses, when the state was had (st), and the objects */
static int
writetrailer(int fd, const char *out, const char *st, unsigned long long lost, Recreader *rr, pid_t pid)
{
	unsigned long long ticks, ns;
	char *text = NULL, *b;
	size_t len, i;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		return writeblock(fd, out, NULL, 0);
	if (st != NULL && clockof(st, &ticks, &ns))
		fprintf(f, "end %llu %llu\n", ticks, ns);
	if (st != NULL)
		fprintf(f, "lost %llu\n", lost);
	for (i = 0; i < rr->pcs.nobj; i++)
		fprintf(f, "object %s\n", rr->pcs.obj[i]);
	recpidsout(&rr->pids, f, (uint32_t)pid);
	if (fclose(f) != 0) {
		free(text);
		return writeblock(fd, out, NULL, 0);
	}
	b = captrailer(text, &len);
	free(text);
	return writeblock(fd, out, b, len);
}

/* before anything is made: prog must be there, and the runtime to attach it (as devtrace run) */
static int
prepare(const char *prog)
{
	char path[PATH_MAX];

	if (!findprog(prog, path, sizeof path)) {
		fprintf(stderr, "devtrace record: %s: %s\n", prog, noprog());
		return 127;
	}
	return preload(clientdir()) < 0;
}

/* prog's end, looked for (hang 0) or waited for: 1 once it ended, its exit status in *rc */
static int
ended(Ownsess *o, pid_t pid, int hang, int *rc)
{
	int ws, st;

	if (o->nglob > 0) {	/* the session's program: ownwait reaps it */
		if ((st = ownwait(o, hang)) < 0)
			return 0;
		*rc = st;
		return 1;
	}
	while ((st = waitpid(pid, &ws, hang ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (st != pid)
		return 0;
	*rc = exitstatus(ws);
	child = 0;
	return 1;
}

/*
 * The capture: the readers read until stopped or prog's exit (looked
 * for every Pollms), then reader 0 saves what was queued then; records
 * saved, or -1.
 */
enum { Pollms = 1 };

static long long
capture(Ownsess *o, Shm *s, Recreader *rr, uint32_t nj, pid_t pid, int *rc)
{
	unsigned long long lost, queued;
	long long saved, tail = 0;
	int ending = 0;

	if (recstart(rr, nj, &ending) < 0) {
		if (pid > 0)
			ended(o, pid, 1, rc);
		return -1;
	}
	/* other processes may keep the rings from emptying: the end is prog's or a signal's */
	for (;;) {
		if (pid > 0 && ended(o, pid, 0, rc)) {
			pid = 0;
			break;
		}
		if ((pid <= 0 && stopping) || recfailed(rr, nj))
			break;
		poll(NULL, 0, Pollms);
	}
	__atomic_store_n(&ending, 1, __ATOMIC_RELEASE);
	saved = recjoin(rr, nj);
	/* what is queued now, bounded: other processes may still be writing */
	if (saved >= 0 && counters(s, &lost, &queued) == 0)
		tail = recdrain(rr, queued);
	if (pid > 0)	/* a write error: prog still runs; wait for it all the same */
		ended(o, pid, 1, rc);
	return saved < 0 || tail < 0 ? -1 : saved + tail;
}

/*
 * Nothing recorded from a stopped device (without -t: with it the
 * session is started) is a mistake worth an exit status of 1: 1 (told).
 */
static int
stopped(Ownsess *o, const char *st, long long saved)
{
	if (o->nglob > 0 || saved != 0 || st == NULL || !statehas(st, "stop"))
		return 0;
	fprintf(stderr, "devtrace record: the device is stopped: nothing was recorded; "
		"devtrace ctl start (with a trace on), or devtrace record -t GLOB -o FILE -- prog\n");
	return 1;
}

/* the device's top level (attach), or with -t a session of record's own; nil with the exit status in *rc */
static Shm *
source(Ownsess *o, char **argv, int *rc)
{
	if (o->nglob == 0) {
		if (argv[0] && (*rc = prepare(argv[0])) != 0)
			return NULL;
		return attach();
	}
	if (argv[0] == NULL) {
		fprintf(stderr, "devtrace record: -t needs a program to watch: -- prog\n%s", Usage);
		*rc = 2;
		return NULL;
	}
	if ((*rc = ownopen(o, argv[0])) == Owndamaged) {
		fprintf(stderr, "devtrace record: the device of %s looks damaged (bad header)\n", o->dir);
		*rc = 1;
	}
	if (*rc != 0) {
		ownclose(o);
		return NULL;
	}
	return o->s;
}

/* prog: with -t the session's traces made and prog gated and watched; else attached, as devtrace run starts it */
static pid_t
launch(Ownsess *o, char **argv)
{
	if (o->nglob == 0)
		return startprog(argv, "devtrace record", NULL);
	if (owntraces(o) < 0)
		return -1;
	return ownstart(o, argv);
}

static uint32_t
defjobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > Defjobs ? Defjobs : (uint32_t)n;
}

int
xrecord(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "trace", required_argument, NULL, 't' },
		{ "pred", required_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, 'P' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	static Ownsess own = { .who = "devtrace record" };
	unsigned long long lost0, lost = 0, hz, ticks = 0, ns = 0;
	char *out = NULL, *st, *text, *hdr, clock[64];
	Ownsess *o = &own;
	Toppolicy top = { "", "" };
	char *policy = NULL, *end;
	uint32_t nj = defjobs();
	Recreader *rr = NULL;
	Recout ro;
	long long saved;
	size_t len = 0;
	int ch, fd = -1, rc = 0, bad = 0, regular;
	struct stat sb;
	pid_t pid = 0;
	Shm *s;

	(void)c;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+ho:t:p:P:j:", lo, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 'o':
			out = optarg;
			break;
		case 't':
			if (ownglob(o, optarg) != 0)
				return 2;
			break;
		case 'p':
			o->pred = optarg;
			break;
		case 'P':
			policy = optarg;
			break;
		case 'j':
			errno = 0;
			nj = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || nj < 1 || nj > Njmax) {
				fprintf(stderr, "devtrace record: -j %s: readers from 1 to %d\n%s", optarg, Njmax, Usage);
				return 2;
			}
			break;
		default:
			return badopt("devtrace record", "otpPj", Usage, argv);
		}
	if (out == NULL) {
		fprintf(stderr, "devtrace record: no -o FILE to save the records in\n%s", Usage);
		return 2;
	}
	if ((rc = owncheck(o)) != 0)
		return rc;
	/* lossless unless asked otherwise */
	if (policy == NULL)
		policy = Lossless;
	if (o->nglob > 0)
		o->policy = policy;
	if ((s = source(o, argv + optind, &rc)) == NULL)
		return rc;
	rc = 1;
	if (o->nglob == 0 && toppolicyset(s, &top, policy, "devtrace record") != 0)
		goto out;
	if ((rr = recreaders(nj, s, &ro)) == NULL)
		goto out;
	if ((st = stateget(s, "devtrace record")) == NULL)
		goto out;
	lost0 = lostcount(st);
	hz = statecounter(st, "hz");
	clock[0] = 0;
	if (clockof(st, &ticks, &ns))
		snprintf(clock, sizeof clock, "clock %llu %llu\n", ticks, ns);
	/* close-on-exec: neither prog nor anything it starts inherits it */
	if ((fd = open(out, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666)) < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", out, strerror(errno));
		goto out;
	}
	regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
	/* a signal ends the loop, so the reader is always taken off the list */
	catchstop(onsig);
	if (shmreader(s, getpid(), 1) != 0) {
		fprintf(stderr, "devtrace record: %s\n", deverr(shmdev(s)));
		goto out;
	}
	if (optind < argc && (pid = launch(o, argv + optind)) < 0) {
		shmreader(s, getpid(), 0);
		goto out;
	}
	/* the header once prog runs, its pid known; nothing is read before it */
	text = hdrtext(o, argv + optind, pid, clock);
	hdr = text ? capheader(hz, text, &len) : NULL;
	free(text);
	if (writeblock(fd, out, hdr, len) < 0) {
		saved = -1;
		if (pid > 0)	/* prog runs all the same: its end is waited for */
			ended(o, pid, 1, &rc);
	} else {
		rc = 0;
		/* with -t ownstart passes signals on to prog, and ownwait reaps it */
		child = o->nglob > 0 ? 0 : pid;
		recoutopen(&ro, fd, out);
		saved = capture(o, s, rr, nj, pid, &rc);
		if (saved >= 0 && recoutend(&ro) < 0)
			saved = -1;
	}
	bad = toppolicyrestore(s, &top, "devtrace record");
	shmreader(s, getpid(), 0);
	if (saved < 0)
		bad = 1;
	/* the objects recorded; their symbols beside a file, not beside /dev/null or a pipe */
	if (o->nglob == 0 && shmpath(clientdir(), ".syms", o->syms, sizeof o->syms) < 0)
		o->syms[0] = 0;
	if (saved >= 0)
		bad |= recsymsto(&rr->pcs, o->syms, regular ? out : NULL, "devtrace record");
	if ((st = stateget(s, "devtrace record")) != NULL)
		lost = lostcount(st) - lost0;
	if (saved >= 0 && writetrailer(fd, out, st, lost, rr, pid) < 0)
		bad = 1;
	if (close(fd) < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", out, strerror(errno));
		bad = 1;
	}
	fd = -1;
	if (saved >= 0 && st != NULL)
		fprintf(stderr, "devtrace record: %lld records saved, %llu lost\n", saved, lost);
	else if (saved >= 0) {	/* the lock was not had: the losses are not known */
		fprintf(stderr, "devtrace record: %lld records saved\n", saved);
		bad = 1;
	}
	bad |= stopped(o, st, saved);
	bad |= ownnomatch(o);
	if (rc == 0 && bad)
		rc = 1;
out:
	if (fd >= 0)
		close(fd);
	recreadersfree(rr, nj);
	if (o->nglob == 0) {
		toppolicyrestore(s, &top, "devtrace record");	/* a failure after the change: none made is a no-op */
		shmunmap(s);
	}
	else if (ownstop(o) != 0 && rc == 0)
		rc = 1;
	ownclose(o);
	return rc;
}
