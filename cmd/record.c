/*
 * record.c: devtrace record and devtrace cat FILE, trace-cmd's record
 * and report for the device.  record saves the records as the slots
 * hold them (dev/ring.c: devreadraw), straight from the shared memory
 * and unformatted, so a capture keeps up with the writers; cat FILE
 * turns them into the 121-byte lines later with the device's own
 * formatter (devfmt), so they are the bytes reading trace would have
 * given.
 *
 * The file: a header, then the records, each a Rec as the device
 * defines it (native byte order: the device is amd64's).
 *	0	8	magic "devtrace"
 *	8	4	version (1)
 *	12	4	record size (sizeof(Rec), 56)
 *	16	8	#hz, the cycle counter's rate
 *	24	8	0, reserved
 * The symbol file is copied beside it, FILE.syms, as devtrace run -o does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "host/shm.h"
#include "cmd/cmd.h"

enum {
	Version = 1,
	Nrec = 16384,		/* records a read takes under the lock: about 0.2 ms of it */
	Idleus = 1000,		/* nothing queued: look again this often (a full ring of 2^20 takes ~50 ms to fill) */
	Waitus = 100,		/* a record is being written: look again sooner */
	Drainidle = 10000,	/* the last records: given up after this many Waitus naps with none (a lock held for ever) */
};

static const char Magic[8] = "devtrace";

typedef struct Filehdr Filehdr;
struct Filehdr {
	char magic[8];
	uint32_t version;
	uint32_t recsize;
	uint64_t hz;
	uint64_t reserved;
};

#define Usage "usage: devtrace record -o FILE [--] [prog [arg ...]]\n"

static volatile sig_atomic_t stopping;
static volatile sig_atomic_t child;

static void
usage(FILE *f)
{
	fprintf(f, Usage
"Save the records the device queues into FILE, in its binary form, straight\n"
"from the shared memory, as fast as they are written, until SIGINT or\n"
"SIGTERM; with prog, run prog attached to the device (as devtrace run does)\n"
"and stop when it exits.  Then save what is still queued, copy the symbol\n"
"file to FILE.syms (when FILE is a regular file), and tell on standard error\n"
"how many records were saved and how many the device counted lost meanwhile.\n"
"devtrace cat FILE prints the records as the 121-byte lines reading trace\n"
"would have given.\n"
"  -o, --output FILE  where the records go (needed)\n"
"  -h, --help         this text\n"
"It reads the device a server serves; its traces are the device's as they\n"
"are set up (devtrace ctl).  Exit status: prog's (128+N if signal N ended it);\n"
"127 if prog is not found; 1 if no server serves the device or FILE could\n"
"not be written; 2 for bad usage.\n");
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

static void
nap(long us)
{
	struct timespec ts = { 0, us * 1000L };

	nanosleep(&ts, NULL);
}

/* the counters of the state text now */
static int
counters(Shm *s, char *st, unsigned long long *read, unsigned long long *lost, unsigned long long *queued)
{
	size_t n;

	if ((n = shmstate(s, st, Statemax)) == 0) {
		fprintf(stderr, "devtrace record: %s\n", shmbusy(errno));
		return -1;
	}
	st[n] = 0;
	*read = counter(st, "read");
	*lost = counter(st, "lost");
	if (queued)
		*queued = counter(st, "queued");
	return 0;
}

/* up to max records to fd; how many, or -1 (an error, told); *wait: one is being written, or the lock was busy */
static long long
save(Shm *s, Reader *rd, int fd, const char *out, unsigned long long max, int *wait)
{
	static Rec buf[Nrec];
	ssize_t n;

	n = shmtakeraw(s, rd, buf, max < Nrec ? max : Nrec);
	if (n < 0 && errno == EAGAIN) {	/* the lock held by another a while: no records this time */
		*wait = 1;
		return 0;
	}
	if (n < 0) {	/* a damaged lock stays damaged */
		fprintf(stderr, "devtrace record: %s\n", shmbusy(errno));
		return -1;
	}
	*wait = rd->wait;
	if (n > 0 && writeall(fd, (char *)buf, n * sizeof buf[0]) < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", out, strerror(errno));
		return -1;
	}
	return n;
}

/* before anything is made: prog must be there, and the runtime to attach it (as devtrace run) */
static int
prepare(const char *prog)
{
	if (!findprog(prog)) {
		fprintf(stderr, "devtrace record: %s: program not found\n", prog);
		return 127;
	}
	return preload(absdir(devdir())) < 0;
}

/* prog, attached, as devtrace run runs it: its pid, or -1 */
static pid_t
startprog(char **argv)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) < 0) {
		perror("devtrace record: fork");
		return -1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "devtrace record: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* the capture: until stopped or prog's exit, then what was queued then; records saved, or -1 */
static long long
capture(Shm *s, int fd, const char *out, pid_t pid, int *rc, char *st)
{
	unsigned long long r0, l0, queued, saved = 0, tail = 0;
	long long n;
	Reader rd;
	int wait, ws = 0, idle = 0;

	memset(&rd, 0, sizeof rd);
	/* the end is looked for after every read: other processes may keep the ring from emptying */
	for (;;) {
		if ((n = save(s, &rd, fd, out, ~0ULL, &wait)) < 0)
			break;
		saved += n;
		if (pid > 0 && waitpid(pid, &ws, WNOHANG) == pid) {
			*rc = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
			pid = 0;
			child = 0;
			break;
		}
		if (pid <= 0 && stopping)
			break;
		if (n == 0)
			nap(wait ? Waitus : Idleus);
	}
	if (n >= 0 && counters(s, st, &r0, &l0, &queued) == 0)
		/* what is queued now, bounded: other processes may still be writing */
		while (tail < queued && (n = save(s, &rd, fd, out, queued - tail, &wait)) >= 0) {
			if (n == 0 && (!wait || ++idle > Drainidle))
				break;
			if (n == 0)
				nap(Waitus);
			else
				idle = 0;
			tail += n;
		}
	if (pid > 0) {	/* a write error: prog still runs; wait for it all the same */
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
		*rc = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
		child = 0;
	}
	return n < 0 ? -1 : (long long)(saved + tail);
}

int
xrecord(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long read0, lost0, read1, lost1;
	char *out = NULL, *st, syms[4096], path[4096];
	Filehdr h;
	long long saved;
	int ch, fd, rc = 0, bad = 0, regular;
	struct stat sb;
	pid_t pid = 0;
	Shm *s;

	(void)c;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+ho:", lo, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 'o':
			out = optarg;
			break;
		default:
			if (optopt == 'o')
				fprintf(stderr, "devtrace record: -o needs an argument\n");
			else if (optopt)
				fprintf(stderr, "devtrace record: unknown option -%c\n", optopt);
			else
				fprintf(stderr, "devtrace record: unknown option %s\n", argv[optind - 1]);
			fprintf(stderr, "%s", Usage);
			return 2;
		}
	if (out == NULL) {
		fprintf(stderr, "devtrace record: no -o FILE to save the records in\n%s", Usage);
		return 2;
	}
	if (optind < argc && (rc = prepare(argv[optind])) != 0)
		return rc;
	s = attach();
	if ((st = malloc(Statemax + 1)) == NULL) {
		fprintf(stderr, "devtrace record: out of memory\n");
		shmunmap(s);
		return 1;
	}
	memset(&h, 0, sizeof h);
	memcpy(h.magic, Magic, sizeof h.magic);
	h.version = Version;
	h.recsize = sizeof(Rec);
	fd = -1;
	rc = 1;
	if (counters(s, st, &read0, &lost0, NULL) < 0)
		goto out;
	h.hz = counter(st, "hz");
	/* close-on-exec: neither prog nor anything it starts inherits it */
	if ((fd = open(out, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666)) < 0 || writeall(fd, (char *)&h, sizeof h) < 0) {
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
	if (optind < argc && (pid = startprog(argv + optind)) < 0) {
		shmreader(s, getpid(), 0);
		goto out;
	}
	rc = 0;
	child = pid;
	saved = capture(s, fd, out, pid, &rc, st);
	shmreader(s, getpid(), 0);
	if (close(fd) < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", out, strerror(errno));
		bad = 1;
	}
	fd = -1;
	if (saved < 0)
		bad = 1;
	/* the symbols beside a file, not beside /dev/null or a pipe */
	snprintf(path, sizeof path, "%s.syms", out);
	if (regular && (shmpath(absdir(devdir()), ".syms", syms, sizeof syms) < 0 || copyfile(syms, path) < 0)) {
		fprintf(stderr, "devtrace record: %s: %s\n", path, strerror(errno));
		bad = 1;
	}
	if (saved >= 0 && counters(s, st, &read1, &lost1, NULL) == 0)
		fprintf(stderr, "devtrace record: %lld records saved, %llu lost\n", saved, lost1 - lost0);
	else if (saved >= 0) {	/* the lock was not had: the losses are not known */
		fprintf(stderr, "devtrace record: %lld records saved\n", saved);
		bad = 1;
	}
	if (rc == 0 && bad)
		rc = 1;
out:
	if (fd >= 0)
		close(fd);
	shmunmap(s);
	free(st);
	return rc;
}

/* devtrace cat FILE: the saved records as trace's lines */
int
catfile(Cmd *c, const char *path)
{
	static Rec rec[Nrec];
	static char buf[Nrec * Reclen];
	size_t n, i, got, part;
	Filehdr h;
	FILE *f;
	int rc = 0;

	(void)c;
	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "devtrace cat: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if ((n = fread(&h, 1, sizeof h, f)) != sizeof h || memcmp(h.magic, Magic, sizeof h.magic) != 0) {
		fprintf(stderr, "devtrace cat: %s: %s\n", path, ferror(f) ? strerror(errno) :
			"not a file of devtrace record (no devtrace header)");
		fclose(f);
		return 1;
	}
	if (h.version != Version || h.recsize != sizeof(Rec)) {
		fprintf(stderr, "devtrace cat: %s: version %u with records of %u bytes: this devtrace reads version %d, %zu bytes\n",
			path, h.version, h.recsize, Version, sizeof(Rec));
		fclose(f);
		return 1;
	}
	for (part = 0;;) {
		got = fread((char *)rec + part, 1, sizeof rec - part, f);
		if (got == 0)
			break;
		got += part;
		n = got / sizeof rec[0];
		for (i = 0; i < n; i++)
			devfmt(buf + i * Reclen, &rec[i]);
		if (writeall(1, buf, n * Reclen) < 0) {
			fclose(f);
			return 1;
		}
		part = got - n * sizeof rec[0];
		memmove(rec, (char *)rec + n * sizeof rec[0], part);
	}
	if (ferror(f)) {
		fprintf(stderr, "devtrace cat: %s: %s\n", path, strerror(errno));
		rc = 1;
	} else if (part > 0) {
		fprintf(stderr, "devtrace cat: %s: truncated: its last record has %zu of its %zu bytes\n",
			path, part, sizeof(Rec));
		rc = 1;
	}
	fclose(f);
	return rc;
}
