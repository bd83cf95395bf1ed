/*
 * read.c: the record file.  devread returns every ring's records,
 * merged by time (merge.c), as text lines (fmtrec); devreadraw the
 * same records whole, for a capture; devreadring one ring's alone,
 * unmerged; devreadwring a writer's ring outside the lock.  A record
 * read is gone: each ends once, read or lost.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"

/*
 * The record is the reader's hot loop, so no Buf and no digit at a time:
 * hex16 puts the 8 bytes of v most significant first in a 16-byte
 * vector, splits each into its two nibbles, side by side, and turns all
 * 16 into digits at once (+'0', +39 more from 10 up).  GCC's generic
 * vectors: SSE2 or NEON where the compiler may use them, plain words in
 * the kernel (no vector registers there); the same bytes either way.
 */
typedef uint8_t Vbyte __attribute__((vector_size(16)));
typedef int8_t Vsbyte __attribute__((vector_size(16)));	/* nibbles compared signed: one instruction in SSE2 */
typedef uint64_t Vword __attribute__((vector_size(16)));	/* v put in a register, not through memory */

/* 16 hex digits and a separator */
static char *
hex16(char *p, uint64_t v, char sep)
{
	Vbyte x, d;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	x = (Vbyte)(Vword){ v, 0 };
	d = __builtin_shufflevector(x >> 4, x & 15, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
	d += '0' + ((Vbyte)((Vsbyte)d > 9) & ('a' - '0' - 10));
	__builtin_memcpy(p, &d, 16);
	p[16] = sep;
	return p + 17;
}

/* a record's letter by its kind; a kind no host writes reads as X, as it did */
static const char kindletter[Nkind] = { [Kentry] = 'E', [Kexit] = 'X', [Kprobe] = 'P', [Kwait] = 'W' };

static void
fmtrec(char *p, const Rec *s)
{
	*p++ = s->exit < Nkind ? kindletter[s->exit] : 'X';
	*p++ = ' ';
	p = hex16(p, s->pc, ' ');
	p = hex16(p, s->ticks, ' ');
	p = hex16(p, s->tid, ' ');
	p = hex16(p, s->a[0], ' ');
	p = hex16(p, s->a[1], ' ');
	p = hex16(p, s->a[2], ' ');
	hex16(p, s->a[3], '\n');
}

size_t
devread(Dev *d, Reader *r, char *buf, size_t n)
{
	size_t done = 0;
	Merge m;
	Rec s;

	r->wait = 0;
	mergestart(&m, d, r, ringcheck(d));
	if (r->off > r->len || r->len > Reclen)	/* the Reader is the caller's: a bug, not damage */
		r->off = r->len = 0;
	for (;;) {
		while (r->off < r->len && done < n)
			buf[done++] = r->part[r->off++];
		if (done == n || !mergenext(&m, &s)) {
			mergeend(&m);
			return done;
		}
		if (n - done >= Reclen) {
			fmtrec(buf + done, &s);
			done += Reclen;
			continue;
		}
		fmtrec(r->part, &s);
		r->off = 0;
		r->len = Reclen;
	}
}

/* up to n whole records of the merge m */
static size_t
mrecs(Merge *m, Rec *out, size_t n)
{
	size_t done = 0;

	while (done < n && mergenext(m, &out[done]))
		done++;
	return done;
}

/*
 * The capture's read (devtrace record): whole records as they sit in
 * the slots, no formatting, so a reader can save them as fast as the
 * writers fill the rings.  The same merge as devread: every record
 * ends once, read or lost, and the counters stay exact.  r's text part
 * is devread's alone: a reader uses one of the two.
 */
size_t
devreadraw(Dev *d, Reader *r, Rec *out, size_t n)
{
	Merge m;
	size_t done;

	r->wait = 0;
	mergestart(&m, d, r, ringcheck(d));
	done = mrecs(&m, out, n);
	mergeend(&m);
	return done;
}

/*
 * A capture's read of one source alone, unmerged (devtrace record; its
 * cat merges them by time later, as trace-cmd report merges per-CPU
 * files): ring < nring a writer's ring (wring.c: wringbulk), ring ==
 * nring the shared ring (ringtake, tickets and all).  As devreadraw
 * otherwise.
 */
size_t
devreadring(Dev *d, Reader *r, uint32_t ring, Rec *out, size_t n)
{
	uint32_t log = ringcheck(d);
	uint64_t head = ald(&d->head);
	size_t done = 0;

	r->wait = 0;
	if (ring < mapnring(d)) {
		if (!wringclaim(d, ring, Claimlock))	/* another reader's now */
			return 0;
		done = wringbulk(d, log, ring, out, n);
		wringunclaim(d, ring);
		return done;
	}
	/* nothing to merge: the shared ring's records taken in turn, up to its head now */
	while (done < n && ringtake(d, &out[done], &head, 1ull << log, &r->wait))
		done++;
	return done;
}

/*
 * The same of a writer's ring, outside the host's lock: readers of
 * different rings copy side by side (devtrace record's threads), each
 * under its ring's claim (wring.c: wringclaim) by its thread's tid.
 * 0 if the ring is another reader's now (*busy set) or its size is
 * damaged (the control side repairs it).
 */
size_t
devreadwring(Dev *d, uint32_t ring, uint32_t tid, Rec *out, size_t n, uint32_t *busy)
{
	uint32_t log;
	size_t done = 0;

	*busy = 0;
	if (ring >= mapnring(d) || tid == 0 || tid >= Tidbound)
		return 0;
	if (!wringclaim(d, ring, tid)) {
		*busy = 1;
		return 0;
	}
	/* the size after the claim: a size change waits for it (wringreset) */
	if ((log = rld(&d->log)) >= Logmin && log <= maplogmax(d))
		done = wringbulk(d, log, ring, out, n);
	wringunclaim(d, ring);
	return done;
}

/* a saved record's line: devread's own formatter, so the bytes are the same */
void
devfmt(char *line, const Rec *rec)
{
	fmtrec(line, rec);
}
