/*
 * dtt.c: a module the kernel test loads after devtrace.ko, with known
 * functions called a known number of times: a write of N to
 * /sys/module/dtt/parameters/calls makes one call of dtt_run, which
 * calls dtt_leaf N times (dtt_leaf(i) returns 2i).  Neither is inlined
 * or notrace: each has its ftrace site, as any module's function.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

int	dtt_leaf(int i);
int	dtt_run(int n);

static int calls;

noinline int
dtt_leaf(int i)
{
	barrier();	/* a body the compiler keeps */
	return 2 * i;
}

noinline int
dtt_run(int n)
{
	int i, s = 0;

	for (i = 1; i <= n; i++)
		s += dtt_leaf(i);
	return s;
}

static int
setcalls(const char *val, const struct kernel_param *kp)
{
	int e = param_set_int(val, kp);

	if (e == 0)
		dtt_run(calls);
	return e;
}

static const struct kernel_param_ops callsops = {
	.set = setcalls,
	.get = param_get_int,
};
module_param_cb(calls, &callsops, &calls, 0644);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("devtrace's test: functions of a module loaded after devtrace.ko");
