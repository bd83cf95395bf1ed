/*
 * wake.c: the follow file's wake-up.  tracepipe's readers wait on kpipe
 * (files.c); a hook that wrote a record wakes them (hooks.c) through an
 * irq_work: a wake-up takes the wait queue's lock, which a traced
 * function may hold.
 */
#include "k.h"
#include <linux/irq_work.h>

DECLARE_WAIT_QUEUE_HEAD(kpipe);
atomic_t kpipegen = ATOMIC_INIT(0), kpipewaiters = ATOMIC_INIT(0);

static void
wakework(struct irq_work *w)
{
	(void)w;
	atomic_inc(&kpipegen);
	wake_up_interruptible(&kpipe);
}

static struct irq_work wakeirq = IRQ_WORK_INIT(wakework);

void notrace
kwake(void)
{
	if (atomic_read(&kpipewaiters))
		irq_work_queue(&wakeirq);	/* a no-op while one is pending */
}

void
kwakesync(void)
{
	irq_work_sync(&wakeirq);
}
