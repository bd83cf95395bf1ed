/*
 * pbwrite.h: protocol buffers' wire format written by hand (devtrace
 * dump --perfetto): varints and length-delimited fields into a buffer
 * that grows, a message nested by pbbegin/pbend.  A field number and
 * wire type make the key; a nested message's length goes before its
 * body once the body is written (moved up by the length's size).
 */
#ifndef DEVTRACE_PBWRITE_H
#define DEVTRACE_PBWRITE_H
#include <stddef.h>
#include <stdint.h>

enum { Pbdepth = 8 };	/* messages open at once, at most */

typedef struct Pb Pb;
struct Pb {
	uint8_t *b;		/* n bytes written; whole messages when depth is 0: the caller writes them out and sets n to 0 */
	size_t n, cap;
	size_t open[Pbdepth];	/* where each open message's body starts */
	int depth;
	int nomem;		/* an allocation failed: what follows is dropped: the caller tells it */
};

void	pbvarint(Pb *p, uint32_t field, uint64_t v);	/* a varint field (uint, int64 as two's complement, bool, enum) */
void	pbbytes(Pb *p, uint32_t field, const void *s, size_t n);	/* a length-delimited field: a string or bytes */
void	pbstr(Pb *p, uint32_t field, const char *s);
void	pbbegin(Pb *p, uint32_t field);	/* a nested message of this field, until pbend */
void	pbend(Pb *p);
void	pbfree(Pb *p);
#endif
