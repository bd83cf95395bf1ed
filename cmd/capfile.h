/*
 * capfile.h: the capture file, written by devtrace record (record.c)
 * and read by devtrace cat FILE (cat.c), as uftrace's utils/data-file.c
 * is its record and replay's.  The records are as the slots hold them
 * (dev/ring.c: devreadring), unformatted and unmerged: each pass of
 * record copies every source's queued records in bulk (a writer's ring,
 * or the shared ring) as a chunk of their own; the reader merges the
 * sources by time, as the device's reader would have (trace-cmd's
 * per-CPU files, merged by report).
 *
 * The file (native byte order: the device is amd64's): a header,
 *	0	8	magic "devtrace"
 *	8	4	version (2)
 *	12	4	record size (sizeof(Rec), 56)
 *	16	8	#hz, the cycle counter's rate
 *	24	8	0, reserved
 * then chunks, each
 *	0	4	source: a writer's ring 0, 1, ...; Capshared (0xffffffff) the shared ring
 *	4	4	n, its records that follow
 *	8	56n	the records, each a Rec as the device defines it, in the source's order
 * A source's records are its chunks' in file order.  The reader gives
 * the oldest next record of all sources (ticks), on a tie the shared
 * ring's, then the lower ring's: the order devread's merge gives.
 * Version 1 (the records merged, no chunks) is read too.
 */
#ifndef DEVTRACE_CAPFILE_H
#define DEVTRACE_CAPFILE_H
#include <stdint.h>
#include "dev/devtrace.h"

enum {
	Capversion = 2,
	Capshared = 0xffffffffu,	/* a chunk's source: the shared ring */
};

typedef struct Caphdr Caphdr;
struct Caphdr {
	char magic[8];
	uint32_t version;
	uint32_t recsize;
	uint64_t hz;
	uint64_t reserved;
};

typedef struct Capchunk Capchunk;
struct Capchunk {
	uint32_t src;
	uint32_t n;
};

typedef struct Capfile Capfile;

void	capheader(Caphdr *h, uint64_t hz);	/* the header of a file of this version */
Capfile	*capopen(const char *path, const char *who);	/* the file mapped and its chunks found; nil if it cannot be read (told, as "WHO: PATH: ...") */
int	captruncated(Capfile *f);	/* its end was cut (told at capopen): caprun gives its whole records all the same */
const Rec	*caprun(Capfile *f, size_t max, size_t *n);	/* the next 1..max records in the merge's order, *n of them in a row; nil at the end */
void	capclose(Capfile *f);
#endif
