/*
 * argnames.c: the signatures a control write hands the device in the
 * kernel (dev/devtrace.h: Devsigs), for predicates and aggregations by
 * argument name and typed values: the signature file (sigs.c, the
 * kernel's BTF), which the device matches to a trace's pattern by
 * dev/pred/predargs.c's rule, as user space's cmd/argnames.c hands it the
 * lines of DWARF.  Made before kctl is taken, and only for a write that
 * may name an argument; the text is made once, at the first such
 * write, and kept (about 4 MB) until the module goes: BTF of the
 * running kernel does not change.  A function BTF lacks (a module
 * without BTF) is not seen, so its words are typed as the matched
 * functions that have BTF say.
 */
#include "k.h"
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

static char *sigs;
static size_t nsigs;
static DEFINE_MUTEX(sigslock);	/* the text's first making: two writers at once make it once */

/* the n bytes at b hold word w */
static int
has(const char *b, size_t n, const char *w)
{
	size_t i, k = strlen(w);

	for (i = 0; i + k <= n; i++)
		if (memcmp(b + i, w, k) == 0)
			return 1;
	return 0;
}

Devsigs *
ksigs(const char *buf, size_t n, const Ctlfile *f)
{
	Devsigs *s;
	int e;

	if (!has(buf, n, "pred") && !has(buf, n, "agg") && !devctlpending(f))
		return NULL;
	mutex_lock(&sigslock);
	if (sigs == NULL)
		sigs = sigstext(&nsigs, &e);
	mutex_unlock(&sigslock);
	if (sigs == NULL || (s = kzalloc(sizeof *s, GFP_KERNEL)) == NULL)
		return NULL;
	if ((s->work = kvmalloc(devsigswork(), GFP_KERNEL)) == NULL) {
		kfree(s);
		return NULL;
	}
	s->text = sigs;
	s->n = nsigs;
	return s;
}

void
ksigsfree(Devsigs *s)
{
	if (s == NULL)
		return;
	kvfree(s->work);
	kfree(s);
}

void
argnamesexit(void)
{
	vfree(sigs);
	sigs = NULL;
}
