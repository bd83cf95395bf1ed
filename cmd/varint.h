/*
 * varint.h: the one varint writer: LEB128, 7 bits a byte, the low
 * first, the top bit set on all but the last.  The recording's records
 * (capfile.c, which also reads them) and protobuf's fields (pbwrite.c)
 * are written with it.
 */
#ifndef DEVTRACE_VARINT_H
#define DEVTRACE_VARINT_H

#include <stddef.h>
#include <stdint.h>

/* v at p: the byte after it */
static inline uint8_t *
varput(uint8_t *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (uint8_t)(v | 0x80);
	*p++ = (uint8_t)v;
	return p;
}

/* the bytes varput writes for v */
static inline size_t
varlen(uint64_t v)
{
	size_t n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

#endif
