/*
 * blockwait.c: policy block's wait for the reader, one for the shared
 * ring (ring.c) and a writer's own (wring.c): a writer sleeps, holding
 * no lock, while the reader makes progress, and gives up once the
 * reader's tail has stood still for the bound.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"

/*
 * 1 when it slept and the caller should look again; 0 when the reader
 * is taken as stalled at tail (*stalled marked now or by another
 * writer before): give up.  The bound starts again whenever the tail
 * moves.
 */
int
blockwait(Blockwait *b, uint64_t *stalled, uint64_t tail, uint32_t waitms)
{
	uint64_t now;

	if (rld(stalled) == tail + 1)
		return 0;
	now = hostnsec();
	if (b->since == 0 || tail != b->seen) {	/* the first wait, or the reader moved */
		b->since = now ? now : 1;
		b->seen = tail;
	} else if (now - b->since >= (uint64_t)waitms * 1000000) {
		ast(stalled, tail + 1);
		return 0;
	}
	hostwait(b->nap);
	if (b->nap < Napmax)
		b->nap *= 2;
	return 1;
}
