/*
 * mkrec.c: a recording (cmd/capfile.h) made without a device, for the
 * tests and the benchmarks of the commands that read one (devtrace
 * report, graph).
 *   mkrec -o F [-z HZ] [-c 'TICKS NS'] < LINES: the records of LINES
 *	("E|X|P|W PC TICKS TID [A0 A1 A2 A3]", hex, as devtrace cat prints
 *	them), in their order, one chunk a thread; #hz HZ (default
 *	1000000000: a tick is a ns); -c: the header's clock pair (real time).
 *   mkrec -o F -n N [-T THREADS]: N records or a few more of nested
 *	calls of 64 functions f0..f63, each calling one of two others, 12
 *	deep at most (a seeded walk: the same file each time), THREADS
 *	threads in chunks of 4096 records; F.syms names them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/capfile.h"

enum {
	Nfn = 64,
	Maxdepth = 12,
	Chunk = 4096,
	Maxthr = 64,
	Pcbase = 0x401000,
};

static void
out(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n) {
		perror("mkrec");
		exit(1);
	}
}

static void
chunk(FILE *f, uint32_t src, const Rec *r, uint32_t n)
{
	static char b[Capchunkmax(Chunk)];

	if (n > 0)
		out(f, b, capchunk(b, src, r, n));
}

/* LINES: one chunk per thread, in the order threads are first seen */
static void
fromtext(FILE *f)
{
	static Rec r[Maxthr][Chunk];
	static uint32_t tid[Maxthr], n[Maxthr];
	unsigned long long pc, t, id, a[4];
	char line[512], k;
	uint32_t nt = 0, i;

	while (fgets(line, sizeof line, stdin) != NULL) {
		memset(a, 0, sizeof a);
		if (sscanf(line, " %c %llx %llx %llx %llx %llx %llx %llx", &k, &pc, &t, &id, &a[0], &a[1], &a[2], &a[3]) < 4)
			continue;
		for (i = 0; i < nt && tid[i] != id; i++)
			;
		if (i == nt && nt < Maxthr)
			tid[nt++] = id;
		if (i == Maxthr || n[i] == Chunk) {
			fprintf(stderr, "mkrec: more than %d threads or %d records a thread\n", Maxthr, Chunk);
			exit(1);
		}
		r[i][n[i]++] = (Rec){ pc, t, id, k == 'E' ? Kentry : k == 'P' ? Kprobe : k == 'W' ? Kwait : Kexit, { a[0], a[1], a[2], a[3] } };
	}
	for (i = 0; i < nt; i++)
		chunk(f, i, r[i], n[i]);
}

/* the walk: each thread's calls nest up to Maxdepth, each record a few ticks after the last */
static void
synthetic(FILE *f, const char *path, unsigned long long total, uint32_t nthr)
{
	static Rec r[Chunk];
	uint32_t stack[Maxthr][Maxdepth], depth[Maxthr] = { 0 }, i, n;
	unsigned long long made = 0, seed = 42, ticks = 1000;
	char syms[4096];
	FILE *s;

	while (made < total)
		for (i = 0; i < nthr; i++) {
			for (n = 0; n < Chunk; n++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				ticks += 1 + (seed >> 60);
				if (depth[i] == 0 || (depth[i] < Maxdepth && (seed >> 33) % 2 == 0 && made + n < total)) {
					/* a function calls one of two others: a program's few paths, not a random tree's millions */
					stack[i][depth[i]] = depth[i] == 0 ? (seed >> 40) % Nfn : (stack[i][depth[i] - 1] * 5 + 1 + (seed >> 40) % 2) % Nfn;
					r[n] = (Rec){ Pcbase + 16 * stack[i][depth[i]++], ticks, 100 + i, Kentry, { seed, 0, 0, 0 } };
				} else
					r[n] = (Rec){ Pcbase + 16 * stack[i][--depth[i]], ticks, 100 + i, Kexit, { seed >> 8, 0, 0, 0 } };
			}
			chunk(f, i, r, n);
			made += n;
		}
	snprintf(syms, sizeof syms, "%s.syms", path);
	if ((s = fopen(syms, "w")) == NULL) {
		perror(syms);
		exit(1);
	}
	for (i = 0; i < Nfn; i++)
		fprintf(s, "%016x f%u mkrec\n", Pcbase + 16 * i, i);
	fclose(s);
}

int
main(int argc, char **argv)
{
	unsigned long long n = 0, hz = 1000000000;
	uint32_t nthr = 1;
	char *path = NULL, *h, text[128] = "command mkrec\n";
	size_t len;
	FILE *f;
	int ch;

	while ((ch = getopt(argc, argv, "o:z:n:T:c:")) != -1)
		switch (ch) {
		case 'c': snprintf(text, sizeof text, "command mkrec\nclock %s\n", optarg); break;
		case 'o': path = optarg; break;
		case 'z': hz = strtoull(optarg, NULL, 0); break;
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'T': nthr = atoi(optarg); break;
		default: goto usage;
		}
	if (path == NULL || optind != argc || nthr < 1 || nthr > Maxthr)
		goto usage;
	if ((f = fopen(path, "w")) == NULL || (h = capheader(hz, text, &len)) == NULL) {
		perror(path);
		return 1;
	}
	out(f, h, len);
	free(h);
	if (n > 0)
		synthetic(f, path, n, nthr);
	else
		fromtext(f);
	if (fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: mkrec -o FILE [-z HZ] [-c 'TICKS NS'] < LINES\n       mkrec -o FILE -n RECORDS [-T THREADS]\n");
	return 2;
}
