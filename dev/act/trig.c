/*
 * trig.c: what a trigger does to the records that follow it (the
 * trigger itself fires in act.c).  While a start trigger is armed no
 * record is written; once a stop trigger fired, trigleft records more
 * are written (its own included), the last stops the device, and none
 * after it: a logic analyzer's pre- and post-trigger.  Records not
 * written are counted (Kwaiting).  Only records that leave the hook's
 * fast path come here: hit.c's decide sends every one while either is
 * set, and the trigger moves the control generation when it fires.
 */
#include "dev/dat.h"
#include "dev/fns.h"

/* 1: the record is written; 0: it is not (counted) */
int
trigrecord(Dev *d)
{
	uint64_t n;

	if (ald(&d->trigwait))
		goto no;
	if (!ald(&d->trigcount))
		return 1;
	n = ald(&d->trigleft);
	do
		if (n == 0)
			goto no;
	while (!__atomic_compare_exchange_n(&d->trigleft, &n, n - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	if (n == 1) {	/* the last one kept: the device stops */
		ast(&d->started, 0);
		ctlchanged(d);
	}
	return 1;
no:
	aadd(&d->actcount[Kwaiting], 1);
	return 0;
}
