/*
 * fuzz_cap: libFuzzer over the recording's reader and its packing
 * (cmd/capfile.c: what devtrace cat, report and dump read), with ASan
 * and UBSan.  An input is read twice:
 *	- as a whole file (any version): capopen and caprun to the end, and
 *	  capinfo's keys, neither crashing nor reading past the file;
 *	- as up to 64 records of 56 bytes (any values: every kind, tid, pc,
 *	  ticks and argument), packed by capchunk into a version 4 file and
 *	  read back: the same records, field for field, in their order.
 * The file goes through a memfd: capopen maps a path.  Built with
 * -D_GNU_SOURCE (memfd_create).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/capfile.h"

#define check(x)	do { if (!(x)) __builtin_trap(); } while (0)

enum { Maxrec = 64 };

static volatile uint64_t sink;	/* every field of every record given is read: ASan checks where */

/* bytes as a file, opened; nil if capopen refuses it */
static Capfile *
memfile(const uint8_t *p, size_t n, int *fd)
{
	char path[64];

	check((*fd = memfd_create("fuzz_cap", MFD_CLOEXEC)) >= 0);
	check(n == 0 || write(*fd, p, n) == (ssize_t)n);
	snprintf(path, sizeof path, "/proc/self/fd/%d", *fd);
	return capopen(path, "fuzz_cap");
}

static void
whole(const uint8_t *p, size_t n)
{
	const Rec *r;
	Capfile *f;
	size_t k, i;
	int fd;

	if ((f = memfile(p, n, &fd)) != NULL) {
		while ((r = caprun(f, 1000, &k)) != NULL) {
			check(k >= 1 && k <= 1000);
			for (i = 0; i < k; i++)
				sink += r[i].pc + r[i].ticks + r[i].tid + r[i].exit + r[i].a[0] + r[i].a[1] + r[i].a[2] + r[i].a[3];
		}
		for (i = 0; capinfo(f, "object", i) != NULL; i++)
			;
		capclose(f);
	}
	close(fd);
}

static void
roundtrip(const uint8_t *p, size_t n)
{
	static Rec in[Maxrec];
	static char file[4096 + Capchunkmax(Maxrec)];
	size_t k, got = 0, hl, cl;
	const Rec *r;
	Capfile *f;
	char *h;
	int fd;

	n = n / sizeof(Rec) < Maxrec ? n / sizeof(Rec) : Maxrec;
	memcpy(in, p, n * sizeof(Rec));
	check((h = capheader(1000, "command fuzz\n", &hl)) != NULL);
	memcpy(file, h, hl);
	free(h);
	cl = capchunk(file + hl, 7, in, n);
	check(cl <= Capchunkmax(n));
	check((f = memfile((const uint8_t *)file, hl + (n > 0 ? cl : 0), &fd)) != NULL);
	while ((r = caprun(f, Maxrec, &k)) != NULL)
		for (; k > 0; k--, r++, got++) {
			check(got < n);
			check(r->pc == in[got].pc && r->ticks == in[got].ticks && r->tid == in[got].tid && r->exit == in[got].exit);
			check(memcmp(r->a, in[got].a, sizeof r->a) == 0);
		}
	check(got == n);
	check(!captruncated(f));
	capclose(f);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *p, size_t n)
{
	whole(p, n);
	roundtrip(p, n);
	return 0;
}
