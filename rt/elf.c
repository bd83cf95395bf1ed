/*
 * elf.c: an object's file, read with libelf: its sites (the
 * __patchable_function_entries sections: run-time addresses once the
 * loader has relocated them, so read from memory), its function
 * symbols, and whether it calls the classic hooks.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt/rt.h"

static const char pfe[] = "__patchable_function_entries";

int
elfinit(void)
{
	static int ok;

	if (!ok && elf_version(EV_CURRENT) != EV_NONE)
		ok = 1;
	return ok;
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
 * a fresh NOP sled at a function's entry (or just after its landing pad).
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
 * Read o's file (the loaded one, if it matches the mapping): its sites'
 * addresses into *ent (malloc'd, sorted), o->classic and o->sym.  0 if
 * the object has no hooks.
 */
int
elfread(Obj *o, const char *file, struct dl_phdr_info *info, uint64_t **ent, size_t *nent)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	size_t shstr;
	GElf_Shdr sh;
	Elf *e = NULL;
	int fd = -1, r = 0;

	*ent = NULL;
	*nent = 0;
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
	*ent = readentries(o, e, shstr, nent);
	o->classic = classicref(e, dynsym);
	if (*nent == 0 && !o->classic)
		goto done;
	readsyms(o, e, symtab ? symtab : dynsym);
	r = 1;
done:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return r;
}
