/*
 * elftab.c: an object's file, read with libelf into a table (elftab.h):
 * its sites (the __patchable_function_entries sections), its function
 * symbols, and whether it calls the classic hooks.  It touches no memory
 * of the object: the site addresses, which the loader relocated, come
 * through the caller's Elfat.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "rt/rt.h"
#include "rt/elftab.h"

static const char pfe[] = "__patchable_function_entries";

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

/* is [a, a+n) inside a PT_LOAD with all of flags? */
static int
inload(const ElfW(Phdr) *ph, size_t phnum, uintptr_t bias, uint64_t a, uint64_t n, unsigned flags)
{
	size_t i;

	for (i = 0; i < phnum; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & flags) == flags &&
		    a >= bias + ph[i].p_vaddr && a + n <= bias + ph[i].p_vaddr + ph[i].p_memsz)
			return 1;
	return 0;
}

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

/* function symbols, one per address (a global name before a local or weak one) */
static void
readsyms(Elftab *t, Elf *e, Elf_Scn *scn, uintptr_t bias)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t i, n, len = 0, k = 0;
	unsigned char *bind;
	char *names;
	const char *s;
	Sym *v;

	if (scn == NULL || gelf_getshdr(scn, &sh) == NULL || (data = elf_getdata(scn, NULL)) == NULL || sh.sh_entsize == 0)
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
	t->names = names;
	t->namesz = len;
	k = 0;
	for (i = 0; i < n; i++) {
		if ((s = funcsym(e, &sh, data, i, &sym)) == NULL)
			continue;
		v[k].pc = bias + sym.st_value;
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
	t->sym = v;
	t->nsym = n;
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

/*
 * The sites of o, from its __patchable_function_entries sections: each
 * a fresh NOP sled at a function's entry (or just after its landing pad).
 * Kept: the words that can be sites, in executable code, once each.
 */
static void
readentries(Elftab *t, Elf *e, size_t shstr, const ElfW(Phdr) *ph, size_t phnum, uintptr_t bias, Elfat *at, void *arg)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t *v = NULL, *nv;
	const uint64_t *p;
	size_t n = 0, k, i, j;
	const char *name;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || (name = elf_strptr(e, shstr, sh.sh_name)) == NULL ||
		    strcmp(name, pfe) != 0 || !(sh.sh_flags & SHF_ALLOC))
			continue;
		k = sh.sh_size / 8;
		if (k == 0 || !inload(ph, phnum, bias, bias + sh.sh_addr, k * 8, 0) ||
		    (p = at(arg, bias + sh.sh_addr, k * 8)) == NULL)
			continue;
		if ((nv = realloc(v, (n + k) * sizeof *v)) == NULL)
			break;
		v = nv;
		for (i = 0; i < k; i++)
			v[n++] = p[i];
	}
	if (n > 1)
		qsort(v, n, sizeof *v, u64cmp);
	for (i = 0, j = 0; i < n; i++)
		if (v[i] != 0 && (j == 0 || v[j - 1] != v[i]) && inload(ph, phnum, bias, v[i], Sledlen, PF_X))
			v[j++] = v[i];
	if (j == 0) {
		free(v);
		v = NULL;
	}
	t->ent = v;
	t->nent = j;
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
	t->classic = classicref(e, dynsym);
	if (t->nent == 0 && !t->classic) {
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
	t->ent = NULL;
	t->sym = NULL;
	t->names = NULL;
	t->nent = t->nsym = t->namesz = 0;
}
