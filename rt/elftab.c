/*
 * elftab.c: an object's file, read with libelf into a table (elftab.h):
 * its sites (the __patchable_function_entries sections), its static
 * probes (the devtrace_probes section), its function
 * symbols, and whether it calls the classic hooks.  It touches no memory
 * of the object: the site addresses, which the loader relocated, come
 * through the caller's Elfat.  Every size and offset comes from a file
 * that may be hostile (tests/fuzz/fuzz_elf.c feeds it such files): loop
 * bounds come from the data libelf has, ranges are checked against the
 * program headers without overflow, and what is allocated is bounded by
 * the sections' sizes and Maxsites.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "rt/rt.h"
#include "rt/elftab.h"

static const char pfe[] = "__patchable_function_entries";
static const char probesec[] = "devtrace_probes";	/* arch/probe.h */

typedef struct Rng Rng;
struct Rng {
	uint64_t lo, n;		/* run-time address, bytes */
};

typedef struct Fsym Fsym;
struct Fsym {
	uint64_t pc;
	uint32_t name;		/* offset in the string table */
	uint32_t rank;		/* global 0, weak 1, local 2 */
};

static int
u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
rngcmp(const void *a, const void *b)
{
	const Rng *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int
fsymcmp(const void *a, const void *b)
{
	const Fsym *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* is [a, a+n) inside a PT_LOAD with all of flags? (no sum may overflow) */
static int
inload(const ElfW(Phdr) *ph, size_t phnum, uintptr_t bias, uint64_t a, uint64_t n, unsigned flags)
{
	uint64_t lo, off;
	size_t i;

	for (i = 0; i < phnum; i++) {
		if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & flags) != flags)
			continue;
		lo = bias + ph[i].p_vaddr;
		if (lo + ph[i].p_memsz < lo)
			continue;	/* wraps round: no loader maps that */
		off = a - lo;
		if (a >= lo && off < ph[i].p_memsz && n <= ph[i].p_memsz - off)
			return 1;
	}
	return 0;
}

/* does the file match the mapping the loader made? */
static int
samephdrs(Elf *e, const ElfW(Phdr) *ph, size_t phnum)
{
	size_t n, i, m = 0;
	GElf_Phdr p;
	int k = 0;

	if (elf_getphdrnum(e, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (gelf_getphdr(e, i, &p) == NULL)
			return 0;
		if (p.p_type != PT_LOAD)
			continue;
		while (m < phnum && ph[m].p_type != PT_LOAD)
			m++;
		if (m == phnum || ph[m].p_vaddr != p.p_vaddr || ph[m].p_memsz != p.p_memsz)
			return 0;
		m++;
		k++;
	}
	return k > 0;
}

/* a symbol section's data and how many symbols it holds, as far as its data goes */
static Elf_Data *
symdata(Elf_Scn *scn, GElf_Shdr *sh, size_t *n)
{
	Elf_Data *d;

	*n = 0;
	if (scn == NULL || gelf_getshdr(scn, sh) == NULL || sh->sh_entsize == 0 ||
	    (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL)
		return NULL;
	*n = sh->sh_size / sh->sh_entsize;
	if (*n > d->d_size / sizeof(ElfW(Sym)))
		*n = d->d_size / sizeof(ElfW(Sym));
	return d;
}

/*
 * The sites, from the __patchable_function_entries sections: each word
 * a fresh NOP sled at a function's entry (or just after its landing
 * pad).  Sections that overlap are read once; at most Maxsites words.
 */
static void
readentries(Elftab *t, Elf *e, size_t shstr, const ElfW(Phdr) *ph, size_t phnum, uintptr_t bias, Elfat *at, void *arg)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Rng *r = NULL, *nr;
	uint64_t *v = NULL, *nv, a;
	size_t nr_ = 0, cap = 0, n = 0, i, j, k;
	const char *name;
	const void *p;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || (name = elf_strptr(e, shstr, sh.sh_name)) == NULL ||
		    strcmp(name, pfe) != 0 || !(sh.sh_flags & SHF_ALLOC) || sh.sh_size / 8 == 0)
			continue;
		a = bias + sh.sh_addr;
		if (!inload(ph, phnum, bias, a, sh.sh_size / 8 * 8, PF_R))
			continue;
		if (nr_ == cap) {
			cap = cap ? 2 * cap : 4;
			if ((nr = realloc(r, cap * sizeof *r)) == NULL)
				break;
			r = nr;
		}
		r[nr_].lo = a;
		r[nr_++].n = sh.sh_size / 8 * 8;
	}
	/*
	 * Merge overlapping sections (a hostile file's: the linker makes
	 * one), when the union too lies in one readable segment.
	 */
	if (nr_ > 1)
		qsort(r, nr_, sizeof *r, rngcmp);
	for (i = 0, j = 0; i < nr_; i++) {
		if (j > 0 && r[i].lo < r[j - 1].lo + r[j - 1].n) {
			uint64_t hi = r[i].lo + r[i].n, jhi = r[j - 1].lo + r[j - 1].n;
			uint64_t un = ((hi > jhi ? hi : jhi) - r[j - 1].lo) / 8 * 8;
			if (inload(ph, phnum, bias, r[j - 1].lo, un, PF_R)) {
				r[j - 1].n = un;
				continue;
			}
		}
		r[j++] = r[i];
	}
	nr_ = j;
	for (i = 0; i < nr_ && n < Maxsites; i++) {
		k = r[i].n / 8;
		if (k > Maxsites - n)
			k = Maxsites - n;
		if ((p = at(arg, r[i].lo, k * 8)) == NULL)
			continue;
		if ((nv = realloc(v, (n + k) * sizeof *v)) == NULL)
			break;
		v = nv;
		memcpy(v + n, p, k * 8);
		n += k;
	}
	free(r);
	/* keep the words that can be sites: in executable code, once each */
	for (i = 0, j = 0; i < n; i++)
		if (v[i] != 0 && inload(ph, phnum, bias, v[i], Sledlen, PF_X))
			v[j++] = v[i];
	n = j;
	for (i = 1; i < n && v[i - 1] <= v[i]; i++)
		;	/* the linker's order is the address order already, as a rule */
	if (i < n)
		qsort(v, n, sizeof *v, u64cmp);
	for (i = 0, j = 0; i < n; i++)
		if (j == 0 || v[j - 1] != v[i])
			v[j++] = v[i];
	if (j == 0) {
		free(v);
		v = NULL;
	}
	t->ent = v;
	t->nent = j;
}

static int
probecmp(const void *a, const void *b)
{
	const Probe *x = a, *y = b;

	return x->sled < y->sled ? -1 : x->sled > y->sled;
}

/*
 * The static probes, from the devtrace_probes section (arch/probe.h;
 * the linker makes one of all the objects' own, and only the first is
 * read): entries of an 8-aligned site address, a byte of how many values
 * it passes (at most 4 are kept), and a name with its NUL,
 * read from the loaded object (the loader relocated the addresses) into
 * one copy that keeps the names.  An entry whose name does not end in
 * the section ends it; a site outside executable code, or seen
 * already, is dropped.
 */
static void
readprobes(Elftab *t, Elf *e, size_t shstr, const ElfW(Phdr) *ph, size_t phnum, uintptr_t bias, Elfat *at, void *arg)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const char *name, *end;
	const void *p;
	char *buf;
	Probe *v;
	uint64_t a, sled;
	size_t off, n = 0, i, j;

	while ((scn = elf_nextscn(e, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && (name = elf_strptr(e, shstr, sh.sh_name)) != NULL &&
		    strcmp(name, probesec) == 0 && (sh.sh_flags & SHF_ALLOC))
			break;
	if (scn == NULL || sh.sh_size < 11 || sh.sh_size > (1u << 30))
		return;
	a = bias + sh.sh_addr;
	if (!inload(ph, phnum, bias, a, sh.sh_size, PF_R) || (p = at(arg, a, sh.sh_size)) == NULL)
		return;
	/* at most an entry per 16 bytes: an address, a count and a name of 1 byte, aligned */
	if ((buf = malloc(sh.sh_size + 1)) == NULL || (v = malloc((sh.sh_size / 16 + 1) * sizeof *v)) == NULL) {
		free(buf);
		return;
	}
	memcpy(buf, p, sh.sh_size);
	buf[sh.sh_size] = 0;
	for (off = 0; off + 10 < sh.sh_size && n < Maxsites; off = (size_t)(end - buf + 1 + 7) & ~(size_t)7) {
		memcpy(&sled, buf + off, 8);
		if ((end = memchr(buf + off + 9, 0, sh.sh_size - off - 9)) == NULL)
			break;
		if (sled != 0 && end > buf + off + 9 && inload(ph, phnum, bias, sled, Sledlen, PF_X)) {
			v[n].sled = sled;
			v[n].nval = (uint8_t)buf[off + 8] < 4 ? (uint8_t)buf[off + 8] : 4;
			v[n++].name = buf + off + 9;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof *v, probecmp);
	for (i = 0, j = 0; i < n; i++)
		if (j == 0 || v[j - 1].sled != v[i].sled)
			v[j++] = v[i];
	if (j == 0) {
		free(v);
		free(buf);
		return;
	}
	t->probe = v;
	t->nprobe = j;
	t->pnames = buf;
}

/* does the object call __cyg_profile_func_enter (an undefined dynamic symbol)? */
static int
classicref(Elf *e, Elf_Scn *scn)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t i, n;
	const char *s;

	if ((data = symdata(scn, &sh, &n)) == NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (gelf_getsym(data, i, &sym) != NULL && sym.st_shndx == SHN_UNDEF &&
		    (s = elf_strptr(e, sh.sh_link, sym.st_name)) != NULL && strcmp(s, "__cyg_profile_func_enter") == 0)
			return 1;
	return 0;
}

/*
 * Function symbols, one per address (a global name before a weak one,
 * a weak one before a local one).  The names stay in one copy of the
 * string table: a name is used only if it ends within the table.
 */
static void
readsyms(Elftab *t, Elf *e, Elf_Scn *scn, uintptr_t bias)
{
	GElf_Shdr sh, ssh;
	GElf_Sym sym;
	Elf_Data *data, *sd;
	Elf_Scn *sscn;
	size_t i, n, k = 0;
	const char *str;
	Fsym *f;
	Sym *v = NULL;
	int b;

	if ((data = symdata(scn, &sh, &n)) == NULL || n == 0)
		return;
	if ((sscn = elf_getscn(e, sh.sh_link)) == NULL || gelf_getshdr(sscn, &ssh) == NULL ||
	    ssh.sh_type != SHT_STRTAB || (sd = elf_getdata(sscn, NULL)) == NULL || sd->d_buf == NULL ||
	    sd->d_size == 0)
		return;
	str = sd->d_buf;
	if ((f = malloc(n * sizeof *f)) == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (gelf_getsym(data, i, &sym) == NULL || sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC && GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
			continue;
		if (sym.st_name >= sd->d_size || str[sym.st_name] == 0 ||
		    memchr(str + sym.st_name, 0, sd->d_size - sym.st_name) == NULL)
			continue;
		b = GELF_ST_BIND(sym.st_info);
		f[k].pc = bias + sym.st_value;
		f[k].name = sym.st_name;
		f[k].rank = b == STB_GLOBAL ? 0 : b == STB_WEAK ? 1 : 2;
		k++;
	}
	if (k > 1)
		qsort(f, k, sizeof *f, fsymcmp);
	for (i = 0, n = 0; i < k; i++)
		if (n == 0 || f[n - 1].pc != f[i].pc)
			f[n++] = f[i];
	if (n == 0 || (v = malloc(n * sizeof *v)) == NULL || (t->names = malloc(sd->d_size + 1)) == NULL) {
		free(v);
		free(f);
		return;
	}
	memcpy(t->names, str, sd->d_size);
	t->names[sd->d_size] = 0;
	t->namesz = sd->d_size + 1;
	for (i = 0; i < n; i++) {
		v[i].pc = f[i].pc;
		v[i].name = t->names + f[i].name;
	}
	free(f);
	t->sym = v;
	t->nsym = n;
}

/*
 * Read e, loaded at bias with the program headers ph (as
 * dl_iterate_phdr gives them), into *t: 1 if the object has hooks
 * (sites, or classic hooks), else 0 and nothing in *t but maybe err.
 */
int
elftab(Elf *e, const ElfW(Phdr) *ph, size_t phnum, uintptr_t bias, Elfat *at, void *arg, Elftab *t)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	size_t shstr;
	GElf_Shdr sh;

	memset(t, 0, sizeof *t);
	if (elf_kind(e) != ELF_K_ELF || gelf_getclass(e) != ELFCLASS64 || elf_getshdrstrndx(e, &shstr) != 0) {
		t->err = "not a 64-bit ELF file with section names";
		return 0;
	}
	if (!samephdrs(e, ph, phnum)) {
		t->err = "the file is not what was loaded";
		return 0;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	readentries(t, e, shstr, ph, phnum, bias, at, arg);
	readprobes(t, e, shstr, ph, phnum, bias, at, arg);
	t->classic = classicref(e, dynsym);
	if (t->nent == 0 && t->nprobe == 0 && !t->classic) {
		elftabfree(t);
		return 0;
	}
	readsyms(t, e, symtab ? symtab : dynsym, bias);
	return 1;
}

void
elftabfree(Elftab *t)
{
	free(t->ent);
	free(t->sym);
	free(t->names);
	free(t->probe);
	free(t->pnames);
	t->ent = NULL;
	t->sym = NULL;
	t->names = NULL;
	t->probe = NULL;
	t->pnames = NULL;
	t->nent = t->nsym = t->namesz = t->nprobe = 0;
}
