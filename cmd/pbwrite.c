/*
 * pbwrite.c: the protobuf wire format by hand (pbwrite.h).  A varint is
 * varint.h's; a key is field << 3 | wire type (0 varint, 2
 * length-delimited).
 */
#include <stdlib.h>
#include <string.h>
#include "cmd/pbwrite.h"
#include "cmd/varint.h"

enum { Wvarint = 0, Wlen = 2, Varintmax = 10 };

/* room for n more bytes; 0, or -1 (p->nomem set) */
static int
room(Pb *p, size_t n)
{
	size_t cap = p->cap ? p->cap : 4096;
	uint8_t *b;

	if (p->nomem)
		return -1;
	if (p->n + n <= p->cap)
		return 0;
	while (cap < p->n + n)
		cap *= 2;
	if ((b = realloc(p->b, cap)) == NULL) {
		p->nomem = 1;
		return -1;
	}
	p->b = b;
	p->cap = cap;
	return 0;
}

static void
key(Pb *p, uint32_t field, int wire)
{
	if (room(p, Varintmax) == 0)
		p->n = (size_t)(varput(p->b + p->n, (uint64_t)field << 3 | (uint64_t)wire) - p->b);
}

void
pbvarint(Pb *p, uint32_t field, uint64_t v)
{
	key(p, field, Wvarint);
	if (room(p, Varintmax) == 0)
		p->n = (size_t)(varput(p->b + p->n, v) - p->b);
}

void
pbbytes(Pb *p, uint32_t field, const void *s, size_t n)
{
	key(p, field, Wlen);
	if (room(p, Varintmax + n) != 0)
		return;
	p->n = (size_t)(varput(p->b + p->n, n) - p->b);
	memcpy(p->b + p->n, s, n);
	p->n += n;
}

void
pbstr(Pb *p, uint32_t field, const char *s)
{
	pbbytes(p, field, s, strlen(s));
}

void
pbbegin(Pb *p, uint32_t field)
{
	key(p, field, Wlen);
	if (p->depth == Pbdepth)	/* a caller's bug: nesting is fixed by the schema */
		abort();
	p->open[p->depth++] = p->n;
}

/* the body is written: its length goes in front of it */
void
pbend(Pb *p)
{
	size_t at = p->open[--p->depth], len, k;

	if (p->nomem)
		return;
	len = p->n - at;
	k = varlen(len);
	if (room(p, k) != 0)
		return;
	memmove(p->b + at + k, p->b + at, len);
	varput(p->b + at, len);
	p->n += k;
}

void
pbfree(Pb *p)
{
	free(p->b);
	memset(p, 0, sizeof *p);
}
