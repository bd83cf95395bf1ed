/* lib.h: string, number and glob helpers of the freestanding device, one copy each */
#ifndef DEVTRACE_LIB_H
#define DEVTRACE_LIB_H

#include <stddef.h>
#include <stdint.h>

#define nelem(a)	(sizeof(a) / sizeof((a)[0]))
#define Min64	((uint64_t)1 << 63)	/* INT64_MIN as the bits of a uint64_t */

/* a text builder: output past e is dropped, p still counts the length */
typedef struct Buf Buf;
struct Buf {
	char *p, *e;
};

/* string a equals string b; inline: the predicate machine compares execname with it at every hit */
static inline int
streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* the low bits of a as a signed number, extended to 64 bits; inline for the predicate machine */
static inline uint64_t
sext(uint64_t a, int bits)
{
	return a & (uint64_t)1 << (bits - 1) ? a | ~(uint64_t)0 << bits : a;
}

/* the control language's words: blanks are spaces and tabs */
static inline int
sblank(char c)
{
	return c == ' ' || c == '\t';
}

size_t	slen(const char *s);
int	streqn(const char *a, const char *b, size_t n);	/* a equals b, reading at most n bytes of a: a is the block's, b ours and NUL-terminated */
void	scopy(char *dst, const char *src, size_t n);
void	bputc(Buf *b, char c);
void	bputs(Buf *b, const char *s);
void	bputn(Buf *b, const char *s, size_t n, int spaces);	/* the block's string of n bytes: n-1 at most, a byte no command writes as ? */
void	bputhex(Buf *b, uint64_t v);
void	bputdec(Buf *b, uint64_t v);
void	bputnul(Buf *b);	/* a NUL after the text, or in the last byte if it did not fit */
int	parsehex(const char *s, uint64_t *v);
int	parsedec(const char *s, uint64_t *v);
int	globmatch(const char *pat, const char *s);
uint64_t	strhash(const char *s);	/* FNV-1a */
char	*sskip(char *s);	/* s past its blanks */
char	*sword(char **s);	/* the next word, NUL-terminated in place; *s at the word after it */
char	*strim(char *s);	/* s without the blanks that begin and end it, in place */

#endif
