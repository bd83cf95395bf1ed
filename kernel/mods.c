/*
 * mods.c: modules loaded after devtrace.ko.  A module notifier brings a
 * coming module's functions into the symbols (tracesyms, and what the
 * traces select) and applies the traces that are on, before the
 * module's init runs; a going module's functions leave the symbols and
 * their sites go, after its exit ran and before its text is freed, so
 * no hook is left on freed text and no later record names it.  A trace
 * whose functions all went stays, with no site, and takes them again if
 * the module comes back.
 */
#include "k.h"
#include <linux/module.h>
#include <linux/notifier.h>

static int
modevent(struct notifier_block *nb, unsigned long what, void *data)
{
	struct module *m = data;
	int e;

	if ((what != MODULE_STATE_COMING && what != MODULE_STATE_GOING) || m == THIS_MODULE)
		return NOTIFY_DONE;
	mutex_lock(&kctl);
	if ((e = symsmod(m, what == MODULE_STATE_COMING)) != 0)
		pr_err("devtrace: %s: its functions not seen (%d)\n", m->name, e);
	kctlapply();
	mutex_unlock(&kctl);
	return NOTIFY_DONE;
}

static struct notifier_block modnb = {
	.notifier_call = modevent,
};

int
modsinit(void)
{
	return register_module_notifier(&modnb);
}

void
modsexit(void)
{
	unregister_module_notifier(&modnb);
}
