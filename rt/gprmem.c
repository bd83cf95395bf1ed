/*
 * gprmem.c: memcpy, memset, memmove and memcmp for the code the usual
 * hook path runs, which may use no vector register (arch/ARCH/hookflags):
 * the compiler may still call these for a struct copy or a clear, and
 * the C library's use vector registers.  rt/rules.mk renames the calls
 * in those objects to these.  Byte loops: the path copies little.
 */
#include <stddef.h>
#include <stdint.h>
#include "rt/rt.h"

void	*gprmemcpy(void *d, const void *s, size_t n) HIDDEN;
void	*gprmemmove(void *d, const void *s, size_t n) HIDDEN;
void	*gprmemset(void *d, int c, size_t n) HIDDEN;
int	gprmemcmp(const void *a, const void *b, size_t n) HIDDEN;

void *
gprmemcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	while (n-- > 0)
		*p++ = *q++;
	return d;
}

void *
gprmemmove(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	if ((uintptr_t)p <= (uintptr_t)q)
		return gprmemcpy(d, s, n);
	while (n-- > 0)
		p[n] = q[n];
	return d;
}

void *
gprmemset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	while (n-- > 0)
		*p++ = (unsigned char)c;
	return d;
}

int
gprmemcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n > 0; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}
