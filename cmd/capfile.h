/*
 * capfile.h: the capture file, written by devtrace record (record.c)
 * and read by devtrace cat FILE (cat.c), as uftrace's utils/data-file.c
 * is its record and replay's.  The records are the slots' Recs
 * (dev/ring/ring.c: devreadring), packed, unformatted and unmerged: each
 * pass of record copies every source's queued records in bulk (a
 * writer's ring, or the shared ring) as a chunk of their own (recread.c:
 * capchunk packs it); the reader unpacks each and merges the
 * sources by time, as the device's reader would have (trace-cmd's
 * per-CPU files, merged by report).
 *
 * The file (native byte order: the device is amd64's): a header,
 *	0	8	magic "devtrace"
 *	8	4	version (4)
 *	12	4	record size (sizeof(Rec), 56: the records decoded)
 *	16	8	#hz, the cycle counter's rate
 *	24	8	t, the length of the text that follows (version 2: 0)
 *	32	t	the header's text: lines "KEY VALUE", NUL-padded to a multiple of 8
 * then chunks, each
 *	0	4	source: a writer's ring 0, 1, ...; Capshared (0xffffffff) the shared ring
 *	4	4	n, its records that follow
 *	8	4	len, their bytes
 *	12	len	the records, packed, in the source's order
 * and last, once record has finished, the trailer: a chunk of source
 * Capinfo (0xfffffffe), n 0, whose len bytes are text (lines as the
 * header's, padded alike).  A file without one is read all the same:
 * record was killed, or is still writing.  The header's keys: clock
 * TICKS NS (the state's #clock when record began), pid, command (the
 * program and its arguments, quoted as a shell reads them), trace (-t's
 * globs), host, kernel; the trailer's: end TICKS NS, lost, object (one
 * line each: the objects of the recorded pcs, as FILE.syms holds them),
 * thread TID PID (one a recorded thread whose process was found:
 * recpids.h), process PID COMM (one a process of those but pid's whose
 * /proc/PID/comm record read).
 * A packed record says what differs from the record before it in its
 * chunk (a chunk starts from all zeros): a call of bench/threads takes 11
 * bytes, not 2 x 56 (bench/RESULTS).  A byte of flags,
 * then varints (LEB128, 7 bits a byte, the low first).  Flags: bits 0-1
 * the kind (Rec.exit; 3: its varint comes first), bit 2 the tid follows,
 * bit 3 the pc follows, bits 4-7 a[0]..a[3] follow.  Then: the kind,
 * the tid, the pc (a signed difference from the last pc), the ticks
 * (always; a difference from the last ticks), the arguments flagged (a
 * difference from the last of the same kind's, so an exit's retval from
 * the last exit's).  Differences are zigzag-coded: 0, -1, 1, -2 ... as
 * 0, 1, 2, 3 ...
 * A source's records are its chunks' in file order.  The reader gives
 * the oldest next record of all sources (ticks), on a tie the shared
 * ring's, then the lower ring's: the order devread's merge gives.
 * Versions 3 and 2 (chunks of unpacked Recs: no len, 56n bytes; the
 * trailer's n its length; version 2 no text) and 1 (the records merged,
 * no chunks) are read too.
 */
#ifndef DEVTRACE_CAPFILE_H
#define DEVTRACE_CAPFILE_H
#include <stdint.h>
#include "dev/devtrace.h"

enum {
	Capversion = 4,
	Caprecmax = 72,		/* a packed record's bytes at most: flags, 2 varints of 32 bits, 5 of 64 */
	Capshared = 0xffffffffu,	/* a chunk's source: the shared ring */
	Capinfo = 0xfffffffeu,	/* the trailer's: text, n bytes */
};

typedef struct Caphdr Caphdr;
struct Caphdr {
	char magic[8];
	uint32_t version;
	uint32_t recsize;
	uint64_t hz;
	uint64_t textlen;
};

typedef struct Capchunk Capchunk;
struct Capchunk {
	uint32_t src;
	uint32_t n;
	uint32_t len;
};
#define Capchunkmax(n)	(sizeof(Capchunk) + (size_t)(n) * Caprecmax)	/* a chunk of n records' bytes at most */

typedef struct Capfile Capfile;

char	*capheader(uint64_t hz, const char *text, size_t *len);	/* the header of a file of this version with text ("KEY VALUE" lines), malloc'd, *len bytes; nil: no memory */
char	*captrailer(const char *text, size_t *len);	/* the trailer chunk with text, malloc'd, *len bytes; nil: no memory */
size_t	capchunk(char *out, uint32_t src, const Rec *r, uint32_t n);	/* the chunk of n records of source src, packed, at out (room for Capchunkmax(n)): its bytes */
Capfile	*capopen(const char *path, const char *who);	/* the file mapped and its chunks found; nil if it cannot be read (told, as "WHO: PATH: ...") */
int	captruncated(Capfile *f);	/* its end was cut (told at capopen): caprun gives its whole records all the same */
uint32_t	capversion(Capfile *f);
uint64_t	caphz(Capfile *f);	/* 0: none */
int	capended(Capfile *f);	/* it has the trailer record writes when it finishes */
const char	*capinfo(Capfile *f, const char *key, int i);	/* the value of the i-th line KEY of the header's text, then the trailer's (NUL-terminated); nil if none */
const Rec	*caprun(Capfile *f, size_t max, size_t *n);	/* the next 1..max records in the merge's order, *n of them in a row, valid until the next caprun; nil at the end */
void	capclose(Capfile *f);
#endif
