/*
 * lib.c: the little the device needs of a C library, written out
 * because the device has none: strings, numbers as text, glob.
 */
#include "dev/lib.h"

size_t
slen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

void
scopy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
}

/* the one tokeniser of the control language: words split at blanks, in place */
char *
sskip(char *s)
{
	while (sblank(*s))
		s++;
	return s;
}

char *
sword(char **s)
{
	char *p = sskip(*s), *w = p;

	while (*p && !sblank(*p))
		p++;
	if (*p)
		*p++ = 0;
	*s = sskip(p);
	return w;
}

char *
strim(char *s)
{
	char *e;

	s = sskip(s);
	e = s + slen(s);
	while (e > s && sblank(e[-1]))
		e--;
	*e = 0;
	return s;
}

/* text builders: output past the end is dropped, the length still counts */
void
bputc(Buf *b, char c)
{
	if (b->p < b->e)
		*b->p = c;
	b->p++;
}

void
bputs(Buf *b, const char *s)
{
	while (*s)
		bputc(b, *s++);
}

/* a NUL after the text, or in the last byte if it did not fit */
void
bputnul(Buf *b)
{
	*(b->p < b->e ? b->p : b->e) = 0;
}

void
bputhex(Buf *b, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 60; i >= 0; i -= 4)
		bputc(b, hex[v >> i & 0xf]);
}

void
bputdec(Buf *b, uint64_t v)
{
	char t[20];
	int n = 0;

	do
		t[n++] = '0' + v % 10;
	while ((v /= 10) != 0);
	while (n > 0)
		bputc(b, t[--n]);
}

/* hex, with or without 0x; 1 if the whole token is a 64-bit number */
int
parsehex(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++, n++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return 0;
		if (x >> 60)
			return 0;
		x = x << 4 | d;
	}
	*v = x;
	return n > 0;
}

int
parsedec(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;

	for (; *s; s++, n++) {
		if (*s < '0' || *s > '9' || x > (~0ull - 9) / 10)
			return 0;
		x = x * 10 + (*s - '0');
	}
	*v = x;
	return n > 0;
}

/* shell glob: * ? [set] [!set] [a-z], no escapes; iterative, so no deep recursion */
static const char *
matchset(const char *p, char c)
{
	int neg = 0, hit = 0;

	if (*p == '!')
		neg = 1, p++;
	do {
		if (*p == 0)	/* a set open at the pattern's end: no match, and nothing past the NUL is read */
			return 0;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hit |= c >= p[0] && c <= p[2];
			p += 3;
		} else
			hit |= *p++ == c;
	} while (*p && *p != ']');
	if (*p != ']')
		return 0;
	return hit != neg ? p + 1 : 0;
}

int
globmatch(const char *p, const char *s)
{
	const char *star = 0, *back = 0, *q;

	while (*s) {
		if (*p == '*') {
			star = ++p;
			back = s;
			continue;
		}
		if (*p == '?' || *p == *s) {
			p++, s++;
			continue;
		}
		if (*p == '[' && (q = matchset(p + 1, *s)) != 0) {
			p = q, s++;
			continue;
		}
		if (star == 0)
			return 0;
		p = star;
		s = ++back;
	}
	while (*p == '*')
		p++;
	return *p == 0;
}

/* FNV-1a of a string: the hash of names in tables, and of a directory in its device's file name */
uint64_t
strhash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

int
streqn(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		if (a[i] == 0)
			return 1;
	return 0;
}

/*
 * Print a string of the block: at most n-1 bytes, whatever another
 * process wrote since statecheck (no NUL, a newline): never past it.
 */
void
bputn(Buf *b, const char *s, size_t n, int spaces)
{
	size_t i;
	char c;

	for (i = 0; i < n - 1 && (c = s[i]) != 0; i++)
		bputc(b, (unsigned char)c >= 0x7f || ((unsigned char)c < ' ' && !(spaces && c == '\t')) ||
			(c == ' ' && !spaces) ? '?' : c);
}
