/*
 * obj.c: the process's objects and their sites.
 *
 * dl_iterate_phdr names every loaded object; libelf reads its file for
 * the __patchable_function_entries section (the sites: run-time
 * addresses once the loader has relocated it, so read from memory) and
 * the symbol tables (names).  Each new object with sites gets a stub
 * page within a call's reach and has its NOP sleds turned into
 * off-state skip-branches.  Objects are only ever added: the list and
 * the site chunks are read by hooks without a lock.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>
#include <unistd.h>
#include "rt/rt.h"

static const char pfe[] = "__patchable_function_entries";

static long pagesz;

static uintptr_t
pgdown(uintptr_t a)
{
	return a & ~(uintptr_t)(pagesz - 1);
}

static uintptr_t
pgup(uintptr_t a)
{
	return (a + pagesz - 1) & ~(uintptr_t)(pagesz - 1);
}

Obj *
objof(uintptr_t pc)
{
	uint32_t i, n = ald(&rt.nobj);
	Obj *o;
	int s;

	for (i = 0; i < n; i++) {
		o = rt.obj[i];
		for (s = 0; s < o->nseg; s++)
			if (pc >= o->seg[s].lo && pc < o->seg[s].hi)
				return o;
	}
	return NULL;
}

const Sym *
symof(Obj *o, uintptr_t pc)
{
	uint32_t lo = 0, hi = o->nsym, m;

	while (lo < hi) {
		m = (lo + hi) / 2;
		if (o->sym[m].pc == pc)
			return &o->sym[m];
		if (o->sym[m].pc < pc)
			lo = m + 1;
		else
			hi = m;
	}
	return NULL;
}

static Seg *
segof(Obj *o, uintptr_t a, size_t n)
{
	int s;

	for (s = 0; s < o->nseg; s++)
		if (a >= o->seg[s].lo && a + n <= o->seg[s].hi)
			return &o->seg[s];
	return NULL;
}

void
syncall(void)
{
	if (rt.membar)
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
	else
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/*
 * Store n bytes at p, within one object's segment of protection prot:
 * writable for the store, then write-protected again.
 */
static int
poke(uint8_t *p, const uint8_t *v, size_t n, int prot)
{
	uintptr_t lo = pgdown((uintptr_t)p), hi = pgup((uintptr_t)p + n);
	size_t i;

	if (mprotect((void *)lo, hi - lo, prot | PROT_WRITE) < 0) {
		rtdebug("mprotect %p: %s", (void *)p, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		__atomic_store_n(p + i, v[i], __ATOMIC_RELAXED);
	mprotect((void *)lo, hi - lo, prot);
	return 0;
}

/*
 * Flip sites idx[0..n) to val[]: one byte each, a page's worth under one
 * mprotect, then one membarrier so that every thread runs the new code.
 */
int
patch(uint32_t *idx, uint8_t *val, int n)
{
	int i, j, bad = 0;
	uintptr_t pg, lo, hi;
	Site *s;
	Seg *g;

	for (i = 0; i < n; i = j) {
		s = siteat(idx[i]);
		pg = pgdown((uintptr_t)s->sled + Flipoff);
		g = segof(rt.obj[s->obj], (uintptr_t)s->sled, Sledlen);
		for (j = i + 1; j < n && pgdown((uintptr_t)siteat(idx[j])->sled + Flipoff) == pg &&
		    siteat(idx[j])->obj == s->obj; j++)
			;
		lo = pg;
		hi = pg + pagesz;
		if (mprotect((void *)lo, hi - lo, g->prot | PROT_WRITE) < 0) {
			rtdebug("mprotect %p: %s", (void *)lo, strerror(errno));
			bad++;
			continue;
		}
		for (; i < j; i++) {
			s = siteat(idx[i]);
			__atomic_store_n(s->sled + Flipoff, archflipbyte(val[i]), __ATOMIC_RELAXED);
			s->on = val[i];
		}
		mprotect((void *)lo, hi - lo, g->prot);
	}
	syncall();
	return bad ? -1 : 0;
}

/* a stub page that every site of o can call */
static uint8_t *
stubsnear(Obj *o, size_t size)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, a;
	int s, k;
	void *p;

	for (s = 0; s < o->nseg; s++) {
		if (!(o->seg[s].prot & PROT_EXEC))
			continue;
		if (o->seg[s].lo < lo)
			lo = o->seg[s].lo;
		if (o->seg[s].hi > hi)
			hi = o->seg[s].hi;
	}
	size = pgup(size);
	for (k = 0; k < 4096; k++) {
		/* alternately after and before the object, 1MB further each time */
		uintptr_t step = (uintptr_t)(k / 2) << 20;
		if (k % 2 == 0)
			a = pgup(hi) + step + (1 << 16);
		else if (lo > step + size + (1 << 16))
			a = pgdown(lo - step - size - (1 << 16));
		else
			continue;
		p = mmap((void *)a, size, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if (archreach(lo + Sledlen, (uintptr_t)p + size) && archreach(hi, (uintptr_t)p))
			return p;
		munmap(p, size);
	}
	return NULL;
}

static int
symcmp(const void *a, const void *b)
{
	const Sym *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int
u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* function symbols, one per address (a global name before a local or weak one) */

/* symbol i if it is a defined function with a name: its name, else nil */
static const char *
funcsym(Elf *e, GElf_Shdr *sh, Elf_Data *data, size_t i, GElf_Sym *sym)
{
	const char *s;

	if (gelf_getsym(data, i, sym) == NULL || sym->st_shndx == SHN_UNDEF || sym->st_value == 0)
		return NULL;
	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC && GELF_ST_TYPE(sym->st_info) != STT_GNU_IFUNC)
		return NULL;
	if ((s = elf_strptr(e, sh->sh_link, sym->st_name)) == NULL || *s == 0)
		return NULL;
	return s;
}

static void
readsyms(Obj *o, Elf *e, Elf_Scn *scn)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t i, n, len = 0, k = 0;
	unsigned char *bind;
	char *names;
	const char *s;
	Sym *v;

	if (gelf_getshdr(scn, &sh) == NULL || (data = elf_getdata(scn, NULL)) == NULL || sh.sh_entsize == 0)
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if ((s = funcsym(e, &sh, data, i, &sym)) == NULL)
			continue;
		len += strlen(s) + 1;
		k++;
	}
	if (k == 0)
		return;
	v = malloc(k * sizeof *v);
	bind = malloc(k);
	names = malloc(len);
	if (v == NULL || bind == NULL || names == NULL) {
		free(v);
		free(bind);
		free(names);
		return;
	}
	k = 0;
	for (i = 0; i < n; i++) {
		if ((s = funcsym(e, &sh, data, i, &sym)) == NULL)
			continue;
		v[k].pc = o->bias + sym.st_value;
		v[k].name = names;
		/* sort key: keep the binding in the low bits of a parallel array */
		bind[k] = GELF_ST_BIND(sym.st_info);
		names = stpcpy(names, s) + 1;
		k++;
	}
	/* prefer a global name: mark each with its binding, sort, keep the best per pc */
	for (i = 0; i < k; i++)
		v[i].pc = v[i].pc << 2 | (bind[i] == STB_GLOBAL ? 0 : bind[i] == STB_WEAK ? 1 : 2);
	free(bind);
	qsort(v, k, sizeof *v, symcmp);
	n = 0;
	for (i = 0; i < k; i++) {
		v[i].pc >>= 2;
		if (n > 0 && v[n - 1].pc == v[i].pc)
			continue;
		v[n++] = v[i];
	}
	o->sym = v;
	o->nsym = n;
}

/* does the file match the mapping the loader made? */
static int
samephdrs(Elf *e, struct dl_phdr_info *info)
{
	size_t n, i;
	GElf_Phdr ph;
	int k = 0, m = 0;

	if (elf_getphdrnum(e, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (gelf_getphdr(e, i, &ph) == NULL)
			return 0;
		if (ph.p_type != PT_LOAD)
			continue;
		while (m < info->dlpi_phnum && info->dlpi_phdr[m].p_type != PT_LOAD)
			m++;
		if (m == info->dlpi_phnum || info->dlpi_phdr[m].p_vaddr != ph.p_vaddr ||
		    info->dlpi_phdr[m].p_memsz != ph.p_memsz)
			return 0;
		m++;
		k++;
	}
	return k > 0;
}

/*
 * The sites of o, from its __patchable_function_entries sections: each
 * a fresh NOP sled at a function's entry (or just after its endbr64).
 */
static uint64_t *
readentries(Obj *o, Elf *e, size_t shstr, size_t *np)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t *v = NULL, *nv, *p;
	size_t n = 0, k, i;
	const char *name;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || (name = elf_strptr(e, shstr, sh.sh_name)) == NULL ||
		    strcmp(name, pfe) != 0 || !(sh.sh_flags & SHF_ALLOC))
			continue;
		p = (uint64_t *)(o->bias + sh.sh_addr);
		k = sh.sh_size / 8;
		if (k == 0 || segof(o, (uintptr_t)p, k * 8) == NULL)
			continue;
		if ((nv = realloc(v, (n + k) * sizeof *v)) == NULL)
			break;
		v = nv;
		for (i = 0; i < k; i++)
			v[n++] = p[i];
	}
	if (n > 1)
		qsort(v, n, sizeof *v, u64cmp);
	*np = n;
	return v;
}

static int
growsites(uint32_t n)
{
	uint32_t c;

	for (c = rt.nsite >> Chunklog; c <= (rt.nsite + n) >> Chunklog; c++) {
		if (c >= Maxchunk)
			return -1;
		if (rt.chunk[c] == NULL) {
			void *p = mmap(NULL, Chunk * sizeof(Site), PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return -1;
			ast(&rt.chunk[c], (Site *)p);
		}
	}
	return 0;
}

/* make o's sites: stubs first, then the sleds become skip-branches (off) */
static void
mksites(Obj *o, uint64_t *ent, size_t n)
{
	uint32_t k = 0, i, first = rt.nsite;
	uintptr_t a, pc;
	const Sym *sym;
	uint8_t code[Sledlen];
	Site *s;
	Seg *g;

	if (n == 0 || growsites(n) < 0)
		return;
	for (i = 0; i < n; i++) {
		a = ent[i];
		if (a == 0 || (i > 0 && ent[i - 1] == a))
			continue;
		if ((g = segof(o, a, Sledlen)) == NULL || !(g->prot & PROT_EXEC))
			continue;
		if (!archsledfresh((uint8_t *)a)) {
			rtdebug("%s: %#lx: not a NOP sled", o->path, (unsigned long)a);
			continue;
		}
		pc = a;
		sym = symof(o, a);
		if (sym == NULL && a - Endbrlen >= g->lo && archendbr((uint8_t *)a - Endbrlen)) {
			pc = a - Endbrlen;
			sym = symof(o, pc);
		}
		if (sym == NULL && o->nsym > 0) {
			/* not at an entry (-fpatchable-function-entry=N,M with M>0?): leave it */
			rtdebug("%s: %#lx: no function starts at the sled", o->path, (unsigned long)a);
			continue;
		}
		s = siteat(first + k);
		s->pc = pc;
		s->sled = (uint8_t *)a;
		s->name = sym ? sym->name : NULL;
		s->obj = rt.nobj;
		s->on = 0;
		k++;
	}
	if (k == 0)
		return;
	if ((o->stubs = stubsnear(o, Stubhdr + (size_t)k * Stublen)) == NULL) {
		rtdebug("%s: no room for stubs near the object", o->path);
		return;
	}
	archstubs(o->stubs, first, k, (uintptr_t)devtrace_entry);
	mprotect(o->stubs, pgup(Stubhdr + (size_t)k * Stublen), PROT_READ|PROT_EXEC);
	o->first = first;
	o->nsite = k;
	for (i = 0; i < k; i++) {
		s = siteat(first + i);
		archsledmake(code, (uintptr_t)s->sled, (uintptr_t)o->stubs + Stubhdr + (uintptr_t)i * Stublen);
		g = segof(o, (uintptr_t)s->sled, Sledlen);
		poke(s->sled, code, Sledlen, g->prot);
	}
	ast(&rt.nsite, first + k);
}

static int
classicref(Elf *e, Elf_Scn *scn)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t i, n;
	const char *s;

	if (scn == NULL || gelf_getshdr(scn, &sh) == NULL || (data = elf_getdata(scn, NULL)) == NULL || sh.sh_entsize == 0)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++)
		if (gelf_getsym(data, i, &sym) != NULL && sym.st_shndx == SHN_UNDEF &&
		    (s = elf_strptr(e, sh.sh_link, sym.st_name)) != NULL && strcmp(s, "__cyg_profile_func_enter") == 0)
			return 1;
	return 0;
}

/* read one object; it joins the list whether it has hooks or not */
static Obj *
addobj(struct dl_phdr_info *info, int inmain)
{
	const char *file = inmain ? "/proc/self/exe" : info->dlpi_name;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	char path[PATH_MAX];
	uint64_t *ent = NULL;
	size_t shstr, nent = 0;
	GElf_Shdr sh;
	Elf *e = NULL;
	Obj *o;
	int fd = -1, i;
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
	if (file == NULL || *file == 0 || (fd = open(file, O_RDONLY|O_CLOEXEC)) < 0)
		goto done;
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL || elf_kind(e) != ELF_K_ELF ||
	    gelf_getclass(e) != ELFCLASS64 || elf_getshdrstrndx(e, &shstr) != 0)
		goto done;
	if (!samephdrs(e, info)) {
		rtdebug("%s: the file is not what was loaded", o->path);
		goto done;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	ent = readentries(o, e, shstr, &nent);
	o->classic = classicref(e, dynsym);
	if (nent == 0 && !o->classic)
		goto done;
	readsyms(o, e, symtab ? symtab : dynsym);
	mksites(o, ent, nent);
	rtdebug("%s: %u sites%s, %u symbols", o->path, o->nsite, o->classic ? ", classic hooks" : "", o->nsym);
done:
	free(ent);
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
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
	static int elfok;
	Scan sc = { 0, 0 };

	if (pagesz == 0)
		pagesz = sysconf(_SC_PAGESIZE);
	if (!elfok) {
		if (elf_version(EV_CURRENT) == EV_NONE)
			return 0;
		elfok = 1;
	}
	dl_iterate_phdr(scanone, &sc);
	return sc.hooked;
}

/* "<pc> <name> <object>" for each of o's functions the device can name */
void
objsyms(Obj *o)
{
	char path[PATH_MAX], *buf, *p;
	size_t cap, len;
	uint32_t i, n;
	const char *name;
	uint64_t pc;
	int fd;

	if (rt.dev == NULL || o->symsdev == rt.ino + 1 || (o->nsite == 0 && !o->classic))
		return;
	o->symsdev = rt.ino + 1;
	n = o->classic ? o->nsym : o->nsite;
	cap = (size_t)n * 64 + 4096;
	if (n == 0 || shmpath(rt.dir, ".syms", path, sizeof path) < 0 || (buf = malloc(cap)) == NULL)
		return;
	if ((fd = open(path, O_WRONLY|O_APPEND|O_CREAT|O_CLOEXEC, 0600)) < 0) {
		free(buf);
		return;
	}
	len = 0;
	for (i = 0; i < n; i++) {
		if (o->classic) {
			pc = o->sym[i].pc;
			name = o->sym[i].name;
		} else {
			pc = siteat(o->first + i)->pc;
			name = siteat(o->first + i)->name;
		}
		if (name == NULL)
			continue;
		if (cap - len < strlen(name) + strlen(o->path) + 24) {
			/* whole lines per write: appends of other processes fall between them */
			if (write(fd, buf, len) < 0)
				break;
			len = 0;
		}
		p = buf + len;
		len += snprintf(p, cap - len, "%016llx %s %s\n", (unsigned long long)pc, name, o->path);
	}
	if (len > 0 && write(fd, buf, len) < 0)
		rtdebug("%s: %s", path, strerror(errno));
	close(fd);
	free(buf);
}
