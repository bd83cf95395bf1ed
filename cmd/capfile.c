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

static const char Magic[8] = "devtrace";

/* one source of a file: its chunks in file order, and where the reader is in them */
typedef struct Src Src;
struct Src {
	uint32_t src;
	const Rec **rec;	/* each chunk's first record */
	uint32_t *n;		/* and its count */
	size_t nchunk, max;
	size_t c, i;		/* the next record: chunk c, its record i */
};

struct Capfile {
	const char *p;		/* the whole file, mapped */
	size_t len;
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
	c->n = t;
	memcpy(c + 1, text, strlen(text));
	*len = sizeof *c + t;
	return (char *)c;
}

static int
addchunk(Capfile *f, uint32_t src, const Rec *rec, uint32_t n)
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
		if ((v->rec = realloc(v->rec, v->max * sizeof v->rec[0])) == NULL ||
		    (v->n = realloc(v->n, v->max * sizeof v->n[0])) == NULL)
			return -1;
	}
	v->rec[v->nchunk] = rec;
	v->n[v->nchunk] = n;
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

/* the chunk after ch: a trailer's n is bytes, a source's records */
static const Capchunk *
next(const Capchunk *ch)
{
	if (ch->src == Capinfo)
		return (const Capchunk *)((const char *)(ch + 1) + ch->n);
	return (const Capchunk *)((const Rec *)(ch + 1) + ch->n);
}

/* the chunks of a version 2 or 3 file, or its one run of records (version 1); -1 out of memory */
static int
chunks(Capfile *f, const char *path, const char *who, uint32_t version)
{
	const char *end = f->p + f->len;
	const Capchunk *ch;
	size_t have, h = sizeof(Caphdr) + f->h.textlen;

	if (f->len <= h)
		return 0;
	if (version == 1) {	/* merged already: one source */
		have = (f->len - h) % sizeof(Rec);
		if (addchunk(f, 0, (const Rec *)(f->p + h), (f->len - h) / sizeof(Rec)) < 0)
			return -1;
		if (have > 0) {
			fprintf(stderr, "%s: %s: truncated: its last record has %zu of its %zu bytes\n",
				who, path, have, sizeof(Rec));
			f->truncated = 1;
		}
		return 0;
	}
	for (ch = (const Capchunk *)(f->p + h); (const char *)ch < end; ch = next(ch)) {
		if ((size_t)(end - (const char *)ch) < sizeof *ch) {
			fprintf(stderr, "%s: %s: truncated: its last chunk header has %zu of its %zu bytes\n",
				who, path, (size_t)(end - (const char *)ch), sizeof *ch);
			f->truncated = 1;
			return 0;
		}
		have = end - (const char *)(ch + 1);
		if (ch->src == Capinfo) {	/* the trailer: text */
			if (have < ch->n) {
				fprintf(stderr, "%s: %s: truncated: its trailer has %zu of its %u bytes\n", who, path, have, ch->n);
				f->truncated = 1;
				return 0;
			}
			f->tail = (const char *)(ch + 1);
			f->ntail = ch->n;
			continue;
		}
		if (have < (size_t)ch->n * sizeof(Rec)) {	/* its whole records all the same */
			if (have >= sizeof(Rec) && addchunk(f, ch->src, (const Rec *)(ch + 1), have / sizeof(Rec)) < 0)
				return -1;
			fprintf(stderr, "%s: %s: truncated: its last record has %zu of its %zu bytes\n",
				who, path, have % sizeof(Rec), sizeof(Rec));
			f->truncated = 1;
			return 0;
		}
		if (ch->n > 0 && addchunk(f, ch->src, (const Rec *)(ch + 1), ch->n) < 0)
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
	if (chunks(f, path, who, h.version) < 0 || infosplit(f) < 0) {
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
		if (v[k].c == v[k].nchunk)
			continue;
		r = &v[k].rec[v[k].c][v[k].i];
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
	for (i = b->i + 1; i < end && b->rec[b->c][i].ticks < bound; i++)
		;
	*n = i - b->i;
	if (i == b->n[b->c]) {
		b->c++;
		b->i = 0;
	} else
		b->i = i;
	return run;
}

void
capclose(Capfile *f)
{
	size_t k;

	for (k = 0; k < f->nsrc; k++) {
		free(f->v[k].rec);
		free(f->v[k].n);
	}
	free(f->v);
	free(f->text);
	free(f->key);
	free(f->val);
	if (f->p != NULL)
		munmap((void *)f->p, f->len);
	free(f);
}
