/*
 * elf.c: an object's file, opened with libelf and read into a table by
 * elftab.c, whose symbols become the object's.  The sites' addresses
 * are read from the loaded object (the loader relocated them), inside
 * the segments the loader reported.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <stdlib.h>
#include <unistd.h>
#include "rt/rt.h"
#include "rt/elftab.h"

int
elfinit(void)
{
	static int ok;

	if (!ok && elf_version(EV_CURRENT) != EV_NONE)
		ok = 1;
	return ok;
}

/* the loaded object itself: elftab checked that [a, a+n) is in a readable segment */
static const void *
loaded(void *arg, uintptr_t a, size_t n)
{
	(void)arg;
	(void)n;
	return (const void *)a;
}

/*
 * Read o's file (the loaded one, if it matches the mapping): its sites'
 * addresses into *ent (malloc'd, sorted), its probes into *probe
 * (malloc'd, sorted), o->classic and o->sym.  0 if
 * the object has no hooks.
 */
int
elfread(Obj *o, const char *file, struct dl_phdr_info *info, uint64_t **ent, size_t *nent, Probe **probe, size_t *nprobe)
{
	Elftab t;
	Elf *e = NULL;
	int fd = -1, r = 0;

	*ent = NULL;
	*nent = 0;
	*probe = NULL;
	*nprobe = 0;
	if (file == NULL || *file == 0 || (fd = open(file, O_RDONLY|O_CLOEXEC)) < 0)
		goto done;
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL)
		goto done;
	r = elftab(e, info->dlpi_phdr, info->dlpi_phnum, info->dlpi_addr, loaded, NULL, &t);
	if (t.err)
		rtdebug("%s: %s", o->path, t.err);
	if (!r)
		goto done;
	*ent = t.ent;
	*nent = t.nent;
	*probe = t.probe;	/* its names in t.pnames: kept as long as the object */
	*nprobe = t.nprobe;
	o->classic = t.classic;
	o->sym = t.sym;		/* its names in t.names: kept as long as the object */
	o->nsym = t.nsym > UINT32_MAX ? UINT32_MAX : t.nsym;
done:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return r;
}
