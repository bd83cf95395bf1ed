/*
 * writers.c: the device's own rates, in one process, without hooks or
 * files: how fast 1 and 2 writer threads fill the ring, what a hit costs
 * when a predicate rejects it (and a call, which devfilter rejects whole
 * at its entry), what a three-term predicate adds, how fast the reader
 * formats records, and how fast a read merges 4 and 16 writers' rings
 * whose records alternate in time.  usage: writers [SECONDS [REPS]]
 * Each figure is the median of REPS runs of SECONDS (default 5 of 0.2 s);
 * prints one line per figure: name, value, unit (tab-separated).
 *
 * writers fill N [THREADS]: write N records into the running device of
 * $DEVTRACE_DIR (its shared memory, as hooks do) with THREADS threads,
 * and print the rate: a full ring for the reader benchmarks.  writers
 * wfill N [THREADS]: the same into writers' rings 0 (and 1), bound as a
 * kernel host binds them (devwriterbind), as a traced thread's own ring.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "dev/devtrace.h"
#include "host/shm.h"

static Dev *dev;
static Tsel sel;
static double seconds = 0.2;
static int reps = 5;
static volatile int stopping;
static int entries;	/* writers ask devfilter, as an entry hook does: a rejected call ends there */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
ctl(const char *s)
{
	if (devctl(dev, s, strlen(s), getpid()) != 0) {
		fprintf(stderr, "writers: %s: %s\n", s, deverr(dev));
		exit(1);
	}
}

/* one trace over the fake pc 0x1000, with the predicate given (or none) */
static void
settrace(const char *pred)
{
	char buf[256];
	int slot;

	ctl("stop");
	devctl(dev, "trace t remove", 14, getpid());
	ctl("trace 1000 2000 new t");
	if (pred) {
		snprintf(buf, sizeof buf, "trace t pred /%s/", pred);
		ctl(buf);
	}
	ctl("trace t on");
	ctl("start");
	if ((slot = devselect(dev, 0x1000, 0x1000, 1, "f")) < 0 || !devtsel(dev, slot, &sel)) {
		fprintf(stderr, "writers: no trace selected\n");
		exit(1);
	}
}

static void *
writer(void *arg)
{
	uint64_t *n = arg;
	Writer w = { 0 };	/* as the runtime keeps one per thread */
	Hit h = { .pc = 0x1000, .a = { 1, 2, 8192, 4 }, .tid = gettid(), .pid = getpid(), .w = &w };

	while (!stopping) {
		for (int i = 0; i < 256; i++) {
			h.ticks = *n + i;
			if (entries)
				devfilter(dev, &sel, &h);
			else
				devhit(dev, &sel, &h);
		}
		*n += 256;
	}
	devwriterdone(&w);
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* hits per second with k writer threads for the set time */
static double
run1(int k)
{
	pthread_t t[2];
	uint64_t n[2] = { 0, 0 };
	double t0, t1;
	int i;

	stopping = 0;
	t0 = now();
	for (i = 0; i < k; i++)
		pthread_create(&t[i], 0, writer, &n[i]);
	usleep(seconds * 1e6);
	stopping = 1;
	for (i = 0; i < k; i++)
		pthread_join(t[i], 0);
	t1 = now();
	return (n[0] + n[1]) / (t1 - t0);
}

/* the median of reps runs */
static double
run(int k)
{
	double r[64];
	int i, n = reps < 1 ? 1 : reps > 64 ? 64 : reps;

	for (i = 0; i < n; i++)
		r[i] = run1(k);
	qsort(r, n, sizeof r[0], cmp);
	return n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
}

/* records per second that devread formats, from a full ring */
static double
readrate(void)
{
	static char buf[64 * 1024];
	Reader r;
	uint64_t bytes = 0;
	size_t got;
	double t0;

	memset(&r, 0, sizeof r);
	while (devread(dev, &r, buf, sizeof buf) > 0)	/* empty it */
		;
	settrace(0);
	for (int i = 0; i < 1 << 20; i++) {
		Hit h = { .pc = 0x1000, .ticks = i, .a = { i, 2, 3, 4 }, .tid = 1, .pid = 1 };
		devrecord(dev, &h);
	}
	t0 = now();
	while ((got = devread(dev, &r, buf, sizeof buf)) > 0)
		bytes += got;
	return bytes / Reclen / (now() - t0);
}

/*
 * records per second that devreadraw merges from k writers' rings, each
 * full, every record's time the next ring's turn: the merge's worst case
 * (each take a different ring)
 */
static double
mergerate(int k)
{
	static Rec out[4096];
	static Reader r;
	Writer w[Nringdef];
	uint64_t recs = 0, t = 0, i;
	double spent = 0, t0;
	size_t got;
	int j, round;

	settrace(0);
	memset(w, 0, sizeof w);
	for (round = 0; round < 16; round++) {
		for (i = 0; i < (1u << 20) / k; i++)
			for (j = 0; j < k; j++) {
				Hit h = { .pc = 0x1000, .ticks = t++, .a = { i, 2, 3, 4 }, .tid = 100 + j, .pid = 1, .w = &w[j] };
				devhit(dev, &sel, &h);
			}
		t0 = now();
		while ((got = devreadraw(dev, &r, out, 4096)) > 0)
			recs += got;
		spent += now() - t0;
	}
	for (j = 0; j < k; j++)
		devwriterdone(&w[j]);
	return recs / spent;
}

static uint64_t filln;
static int wfill;	/* writers fill the writers' rings 0 and 1 (devwriterbind), not the shared ring */

static void *
filler(void *arg)
{
	Hit h = { .pc = 0x401000, .a = { 1, 2, 3, 4 }, .tid = gettid(), .pid = getpid() };
	Writer w;
	uint64_t i;

	if (wfill && devwriterbind(dev, &w, (uint32_t)(uintptr_t)arg) == 0)
		h.w = &w;
	for (i = 0; i < filln; i++) {
		h.ticks = i;
		h.exit = i & 1;
		devrecord(dev, &h);
	}
	if (h.w)
		devwriterdone(&w);
	return 0;
}

static int
fill(uint64_t n, int k)
{
	pthread_t t[2];
	Shm *hdr;
	double t0;
	int i;

	if ((dev = shmattach(devdir(), &hdr, NULL)) == NULL) {
		fprintf(stderr, "writers: no device serves %s\n", devdir());
		return 1;
	}
	k = k == 2 ? 2 : 1;
	filln = n / k;
	t0 = now();
	for (i = 0; i < k; i++)
		pthread_create(&t[i], 0, filler, (void *)(uintptr_t)i);
	for (i = 0; i < k; i++)
		pthread_join(t[i], 0);
	printf("fill%d\t%.1f\tMrec/s\n", k, filln * k / (now() - t0) / 1e6);
	return 0;
}

int
main(int argc, char **argv)
{
	char pred3[128];
	double plain;

	if (argc > 2 && strcmp(argv[1], "wfill") == 0) {
		wfill = 1;
		argv[1] = "fill";
	}
	if (argc > 2 && strcmp(argv[1], "fill") == 0)
		return fill(strtoull(argv[2], 0, 10), argc > 3 ? atoi(argv[3]) : 1);
	if (argc > 1)
		seconds = atof(argv[1]);
	if (argc > 2)
		reps = atoi(argv[2]);
	if ((dev = calloc(1, devsize(20, Nringdef))) == NULL)
		return 1;
	devinit(dev, 20, Nringdef, 1000000000);
	shmprivate(dev, 20);	/* the size the device trusts: this calloc's */
	ctl("size 20");

	settrace(0);
	printf("writer1\t%.1f\tMrec/s\n", (plain = run(1)) / 1e6);
	printf("writer2\t%.1f\tMrec/s\n", run(2) / 1e6);
	printf("record\t%.1f\tns\n", 1e9 / plain);
	settrace("arg0 == -1");
	printf("rejected\t%.1f\tns\n", 1e9 / run(1));
	entries = 1;
	printf("rejectedcall\t%.1f\tns\n", 1e9 / run(1));
	entries = 0;
	snprintf(pred3, sizeof pred3, "pid == %d && arg2 >= 4096 && execname == \"nobody\"", getpid());
	settrace(pred3);
	printf("pred3false\t%.1f\tns\n", 1e9 / run(1));
	snprintf(pred3, sizeof pred3, "pid == %d && arg2 >= 4096 && execname == \"%.15s\"", getpid(),
		program_invocation_short_name);
	settrace(pred3);
	printf("pred3true\t%.1f\tns\n", 1e9 / run(1));
	printf("devread\t%.1f\tMrec/s\n", readrate() / 1e6);
	printf("merge4\t%.1f\tMrec/s\n", mergerate(4) / 1e6);
	printf("merge16\t%.1f\tMrec/s\n", mergerate(Nringdef) / 1e6);
	return 0;
}
