/*
 * record.c: devtrace record and devtrace cat FILE, trace-cmd's record
 * and report for the device.  record saves the records as the slots
 * hold them (dev/ring.c: devreadraw), straight from the shared memory
 * and unformatted, so a capture keeps up with the writers; cat FILE
 * turns them into the 121-byte lines later with the device's own
 * formatter (devfmt), so they are the bytes reading trace would have
 * given.
 *
 * record does not merge: each pass copies every source's queued records
 * in bulk (a writer's ring, or the shared ring) as a chunk of their own,
 * and cat merges the sources by time as it prints, as the device's
 * reader would have (trace-cmd's per-CPU files, merged by report).
 *
 * The file (native byte order: the device is amd64's): a header,
 *	0	8	magic "devtrace"
 *	8	4	version (2)
 *	12	4	record size (sizeof(Rec), 56)
 *	16	8	#hz, the cycle counter's rate
 *	24	8	0, reserved
 * then chunks, each
 *	0	4	source: a writer's ring 0, 1, ...; Shared (0xffffffff) the shared ring
 *	4	4	n, its records that follow
 *	8	56n	the records, each a Rec as the device defines it, in the source's order
 * A source's records are its chunks' in file order.  cat prints the
 * oldest next record of all sources (ticks), on a tie the shared ring's,
 * then the lower ring's: the order devread's merge gives.  Version 1
 * (the records merged, no chunks) is read too.
 * The symbol file is copied beside it, FILE.syms, as devtrace run -o does.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "host/shm.h"
#include "cmd/cmd.h"

enum {
	Version = 2,
	Shared = 0xffffffffu,	/* a chunk's source: the shared ring */
	Nrec = 16384,		/* cat: lines formatted per write */
	Nsrc = 8192,		/* records one source gives a pass at most (one lock hold, ~0.1 ms) */
	Bufrec = 4 * Nsrc,	/* the write buffer, 1.8 MiB, written out when it cannot take a full source: small enough to stay in the cache, reused */
	Nearidle = 256,		/* a pass that found fewer: nap, else look again at once */
	Busyus = 50,		/* records came: look again this soon (one thread fills 65536 in ~4 ms) */
	Idleus = 1000,		/* nothing queued for a while: naps double from Busyus up to this */
	Waitus = 100,		/* a record is being written: look again sooner */
	Drainidle = 10000,	/* the last records: given up after this many Waitus naps with none (a lock held for ever) */
};

typedef struct Chunkhdr Chunkhdr;
struct Chunkhdr {
	uint32_t src;
	uint32_t n;
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

/* the write buffer: chunks as a pass makes them */
static char *obuf;
static size_t opos;

static int
flush(int fd, const char *out)
{
	if (opos > 0 && writeall(fd, obuf, opos) < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", out, strerror(errno));
		return -1;
	}
	opos = 0;
	return 0;
}

/*
 * One pass over the sources, each's queued records as a chunk, up to
 * max in all: how many, or -1 (an error, told); *wait: one is being
 * written, or the lock was busy.
 */
static long long
save(Shm *s, Reader *rd, int fd, const char *out, unsigned long long max, int *wait)
{
	uint32_t nring = shmnring(s), i, src;
	unsigned long long done = 0;
	Chunkhdr *c;
	size_t want;
	ssize_t n;

	*wait = 0;
	for (i = 0; i <= nring && done < max; i++) {
		src = i == nring ? Shared : i;
		if (opos + sizeof *c + Nsrc * sizeof(Rec) > (size_t)Bufrec * sizeof(Rec) && flush(fd, out) < 0)
			return -1;
		want = max - done < Nsrc ? max - done : Nsrc;
		c = (Chunkhdr *)(obuf + opos);
		n = shmtakering(s, rd, i, (Rec *)(c + 1), want);
		if (n < 0 && errno == EAGAIN) {	/* the lock held by another a while: no records this time */
			*wait = 1;
			continue;
		}
		if (n < 0) {	/* a damaged lock stays damaged */
			fprintf(stderr, "devtrace record: %s\n", shmbusy(errno));
			return -1;
		}
		if (rd->wait)
			*wait = 1;
		if (n > 0) {
			c->src = src;
			c->n = n;
			opos += sizeof *c + n * sizeof(Rec);
			done += n;
		}
	}
	return done;
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
	long us = Busyus;

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
		/* adaptive: a busy writer is looked at again at once or soon, an idle device ever more rarely */
		if (n >= Nearidle)
			us = Busyus;
		else if (n > 0) {
			us = Busyus;
			nap(us);
		} else {
			if (opos > 0 && flush(fd, out) < 0) {
				n = -1;
				break;
			}
			nap(wait && Waitus < us ? Waitus : us);
			if (us < Idleus)
				us = us * 2 < Idleus ? us * 2 : Idleus;
		}
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
	if (n >= 0 && flush(fd, out) < 0)
		n = -1;
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
	if ((st = malloc(Statemax + 1)) == NULL || (obuf == NULL && (obuf = malloc((size_t)Bufrec * sizeof(Rec))) == NULL)) {
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

/* one source of a file: its chunks in file order, and where cat is in them */
typedef struct Src Src;
struct Src {
	uint32_t src;
	const Rec **rec;	/* each chunk's first record */
	uint32_t *n;		/* and its count */
	size_t nchunk, max;
	size_t c, i;		/* the next record: chunk c, its record i */
};

static int
addchunk(Src **srcs, size_t *nsrc, uint32_t src, const Rec *rec, uint32_t n)
{
	Src *v;
	size_t k;

	for (k = 0; k < *nsrc && (*srcs)[k].src != src; k++)
		;
	if (k == *nsrc) {
		if ((v = realloc(*srcs, (*nsrc + 1) * sizeof *v)) == NULL)
			return -1;
		*srcs = v;
		memset(&v[k], 0, sizeof v[k]);
		v[k].src = src;
		(*nsrc)++;
	}
	v = &(*srcs)[k];
	if (v->nchunk == v->max) {
		v->max = v->max ? 2 * v->max : 16;
		if ((v->rec = realloc(v->rec, v->max * sizeof v->rec[0])) == NULL ||
		    (v->n = realloc(v->n, v->max * sizeof v->n[0])) == NULL)
			return -1;
	}
	v->rec[v->nchunk] = rec;
	v->n[v->nchunk] = n;
	v->nchunk++;
	return 0;
}

/* the merge's order: the shared ring first, then the rings by number (Shared + 1 wraps to 0) */
static int
bysrc(const void *a, const void *b)
{
	uint32_t x = ((const Src *)a)->src + 1, y = ((const Src *)b)->src + 1;

	return x < y ? -1 : x > y;
}

/* the sources merged by time, as lines on standard output: 0, or -1 (a write error) */
static int
merge(Src *v, size_t nsrc)
{
	static char buf[Nrec * Reclen];
	const Rec *best, *r;
	size_t k, bk = 0, nl = 0;

	for (;;) {
		best = NULL;
		for (k = 0; k < nsrc; k++) {
			if (v[k].c == v[k].nchunk)
				continue;
			r = &v[k].rec[v[k].c][v[k].i];
			if (best == NULL || r->ticks < best->ticks) {
				best = r;
				bk = k;
			}
		}
		if (best == NULL)
			break;
		if (++v[bk].i == v[bk].n[v[bk].c]) {
			v[bk].c++;
			v[bk].i = 0;
		}
		devfmt(buf + nl++ * Reclen, best);
		if (nl == Nrec) {
			if (writeall(1, buf, nl * Reclen) < 0)
				return -1;
			nl = 0;
		}
	}
	return nl > 0 && writeall(1, buf, nl * Reclen) < 0 ? -1 : 0;
}

/* devtrace cat FILE: the saved records as trace's lines */
int
catfile(Cmd *c, const char *path)
{
	const char *p = NULL, *end, *why = NULL;
	const Chunkhdr *ch;
	Src *v = NULL;
	size_t nsrc = 0, k, have, len = 0;
	struct stat sb;
	Filehdr h;
	int fd, rc = 1;

	(void)c;
	if ((fd = open(path, O_RDONLY|O_CLOEXEC)) < 0 || fstat(fd, &sb) < 0) {
		fprintf(stderr, "devtrace cat: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	len = sb.st_size;
	if (len < sizeof h || pread(fd, &h, sizeof h, 0) != sizeof h || memcmp(h.magic, Magic, sizeof h.magic) != 0) {
		fprintf(stderr, "devtrace cat: %s: not a file of devtrace record (no devtrace header)\n", path);
		close(fd);
		return 1;
	}
	if ((h.version != 1 && h.version != Version) || h.recsize != sizeof(Rec)) {
		fprintf(stderr, "devtrace cat: %s: version %u with records of %u bytes: this devtrace reads versions 1 and %d, %zu bytes\n",
			path, h.version, h.recsize, Version, sizeof(Rec));
		close(fd);
		return 1;
	}
	/* the whole file mapped: the merge reads every source's chunks at once */
	if (len > sizeof h && (p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		fprintf(stderr, "devtrace cat: %s: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	end = p + len;
	if (len > sizeof h && h.version == 1) {	/* merged already: one source */
		have = (len - sizeof h) % sizeof(Rec);
		if (addchunk(&v, &nsrc, 0, (const Rec *)(p + sizeof h), (len - sizeof h) / sizeof(Rec)) < 0)
			goto nomem;
		if (have > 0)
			fprintf(stderr, "devtrace cat: %s: truncated: its last record has %zu of its %zu bytes\n",
				path, have, sizeof(Rec)), why = "";
	} else if (len > sizeof h) {
		for (ch = (const Chunkhdr *)(p + sizeof h); (const char *)ch < end; ch = (const Chunkhdr *)((const Rec *)(ch + 1) + ch->n)) {
			if ((size_t)(end - (const char *)ch) < sizeof *ch) {
				fprintf(stderr, "devtrace cat: %s: truncated: its last chunk header has %zu of its %zu bytes\n",
					path, (size_t)(end - (const char *)ch), sizeof *ch);
				why = "";
				break;
			}
			have = end - (const char *)(ch + 1);
			if (have < (size_t)ch->n * sizeof(Rec)) {	/* its whole records all the same */
				if (have >= sizeof(Rec) && addchunk(&v, &nsrc, ch->src, (const Rec *)(ch + 1), have / sizeof(Rec)) < 0)
					goto nomem;
				fprintf(stderr, "devtrace cat: %s: truncated: its last record has %zu of its %zu bytes\n",
					path, have % sizeof(Rec), sizeof(Rec));
				why = "";
				break;
			}
			if (ch->n > 0 && addchunk(&v, &nsrc, ch->src, (const Rec *)(ch + 1), ch->n) < 0)
				goto nomem;
		}
	}
	if (nsrc > 1)	/* v is nil with no chunk: qsort may not be given nil */
		qsort(v, nsrc, sizeof v[0], bysrc);
	rc = merge(v, nsrc) < 0 || why != NULL;
	goto out;
nomem:
	fprintf(stderr, "devtrace cat: out of memory\n");
out:
	for (k = 0; k < nsrc; k++) {
		free(v[k].rec);
		free(v[k].n);
	}
	free(v);
	if (p != NULL)
		munmap((void *)p, len);
	return rc;
}
