/*
 * dev.c: the device as a whole: its files, its size and set-up, the checks a host
 * makes of a mapped block, the reader rule, and the rules a host adds
 * to the control language (devhostrules) and the traces whose hooks it
 * failed to set (devtraceoff): the kernel's.
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"
#include "dev/lib.h"
#include "dev/host.h"

const Devfile devfiles[Nfile] = {
	[Filectl] = { "tracectl", "tracectl", 0600, 1 },
	[Filetrace] = { "trace", "trace", 0600, 0 },
	[Filepipe] = { "tracepipe", "tracepipe", 0600, 0 },
	[Filesyms] = { "syms", "tracesyms", 0600, 0 },
	[Fileaggs] = { "aggs", "traceaggs", 0600, 0 },
	[Fileaggraw] = { "aggraw", "traceaggraw", 0600, 0 },
};

void
devsessinit(Dev *d, int nsess)
{
	d->nsess = nsess;
	d->size = devblocksize(d->logmax, d->nring, nsess);
}

void
devinit(Dev *d, int logmax, int nring, uint64_t hz)
{
	d->magic = Magic;
	d->version = Version;
	d->size = devsize(logmax, nring);
	d->nring = nring;
	d->hz = hz;
	d->logmax = logmax;
	d->log = logmax < Logdef ? logmax : Logdef;
	d->policy = Pring;
	d->waitms = Waitdef;
	d->gennext = 1;
}

int
devok(const Dev *d, size_t n)
{
	return n >= sizeof(Dev) && d->magic == Magic && d->version == Version &&
		d->size == n && d->logmax >= Logmin && d->logmax <= Logmax && d->nring <= Nringmax &&
		d->nsess <= Nsess && d->size == devblocksize(d->logmax, d->nring, d->nsess);
}

void
devsizes(const Dev *d, uint32_t *logmax, uint32_t *nring, uint32_t *nsess)
{
	*logmax = rld(&d->logmax);
	*nring = rld(&d->nring);
	*nsess = rld(&d->nsess);
}

uint32_t *
devctlgen(Dev *d)
{
	return &d->ctlgen;
}

int
devstarted(Dev *d)
{
	return ald(&d->started);
}

int
devreader(Dev *d, uint32_t pid, int open)
{
	int i;

	/* a reader killed without closing (devtrace cat, SIGKILL) frees its entry here */
	for (i = 0; open && i < Nreader; i++)
		if (d->reader[i] && !hostalive(d->reader[i])) {
			ast(&d->reader[i], 0);
			ast(&d->nreader, d->nreader - 1);
		}
	for (i = 0; i < Nreader; i++)
		if (open ? d->reader[i] == 0 : d->reader[i] == pid) {
			if (open) {
				ast(&d->nreader, d->nreader + 1);
				ast(&d->reader[i], pid);
			} else {
				ast(&d->reader[i], 0);
				ast(&d->nreader, d->nreader - 1);
			}
			ctlchanged(d);
			return 0;
		}
	if (!open)
		return Enoent;
	return errrefuse(d, "open trace", Errnreader);
}

int
devwatches(Dev *d, uint32_t *pids, int max)
{
	uint32_t i, n = ald(&d->nwatch);

	for (i = 0; i < n && i < Nwatch && (int)i < max; i++)
		pids[i] = rld(&d->watch[i]) & ~Watchtree;
	return i;
}

void
devhostrules(Dev *d, uint32_t rules, uint64_t textbase)
{
	d->rules = rules;
	d->textbase = textbase;
}

/*
 * A trace whose hooks the host could not set at run time (a kprobe the
 * kernel refused, known only when registered): "trace: NAME" and why
 * in Dev.err, the trace turned off, a new control generation.  Its
 * errno, err.  A refusal of what a trace selects is made at trace ...
 * new (command.c: Devsyms), never here.
 */
int
devtraceoff(Dev *d, int slot, int err, const char *why)
{
	char name[Namelen];
	Trace *t;
	Buf b = { d->err, d->err + Errmax - 1 };

	if (slot < 0 || slot >= Ntrace || (t = &d->trace[slot])->gen == 0)
		return err;
	scopy(name, t->name, Namelen);
	bputs(&b, "trace: ");
	bputs(&b, name);
	bputs(&b, why);
	bputnul(&b);
	ast(&t->on, 0);
	ctlchanged(d);
	return err;
}
