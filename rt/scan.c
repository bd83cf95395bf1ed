/*
 * scan.c: finding the process's objects.  dl_iterate_phdr names every
 * loaded object; each new one joins the table (obj.c) with its
 * segments, and, if its file (elf.c) shows hooks, gets its sites
 * (sites.c).
 */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rt/rt.h"

/* read one object; it joins the list whether it has hooks or not */
static Obj *
addobj(struct dl_phdr_info *info, int inmain)
{
	const char *file = inmain ? "/proc/self/exe" : info->dlpi_name;
	char path[PATH_MAX];
	uint64_t *ent;
	size_t nent, nprobe;
	Probe *probe;
	Obj *o;
	int i;
	ssize_t r;

	if (rt.nobj >= Maxobj || (o = calloc(1, sizeof *o)) == NULL)
		return NULL;
	o->bias = info->dlpi_addr;
	o->phdr = info->dlpi_phdr;
	o->inmain = inmain;
	for (i = 0; i < info->dlpi_phnum && o->nseg < Maxseg; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		o->seg[o->nseg].lo = info->dlpi_addr + ph->p_vaddr;
		o->seg[o->nseg].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		o->seg[o->nseg].prot = (ph->p_flags & PF_R ? PROT_READ : 0) | (ph->p_flags & PF_W ? PROT_WRITE : 0) |
			(ph->p_flags & PF_X ? PROT_EXEC : 0);
		o->nseg++;
	}
	if (inmain && (r = readlink(file, path, sizeof path - 1)) > 0)
		path[r] = 0;
	else
		snprintf(path, sizeof path, "%s", file ? file : "");
	o->path = strdup(path);
	if (elfread(o, file, info, &ent, &nent, &probe, &nprobe)) {
		sitesmake(o, ent, nent, probe, nprobe);
		rtdebug("%s: %u sites%s, %u symbols", o->path, o->nsite, o->classic ? ", classic hooks" : "", o->nsym);
	}
	free(ent);
	free(probe);
	rt.obj[rt.nobj] = o;
	ast(&rt.nobj, rt.nobj + 1);
	return o;
}

typedef struct Scan Scan;
struct Scan {
	int n;		/* objects seen so far in this walk */
	int hooked;	/* new objects with hooks */
};

static int
scanone(struct dl_phdr_info *info, size_t size, void *arg)
{
	Scan *sc = arg;
	uint32_t i;
	Obj *o;

	(void)size;
	sc->n++;
	for (i = 0; i < rt.nobj; i++)
		if (rt.obj[i]->bias == info->dlpi_addr && rt.obj[i]->phdr == info->dlpi_phdr)
			return 0;
	/* the vdso has no file; the executable is the first object */
	o = addobj(info, sc->n == 1);
	if (o && (o->nsite || o->classic))
		sc->hooked++;
	return 0;
}

/* new objects with hooks; the control lock is held */
int
objscan(void)
{
	Scan sc = { 0, 0 };

	if (rt.pagesz == 0)
		rt.pagesz = sysconf(_SC_PAGESIZE);
	if (!elfinit())
		return 0;
	dl_iterate_phdr(scanone, &sc);
	return sc.hooked;
}
