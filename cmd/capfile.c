/* capfile.c: the capture file's format (capfile.h): its header, and its chunks read back merged */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd/capfile.h"
#include "cmd/varint.h"

static const char Magic[8] = "devtrace";

/* one source of a file: its chunks in file order, and where the reader is in them */
typedef struct Src Src;
struct Src {
	uint32_t src;
	const char **at;	/* each chunk's records: Recs (versions 1 to 3) or packed */
	uint32_t *n, *len;	/* and their count and bytes */
	size_t nchunk, max;
	size_t c, i;		/* the next record: chunk c, its record i */
	const Rec *rec;		/* chunk c's records (nil: not loaded yet), in the file or in dec */
	Rec *dec;		/* version 4: chunk c unpacked */
	size_t ndec;
};

/* a version 3 chunk: records unpacked, no len */
typedef struct Chunk3 Chunk3;
struct Chunk3 {
	uint32_t src;
	uint32_t n;
};

struct Capfile {
	const char *p;		/* the whole file, mapped */
	size_t len;
	const char *path, *who;	/* for what a read finds damaged */
	Src *v;
	size_t nsrc;
	int truncated;
	Caphdr h;
	const char *tail;	/* the trailer's text, in p; nil: none */
	size_t ntail;
	char *text;		/* the header's text then the trailer's, copied, split in lines */
	char **key, **val;
	size_t ninfo;
};

enum {
	Fkind = 3,		/* a packed record's flags (capfile.h) */
	Ftid = 1 << 2,
	Fpc = 1 << 3,
	Farg = 1 << 4,		/* a[i]: Farg << i */
};

/* 8-aligned: the records after the text stay aligned */
static size_t
padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

char *
capheader(uint64_t hz, const char *text, size_t *len)
{
	size_t t = padded(strlen(text));
	Caphdr *h;

	if ((h = calloc(1, sizeof *h + t)) == NULL)
		return NULL;
	memcpy(h->magic, Magic, sizeof h->magic);
	h->version = Capversion;
	h->recsize = sizeof(Rec);
	h->hz = hz;
	h->textlen = t;
	memcpy(h + 1, text, strlen(text));
	*len = sizeof *h + t;
	return (char *)h;
}

char *
captrailer(const char *text, size_t *len)
{
	size_t t = padded(strlen(text));
	Capchunk *c;

	if ((c = calloc(1, sizeof *c + t)) == NULL)
		return NULL;
	c->src = Capinfo;
	c->len = t;
	memcpy(c + 1, text, strlen(text));
	*len = sizeof *c + t;
	return (char *)c;
}

/* a difference, zigzag-coded: small either way, small varint */
static uint64_t
zig(uint64_t to, uint64_t from)
{
	uint64_t d = to - from;

	return d << 1 ^ (uint64_t)((int64_t)d >> 63);
}

size_t
capchunk(char *out, uint32_t src, const Rec *r, uint32_t n)
{
	unsigned char *p = (unsigned char *)out + sizeof(Capchunk), *fl;
	uint64_t pc = 0, ticks = 0, last[4][4] = { { 0 } }, *a;
	uint32_t tid = 0, i, f;
	Capchunk c = { src, n, 0 };
	int k;

	for (i = 0; i < n; i++, r++) {
		fl = p++;
		f = r->exit < Fkind ? r->exit : Fkind;
		if (f == Fkind)
			p = varput(p, r->exit);
		if (r->tid != tid) {
			f |= Ftid;
			p = varput(p, tid = r->tid);
		}
		if (r->pc != pc) {
			f |= Fpc;
			p = varput(p, zig(r->pc, pc));
			pc = r->pc;
		}
		p = varput(p, zig(r->ticks, ticks));
		ticks = r->ticks;
		a = last[f & Fkind];
#pragma GCC unroll 4	/* a record's instructions a sixth fewer (callgrind) */
		for (k = 0; k < 4; k++)
			if (r->a[k] != a[k]) {
				f |= Farg << k;
				p = varput(p, zig(r->a[k], a[k]));
				a[k] = r->a[k];
			}
		*fl = f;
	}
	c.len = p - (unsigned char *)out - sizeof c;
	memcpy(out, &c, sizeof c);
	return p - (unsigned char *)out;
}

/*
 * A varint at *p before e: 0, or -1 if it runs past e or past 64 bits.
 * With 10 bytes at hand, from one load of 8 and up to 2 more, their
 * 7-bit groups joined in 3 steps, no loop (the file is little-endian, as
 * the machines that write it): report reads a fifth faster than with
 * the loop (bench/callsrate).
 */
static inline int
getv(const unsigned char **p, const unsigned char *e, uint64_t *v)
{
	const unsigned char *q = *p;
	uint64_t x = 0, w, stop;
	int s, n = 8;

	if (e - q >= 10) {
		memcpy(&w, q, 8);
		if ((w & 0x80) == 0) {
			*v = w & 0x7f;
			*p = q + 1;
			return 0;
		}
		if ((stop = ~w & 0x8080808080808080ull) != 0 && (n = (__builtin_ctzll(stop) + 1) / 8) < 8)
			w &= (1ull << 8 * n) - 1;
		x = w & 0x7f7f7f7f7f7f7f7full;
		x = (x & 0x007f007f007f007full) | (x & 0x7f007f007f007f00ull) >> 1;
		x = (x & 0x00003fff00003fffull) | (x & 0x3fff00003fff0000ull) >> 2;
		x = (x & 0x000000000fffffffull) | (x & 0x0fffffff00000000ull) >> 4;
		if (stop == 0) {	/* 9 or 10 bytes: the 10th holds the top bit alone */
			x |= (uint64_t)(q[8] & 0x7f) << 56;
			n = 9;
			if (q[8] & 0x80) {
				if (q[9] > 1)
					return -1;
				x |= (uint64_t)q[9] << 63;
				n = 10;
			}
		}
		*v = x;
		*p = q + n;
		return 0;
	}
	for (s = 0; s < 64 && q < e; s += 7) {
		if (s == 63 && *q > 1)
			return -1;
		x |= (uint64_t)(*q & 0x7f) << s;
		if ((*q++ & 0x80) == 0) {
			*v = x;
			*p = q;
			return 0;
		}
	}
	return -1;
}

static uint64_t
unzig(uint64_t from, uint64_t v)
{
	return from + (v >> 1 ^ -(v & 1));
}

/* up to n packed records of len bytes at p into r: how many were whole; *used their bytes */
static uint32_t
unpack(const char *at, uint32_t len, Rec *r, uint32_t n, size_t *used)
{
	const unsigned char *p = (const unsigned char *)at, *e = p + len;
	uint64_t pc = 0, ticks = 0, last[4][4] = { { 0 } }, *a, v;
	uint32_t tid = 0, i, f;
	int k;

	*used = 0;
	for (i = 0; i < n; i++, r++) {
		if (p == e)
			break;
		f = *p++;
		r->exit = f & Fkind;
		if (r->exit == Fkind && (getv(&p, e, &v) < 0 || v > UINT32_MAX || (r->exit = v) < Fkind))
			goto cut;
		if ((f & Ftid) && (getv(&p, e, &v) < 0 || v > UINT32_MAX))
			goto cut;
		r->tid = tid = f & Ftid ? v : tid;
		if ((f & Fpc) && getv(&p, e, &v) < 0)
			goto cut;
		r->pc = pc = f & Fpc ? unzig(pc, v) : pc;
		if (getv(&p, e, &v) < 0)
			goto cut;
		r->ticks = ticks = unzig(ticks, v);
		a = last[f & Fkind];
		for (k = 0; k < 4 && f >= (uint32_t)Farg << k; k++)
			if (f & Farg << k) {
				if (getv(&p, e, &v) < 0)
					goto cut;
				a[k] = unzig(a[k], v);
			}
		memcpy(r->a, a, sizeof r->a);
		*used = p - (const unsigned char *)at;
	}
cut:
	return i;
}

static int
addchunk(Capfile *f, uint32_t src, const char *at, uint32_t n, uint32_t len)
{
	Src *v;
	size_t k;

	for (k = 0; k < f->nsrc && f->v[k].src != src; k++)
		;
	if (k == f->nsrc) {
		if ((v = realloc(f->v, (f->nsrc + 1) * sizeof *v)) == NULL)
			return -1;
		f->v = v;
		memset(&v[k], 0, sizeof v[k]);
		v[k].src = src;
		f->nsrc++;
	}
	v = &f->v[k];
	if (v->nchunk == v->max) {
		v->max = v->max ? 2 * v->max : 16;
		if ((v->at = realloc(v->at, v->max * sizeof v->at[0])) == NULL ||
		    (v->n = realloc(v->n, v->max * sizeof v->n[0])) == NULL ||
		    (v->len = realloc(v->len, v->max * sizeof v->len[0])) == NULL)
			return -1;
	}
	v->at[v->nchunk] = at;
	v->n[v->nchunk] = n;
	v->len[v->nchunk] = len;
	v->nchunk++;
	return 0;
}

/* the merge's order: the shared ring first, then the rings by number (Capshared + 1 wraps to 0) */
static int
bysrc(const void *a, const void *b)
{
	uint32_t x = ((const Src *)a)->src + 1, y = ((const Src *)b)->src + 1;

	return x < y ? -1 : x > y;
}

/* a version 3 file's chunks, or its one run of records (versions 1 and 2 too); -1 out of memory */
static int
chunks3(Capfile *f, const char *path, const char *who, uint32_t version)
{
	const char *end = f->p + f->len, *p;
	const Chunk3 *ch;
	size_t have, h = sizeof(Caphdr) + f->h.textlen;

	if (f->len <= h)
		return 0;
	if (version == 1) {	/* merged already: one source */
		have = (f->len - h) % sizeof(Rec);
		if (f->len - h >= sizeof(Rec) && addchunk(f, 0, f->p + h, (f->len - h) / sizeof(Rec), 0) < 0)
			return -1;
		if (have > 0) {
			fprintf(stderr, "%s: %s: truncated: its last record has %zu of its %zu bytes\n",
				who, path, have, sizeof(Rec));
			f->truncated = 1;
		}
		return 0;
	}
	for (p = f->p + h; p < end; p += sizeof *ch + (ch->src == Capinfo ? ch->n : (size_t)ch->n * sizeof(Rec))) {
		ch = (const Chunk3 *)p;
		if ((size_t)(end - p) < sizeof *ch) {
			fprintf(stderr, "%s: %s: truncated: its last chunk header has %zu of its %zu bytes\n",
				who, path, (size_t)(end - p), sizeof *ch);
			f->truncated = 1;
			return 0;
		}
		have = end - p - sizeof *ch;
		if (ch->src == Capinfo) {	/* the trailer: text */
			if (have < ch->n) {
				fprintf(stderr, "%s: %s: truncated: its trailer has %zu of its %u bytes\n", who, path, have, ch->n);
				f->truncated = 1;
				return 0;
			}
			f->tail = (const char *)(ch + 1);
			f->ntail = ch->n;
			if (ch->n % 8 != 0 && have > ch->n) {	/* record pads it: what follows would be read askew */
				fprintf(stderr, "%s: %s: damaged: %zu bytes after a trailer of %u\n", who, path, have - ch->n, ch->n);
				f->truncated = 1;
				return 0;
			}
			continue;
		}
		if (have < (size_t)ch->n * sizeof(Rec)) {	/* its whole records all the same */
			if (have >= sizeof(Rec) && addchunk(f, ch->src, (const char *)(ch + 1), have / sizeof(Rec), 0) < 0)
				return -1;
			fprintf(stderr, "%s: %s: truncated: its last record has %zu of its %zu bytes\n",
				who, path, have % sizeof(Rec), sizeof(Rec));
			f->truncated = 1;
			return 0;
		}
		if (ch->n > 0 && addchunk(f, ch->src, (const char *)(ch + 1), ch->n, 0) < 0)
			return -1;
	}
	return 0;
}

/* a version 4 file's chunks; -1 out of memory */
static int
chunks(Capfile *f, const char *path, const char *who)
{
	const char *end = f->p + f->len, *p;
	Capchunk ch;
	size_t have;

	for (p = f->p + sizeof(Caphdr) + f->h.textlen; p < end; p += sizeof ch + ch.len) {
		if ((size_t)(end - p) < sizeof ch) {
			fprintf(stderr, "%s: %s: truncated: its last chunk header has %zu of its %zu bytes\n",
				who, path, (size_t)(end - p), sizeof ch);
			f->truncated = 1;
			return 0;
		}
		memcpy(&ch, p, sizeof ch);
		have = end - p - sizeof ch;
		if (ch.src == Capinfo && have < ch.len) {
			fprintf(stderr, "%s: %s: truncated: its trailer has %zu of its %u bytes\n", who, path, have, ch.len);
			f->truncated = 1;
			return 0;
		}
		if (ch.src == Capinfo) {	/* the trailer: text */
			f->tail = p + sizeof ch;
			f->ntail = ch.len;
			continue;
		}
		if (have < ch.len) {	/* its whole records all the same, unpacked as they are read */
			fprintf(stderr, "%s: %s: truncated: its last chunk has %zu of its %u bytes\n", who, path, have, ch.len);
			f->truncated = 1;
			return ch.n > 0 && have > 0 ? addchunk(f, ch.src, p + sizeof ch, ch.n, have) : 0;
		}
		if (ch.n > 0 && addchunk(f, ch.src, p + sizeof ch, ch.n, ch.len) < 0)
			return -1;
	}
	return 0;
}

/* the header's text and the trailer's as KEY VALUE pairs: -1 out of memory */
static int
infosplit(Capfile *f)
{
	const char *h = f->p + sizeof(Caphdr);
	size_t nh = f->h.textlen ? strnlen(h, f->h.textlen) : 0, nt = f->tail ? strnlen(f->tail, f->ntail) : 0, n = 0, k;
	char *l, *e;

	/* each ends in a newline, whatever the file holds */
	if ((f->text = malloc(nh + nt + 3)) == NULL)
		return -1;
	memcpy(f->text, h, nh);
	f->text[nh] = '\n';
	memcpy(f->text + nh + 1, f->tail ? f->tail : "", nt);
	f->text[nh + 1 + nt] = '\n';
	f->text[nh + 2 + nt] = 0;
	for (l = f->text; *l; l++)
		n += *l == '\n';
	if ((f->key = calloc(n + 1, sizeof *f->key)) == NULL || (f->val = calloc(n + 1, sizeof *f->val)) == NULL)
		return -1;
	for (l = f->text, k = 0; *l; l = e + 1) {
		e = strchr(l, '\n');
		*e = 0;
		if (*l == 0)
			continue;
		f->key[k] = l;
		l += strcspn(l, " ");
		f->val[k++] = *l ? (*l = 0, l + 1) : l;
	}
	f->ninfo = k;
	return 0;
}

/* the header read and checked: 0, or -1 (told) */
static int
header(int fd, const char *path, const char *who, size_t len, Caphdr *h)
{
	if (len < sizeof *h || pread(fd, h, sizeof *h, 0) != sizeof *h || memcmp(h->magic, Magic, sizeof h->magic) != 0) {
		fprintf(stderr, "%s: %s: not a file of devtrace record (no devtrace header)\n", who, path);
		return -1;
	}
	if (h->version < 1 || h->version > Capversion || h->recsize != sizeof(Rec)) {
		fprintf(stderr, "%s: %s: version %u with records of %u bytes: this devtrace reads versions 1 to %d, %zu bytes\n",
			who, path, h->version, h->recsize, Capversion, sizeof(Rec));
		return -1;
	}
	if (h->version < 3)	/* reserved, 0 */
		h->textlen = 0;
	if (h->textlen > len - sizeof *h || h->textlen % 8 != 0) {
		fprintf(stderr, "%s: %s: truncated: its header's text has %zu of its %llu bytes\n",
			who, path, len - sizeof *h, (unsigned long long)h->textlen);
		return -1;
	}
	return 0;
}

Capfile *
capopen(const char *path, const char *who)
{
	struct stat sb;
	Capfile *f;
	Caphdr h;
	int fd;

	if ((fd = open(path, O_RDONLY|O_CLOEXEC)) < 0 || fstat(fd, &sb) < 0) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (header(fd, path, who, sb.st_size, &h) < 0) {
		close(fd);
		return NULL;
	}
	if ((f = calloc(1, sizeof *f)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", who);
		close(fd);
		return NULL;
	}
	f->len = sb.st_size;
	f->h = h;
	/* the whole file mapped: the merge reads every source's chunks at once */
	if ((f->p = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		close(fd);
		free(f);
		return NULL;
	}
	close(fd);
	f->who = who;
	if ((f->path = strdup(path)) == NULL || (h.version < 4 ? chunks3(f, path, who, h.version) : chunks(f, path, who)) < 0 || infosplit(f) < 0) {
		fprintf(stderr, "%s: out of memory\n", who);
		capclose(f);
		return NULL;
	}
	if (f->nsrc > 1)	/* v is nil with no chunk: qsort may not be given nil */
		qsort(f->v, f->nsrc, sizeof f->v[0], bysrc);
	return f;
}

uint32_t
capversion(Capfile *f)
{
	return f->h.version;
}

uint64_t
caphz(Capfile *f)
{
	return f->h.hz;
}

int
capended(Capfile *f)
{
	return f->tail != NULL;
}

const char *
capinfo(Capfile *f, const char *key, int i)
{
	size_t k;

	for (k = 0; k < f->ninfo; k++)
		if (strcmp(f->key[k], key) == 0 && i-- == 0)
			return f->val[k];
	return NULL;
}

int
captruncated(Capfile *f)
{
	return f->truncated;
}

/*
 * Source v's chunk c at hand: a chunk of an older version in place, a
 * packed one unpacked into v->dec (which the last run may be in: so
 * only at the start of caprun).  A chunk that unpacks short is damaged:
 * told once, its whole records given; one with none is passed over.
 * -1: out of memory (told).
 */
static int
load(Capfile *f, Src *v)
{
	uint32_t got, most;
	size_t used;
	Rec *d;

	for (; v->rec == NULL && v->c < v->nchunk; v->c++) {
		if (f->h.version < 4) {
			v->rec = (const Rec *)v->at[v->c];
			return 0;
		}
		/* a packed record takes 2 bytes at least (flags, ticks): a damaged n asks no more room than its bytes hold */
		most = v->n[v->c] < v->len[v->c] / 2 ? v->n[v->c] : v->len[v->c] / 2;
		if (most > v->ndec) {
			if ((d = realloc(v->dec, (size_t)most * sizeof *d)) == NULL) {
				fprintf(stderr, "%s: out of memory\n", f->who);
				f->truncated = 1;
				return -1;
			}
			v->dec = d;
			v->ndec = most;
		}
		got = unpack(v->at[v->c], v->len[v->c], v->dec, most, &used);
		if ((got < v->n[v->c] || used < v->len[v->c]) && !f->truncated) {
			fprintf(stderr, "%s: %s: damaged: a chunk of %u records in %u bytes at byte %zu: %u of them read\n",
				f->who, f->path, v->n[v->c], v->len[v->c], (size_t)(v->at[v->c] - f->p), got);
			f->truncated = 1;
		}
		if (got > 0) {
			v->n[v->c] = got;
			v->rec = v->dec;
			return 0;
		}
	}
	return 0;
}

/*
 * The next records in the merge's order, as a run of one source's
 * chunk: the oldest next record of all sources (ticks; on a tie the
 * source first in order), and after it those of its chunk older than
 * every other source's next, up to max; nil at the end.  One source
 * alone gives its chunks whole.
 */
const Rec *
caprun(Capfile *f, size_t max, size_t *n)
{
	const Rec *best = NULL, *r, *run;
	uint64_t bound = ~0ull;
	Src *v = f->v, *b;
	size_t k, bk = 0, i, end;

	for (k = 0; k < f->nsrc; k++) {
		if (load(f, &v[k]) < 0)
			return NULL;
		if (v[k].c == v[k].nchunk)
			continue;
		r = &v[k].rec[v[k].i];
		if (best == NULL || r->ticks < best->ticks) {
			if (best != NULL && best->ticks < bound)
				bound = best->ticks;
			best = r;
			bk = k;
		} else if (r->ticks < bound)
			bound = r->ticks;
	}
	if (best == NULL)
		return NULL;
	b = &v[bk];
	run = best;
	end = b->n[b->c] - b->i < max ? b->n[b->c] : b->i + max;
	/* strictly older than the others' next: a tie goes to the source first in order, which may be another */
	for (i = b->i + 1; i < end && b->rec[i].ticks < bound; i++)
		;
	*n = i - b->i;
	if (i == b->n[b->c]) {
		b->c++;
		b->i = 0;
		b->rec = NULL;
	} else
		b->i = i;
	return run;
}

void
capclose(Capfile *f)
{
	size_t k;

	for (k = 0; k < f->nsrc; k++) {
		free(f->v[k].at);
		free(f->v[k].n);
		free(f->v[k].len);
		free(f->v[k].dec);
	}
	free((char *)f->path);
	free(f->v);
	free(f->text);
	free(f->key);
	free(f->val);
	if (f->p != NULL)
		munmap((void *)f->p, f->len);
	free(f);
}
