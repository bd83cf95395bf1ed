/*
 * argnames.c: predicates by argument name in the kernel (dev/pred.h:
 * predargnames, set at load by main.c): the names of the arguments of
 * the functions a trace's pattern matches, from the signature file
 * (sigs.c, the kernel's BTF), made by dev/predargs.c's rule, as
 * user space's cmd/argnames.c makes it from DWARF.  The
 * device asks under kctl, when a predicate is attached: the signature
 * text is made once, at the first ask, and kept (about 4 MB) until the
 * module goes; BTF of the running kernel does not change.  The same
 * lines type arg0..arg3 and retval (predargs.c); a function BTF lacks
 * (a module without BTF) is not seen, so its words are typed as the
 * matched functions that have BTF say.
 */
#include "k.h"
#include "dev/pred.h"
#include <linux/glob.h>
#include <linux/slab.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

static char *sigs;
static size_t nsigs;
static Predargs names;
static char out[Predargtext];

/* "$arg0=sB ... $retval=sB name=N[sB|uB] ..." (?: no one word in all), or NULL if no matched function has a signature */
const char *
kargnames(const char *glob)
{
	char *line, *next, *sp, *copy;
	size_t len;
	int e;

	if (sigs == NULL && (sigs = sigstext(&nsigs, &e)) == NULL)
		return NULL;
	if ((copy = kmalloc(PAGE_SIZE, GFP_KERNEL)) == NULL)
		return NULL;
	predargsinit(&names);
	for (line = sigs; line < sigs + nsigs; line = next + 1) {
		if ((next = memchr(line, '\n', sigs + nsigs - line)) == NULL)
			break;
		len = next - line;
		if ((sp = memchr(line, ' ', len)) == NULL || len >= PAGE_SIZE)
			continue;
		memcpy(copy, line, len);
		copy[len] = 0;
		copy[sp - line] = 0;
		if (!glob_match(glob, copy))
			continue;
		copy[sp - line] = ' ';
		predargsadd(&names, copy);
	}
	kfree(copy);
	return predargstext(&names, out, sizeof out);
}

void
argnamesexit(void)
{
	vfree(sigs);
	sigs = NULL;
}
