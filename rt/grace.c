/*
 * grace.c: retiring Views.  A View the hooks may still read is freed
 * only after a grace period: every thread that was in the runtime when
 * the View changed has left it since (thr.h: Thr.seq).
 */
#include <stdlib.h>
#include <unistd.h>
#include "rt/rt.h"
#include "rt/thr.h"

/*
 * Wait until every thread that was in the runtime when the View changed
 * has left it: after the sync, a thread either sees the new View or
 * shows an odd seq here.  0 if one stays in for a second.
 */
static int
grace(void)
{
	Thr *t;
	uint32_t s;
	int i;

	syncall();
	for (t = ald(&rt.thrs); t; t = t->next) {
		if (ald(&t->state) != Tlive || !((s = ald(&t->seq)) & 1))
			continue;
		for (i = 0; ald(&t->seq) == s && ald(&t->state) == Tlive; i++) {
			if (i == 1000)
				return 0;
			usleep(1000);
		}
	}
	return 1;
}

/* old was replaced (or nil): free it and the Views retired before it, once no thread can read them */
void
retire(View *old)
{
	View *v;

	if (old) {
		old->old = rt.retired;
		rt.retired = old;
	}
	if (rt.retired == NULL || !grace())
		return;		/* a thread stuck in the runtime: keep them */
	while ((v = rt.retired) != NULL) {
		rt.retired = v->old;
		free(v);
	}
}
