/*
 * record.c: a record to its ring (devrecord), the hook path's last
 * step.  A writer that owns a ring of its own (wring.c) writes it with
 * plain stores; the others, threads past the rings and hits with no
 * Writer (testtracein), share the shared ring (ring.c).  Under the ring
 * policy the record is written inline here (slot.h); the other
 * policies, a log past its bound and a hit with no Writer of this
 * device go to the out-of-line path.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"
#include "dev/ring/slot.h"

/*
 * No Writer of this device, a log past its bound, a policy other than
 * ring, a speculation or a trigger: a speculating thread's record is
 * held (spec.c), a trigger may keep it back (trig.c); then ask the
 * host, count damage, and write as the policy says.
 */
static __attribute__((noinline)) void
recordslow(Dev *d, const Hit *h)
{
	Writer *w = h->w;
	uint32_t log = rld(&d->log), waitms = Waitdef, lim, p;

	if (specrecord(d, h) || !trigrecord(d))
		return;
	/* the Writer keeps the host's bound: asked of the host only without one */
	lim = w && w->d == d ? w->lim : maplogmax(d);
	if (log > lim) {	/* a log past the mapping is damage, not an index */
		corrupt(d);
		return;
	}
	p = ringpolicy(d, &waitms);
	if (w && w->d == d && w->wr)	/* its own ring */
		wringrecord(d, w, h, log, p, waitms);
	else
		ringrecord(d, h, log, lim, p, waitms);
}

/*
 * The hook path: the thread's Writer keeps the host's bound (hit.c:
 * decide), 0 under a policy other than ring, so checking the block's
 * log costs a load and a compare, and the call to the host and the
 * other policies stay off the path (no frame to save here).
 */
void
devrecord(Dev *d, const Hit *h)
{
	const Writer *w = h->w;
	uint32_t log = rld(&d->log);

	if (__builtin_expect(w != 0 && w->d == d && log <= w->ringlim, 1)) {
		if (__builtin_expect(w->wr != 0, 1))
			wringput(w, h, log);
		else
			ringput(d, h, log);
	} else
		recordslow(d, h);
}
