/*
 * fuzz_glob: libFuzzer over the device's symbol-name matcher (globmatch,
 * dev/lib.c: what `trace 'rtc*' new rtc` selects by), with ASan and
 * UBSan.  An input is a pattern, a NUL, a name (arbitrary bytes, any
 * length; libFuzzer's -timeout catches a pattern that backtracks too
 * long).  Checks:
 *	- the answer is 0 or 1, and "*" and the name itself (when it has
 *	  none of * ? [) match;
 *	- on names made of the bytes symbol names have (letters, digits,
 *	  _ . $ @) and patterns without \, [^ or [: classes, the answer is
 *	  glibc fnmatch's (FNM_NOESCAPE): README calls these shell patterns.
 */
#include <fnmatch.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dev/lib.h"

#define check(x)	do { if (!(x)) __builtin_trap(); } while (0)

static int
symbolish(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    *s == '_' || *s == '.' || *s == '$' || *s == '@'))
			return 0;
	return 1;
}

/* no escapes in the device; [^set] and bracket classes ([:alpha:] [=a=] [.a.]) are glibc's only */
static int
comparable(const char *p)
{
	for (; *p; p++)
		if (*p == '\\' || (unsigned char)*p >= 0x80 || (p[0] == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.' || p[1] == '^')))
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const uint8_t *z = memchr(data, 0, n);
	size_t k = z ? (size_t)(z - data) : n;
	char *pat, *name;
	int r;

	pat = malloc(k + 1);
	name = malloc(n - k + 1);
	check(pat != NULL && name != NULL);
	memcpy(pat, data, k);
	pat[k] = 0;
	if (z != NULL)
		memcpy(name, z + 1, n - k - 1);
	name[z ? n - k - 1 : 0] = 0;	/* a NUL inside the name ends it: C strings */

	r = globmatch(pat, name);
	check(r == 0 || r == 1);
	check(globmatch("*", name) == 1);
	check(globmatch("**", name) == 1);
	if (strpbrk(name, "*?[") == NULL)
		check(globmatch(name, name) == 1);
	if (symbolish(name) && comparable(pat))
		check(r == (fnmatch(pat, name, FNM_NOESCAPE) == 0));
	free(pat);
	free(name);
	return 0;
}
