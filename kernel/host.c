/*
 * host.c: the device's host functions (dev/host.h) in the kernel.  Each
 * may run in a hook, in any context (NMI included): no lock, no sleep.
 * hostwait is the one that would sleep: the kernel refuses policy block
 * (main.c: devhostrules), so no probe ever calls it; it stays bounded
 * all the same.  The device, its sizes and its lock are defined here,
 * below every file that uses them.
 */
#include "k.h"
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <asm/msr.h>
#include "dev/host.h"

Dev *kdev;
uint32_t klogmax, knring, ksess;
DEFINE_MUTEX(kctl);

uint64_t
hostticks(void)
{
	return rdtsc();
}

uint64_t
hostnsec(void)
{
	return ktime_get_mono_fast_ns();	/* NMI-safe */
}

/* the pair of #clock: the ticks between two reads of real time, stamped with their middle */
void
hostclock(uint64_t *ticks, uint64_t *ns)
{
	uint64_t n0 = ktime_get_real_ns();

	*ticks = rdtsc();
	*ns = n0 / 2 + ktime_get_real_ns() / 2;
}

void
hostwait(uint64_t nsec)
{
	ndelay(nsec < 1000 ? nsec : 1000);
}

void
hostzero(void *p, size_t n)
{
	memset(p, 0, n);
}

/* the module's rings are kernel memory, resident: nothing to fault in */
int
hostfaultin(void *p, size_t n)
{
	return 1;
}

int
hostalive(uint32_t tid)
{
	int alive;

	rcu_read_lock();
	alive = pid_task(find_pid_ns(tid, &init_pid_ns), PIDTYPE_PID) != NULL;
	rcu_read_unlock();
	return alive;
}


/* the task's parents now, up to init: interrupts and other tasks' pids are no one's descendants */
int
hostdescends(uint32_t pid, uint32_t anc)
{
	struct task_struct *t;
	int r = 0;

	if (!in_task() || pid != task_tgid_nr(current))
		return 0;
	rcu_read_lock();
	for (t = rcu_dereference(current->real_parent); !r && t->pid > 0; t = rcu_dereference(t->real_parent))
		r = task_tgid_nr(t) == anc;	/* init's parent is the idle task, pid 0: the end */
	rcu_read_unlock();
	return r;
}

/* an interrupt's hit is no task's (hit.c): pid 0, parent 0, uid 0, its context's name */
uint32_t
hostppid(void)
{
	uint32_t p;

	if (!in_task())
		return 0;
	rcu_read_lock();
	p = task_tgid_nr(rcu_dereference(current->real_parent));
	rcu_read_unlock();
	return p;
}

uint32_t
hostuid(void)
{
	return in_task() ? from_kuid(&init_user_ns, current_uid()) : 0;
}

uint32_t
hostcpu(void)
{
	return raw_smp_processor_id();
}

/* the task's comm: 16 bytes, NUL-terminated by the kernel; in an interrupt, its context's name */
const char *
hostexecname(void)
{
	static const char ctxname[3][16] = { "softirq", "hardirq", "nmi" };	/* 16 bytes each: agg.c copies 16 */

	if (!in_task())
		return ctxname[in_nmi() ? 2 : in_hardirq() ? 1 : 0];
	return current->comm;
}
