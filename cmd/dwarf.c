/*
 * dwarf.c: the signature lines of an object's functions, from its DWARF
 * (libdw), one per defined function:
 *	NAME RET [ARG ...]	ARG: name:class:word
 * RET and class: void, sN, uN (N bits), char, bool, ptr, fN (floating
 * point), enumN{v=NAME,...}, structN (N bytes, by value), other.  word
 * is the record's argument word (1-4) that holds the argument, 0 when no
 * recorded word does (floating point, a struct passed in memory, past the
 * fourth): readers show it as "?".  The words follow the ISA's calling
 * convention, which is why the file says them: a kernel's BTF reader
 * writes the same lines, and the scripts need no ABI of their own.
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include "cmd/client.h"

enum {
	Nwords = 4,	/* argument words a record keeps */
	Depth = 8,	/* struct nesting looked into for floating point */
};

/* an ISA's integer argument registers and where large structs go */
typedef struct Abi Abi;
struct Abi {
	int machine;
	int nregs;	/* integer argument registers */
	int bigref;	/* a struct over 16 bytes is passed by reference (one register), not in memory */
	int sretreg;	/* a struct returned in memory takes the first register */
};

static const Abi abis[] = {
	{ EM_X86_64, 6, 0, 1 },
	{ EM_AARCH64, 8, 1, 0 },
};

/* the type under typedefs and qualifiers; 0 for void */
static int
peel(Dwarf_Die *d, Dwarf_Die *t)
{
	Dwarf_Attribute a;

	if (dwarf_attr_integrate(d, DW_AT_type, &a) == NULL || dwarf_formref_die(&a, t) == NULL)
		return 0;
	return dwarf_peel_type(t, t) == 0;
}

static int
hasfloat(Dwarf_Die *t, int depth)
{
	Dwarf_Die m, mt;
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (depth > Depth)
		return 1;
	switch (dwarf_tag(t)) {
	case DW_TAG_base_type:
		return dwarf_attr(t, DW_AT_encoding, &a) && dwarf_formudata(&a, &enc) == 0 &&
			(enc == DW_ATE_float || enc == DW_ATE_complex_float);
	case DW_TAG_array_type:
		return peel(t, &mt) && hasfloat(&mt, depth + 1);
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		if (dwarf_child(t, &m) != 0)
			return 0;
		do
			if (dwarf_tag(&m) == DW_TAG_member && peel(&m, &mt) && hasfloat(&mt, depth + 1))
				return 1;
		while (dwarf_siblingof(&m, &m) == 0);
	}
	return 0;
}

/* enumN{v=NAME,...} into buf */
static void
enumclass(Dwarf_Die *t, int bits, char *buf, size_t n)
{
	Dwarf_Die e;
	Dwarf_Attribute a;
	Dwarf_Sword v;
	size_t len;
	const char *sep = "";

	len = snprintf(buf, n, "enum%d{", bits);
	if (dwarf_child(t, &e) == 0)
		do {
			if (dwarf_tag(&e) != DW_TAG_enumerator || dwarf_attr(&e, DW_AT_const_value, &a) == NULL ||
			    dwarf_formsdata(&a, &v) != 0 || len >= n)
				continue;
			len += snprintf(buf + len, n - len, "%s%lld=%s", sep, (long long)v, dwarf_diename(&e));
			sep = ",";
		} while (dwarf_siblingof(&e, &e) == 0);
	if (len + 2 > n) {
		snprintf(buf, n, "u%d", bits);	/* too many names for a line: the number */
		return;
	}
	snprintf(buf + len, n - len, "}");
}

/*
 * d's type as a class into buf; its integer registers (0: none, floating
 * point) and whether it may be shown from them (a struct holding floating
 * point or passed by reference may not)
 */
static void
typeclass(Dwarf_Die *d, const Abi *abi, char *buf, size_t n, int *regs, int *shown)
{
	Dwarf_Die t;
	Dwarf_Attribute a;
	Dwarf_Word enc;
	const char *name;
	int size, bits;

	*regs = 1;
	*shown = 1;
	if (!peel(d, &t)) {
		snprintf(buf, n, "void");
		*regs = 0;
		return;
	}
	size = dwarf_bytesize(&t);
	bits = size > 0 ? size * 8 : 64;
	switch (dwarf_tag(&t)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		snprintf(buf, n, "ptr");
		return;
	case DW_TAG_enumeration_type:
		enumclass(&t, bits, buf, n);
		return;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		snprintf(buf, n, "struct%d", size);
		if (size > 16) {
			*regs = abi->bigref;
			*shown = 0;
		} else {
			*regs = (size + 7) / 8;
			*shown = !hasfloat(&t, 0);
			if (!*shown)	/* its words may be floating point registers: which ones, the ABI's classes say */
				*regs = -1;
		}
		return;
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &a) == NULL || dwarf_formudata(&a, &enc) != 0)
			break;
		name = dwarf_diename(&t);
		if (enc == DW_ATE_float || enc == DW_ATE_complex_float) {
			snprintf(buf, n, "f%d", bits);
			*regs = 0;
			*shown = 0;
			return;
		}
		if (size > 8) {	/* __int128: two registers, shown as neither */
			snprintf(buf, n, "other");
			*regs = 2;
			*shown = 0;
			return;
		}
		if (enc == DW_ATE_boolean)
			snprintf(buf, n, "bool");
		else if ((enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char) && name && strcmp(name, "char") == 0)
			snprintf(buf, n, "char");
		else if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
			snprintf(buf, n, "s%d", bits);
		else
			snprintf(buf, n, "u%d", bits);
		return;
	}
	snprintf(buf, n, "other");
}

/* one function's line to out */
static void
funcline(Dwarf_Die *f, const Abi *abi, FILE *out)
{
	char cls[512];
	Dwarf_Die p;
	int reg, regs, shown, word, k;
	const char *name;

	typeclass(f, abi, cls, sizeof cls, &regs, &shown);
	fprintf(out, "%s %s", dwarf_diename(f), cls);
	/* a struct returned in memory: its address comes first */
	reg = strncmp(cls, "struct", 6) == 0 && atoi(cls + 6) > 16 && abi->sretreg;
	k = 0;
	if (dwarf_child(f, &p) == 0)
		do {
			if (dwarf_tag(&p) != DW_TAG_formal_parameter)
				continue;
			k++;
			typeclass(&p, abi, cls, sizeof cls, &regs, &shown);
			word = 0;
			if (reg < 0 || regs < 0)
				reg = -1;	/* unknown from here on */
			else if (regs > 0 && reg + regs <= abi->nregs) {
				word = shown && reg + regs <= Nwords ? reg + 1 : 0;
				reg += regs;
			} else if (regs > 0 && abi->bigref == 0)
				;	/* not enough registers left: in memory, and the next integer argument takes the register */
			else if (regs > 0)
				reg = abi->nregs;
			name = dwarf_diename(&p);
			if (name)
				fprintf(out, " %s:%s:%d", name, cls, word);
			else
				fprintf(out, " arg%d:%s:%d", k, cls, word);
		} while (dwarf_siblingof(&p, &p) == 0);
	fprintf(out, "\n");
}

/* e calls __cyg_profile_func_enter (devtrace-cc --classic): its records hold no arguments, no return value */
static int
classicobj(Elf *e)
{
	Elf_Scn *s = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Sym sym;
	const char *name;
	size_t i;

	while ((s = elf_nextscn(e, s)) != NULL) {
		if (gelf_getshdr(s, &sh) == NULL || sh.sh_type != SHT_DYNSYM || sh.sh_entsize == 0 || (d = elf_getdata(s, NULL)) == NULL)
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++)
			if (gelf_getsym(d, i, &sym) != NULL && sym.st_shndx == SHN_UNDEF &&
			    (name = elf_strptr(e, sh.sh_link, sym.st_name)) != NULL && strcmp(name, "__cyg_profile_func_enter") == 0)
				return 1;
	}
	return 0;
}

/*
 * the lines of path's functions to out: 0, or -1 (told, as "WHO: ...")
 * if it cannot be read; an object without DWARF has no lines (1), nor
 * has a classic build's, whose records carry no values to name (1)
 */
int
objsigs(const char *path, FILE *out, const char *who)
{
	Dwarf *dw;
	Dwarf_Off off, next;
	size_t hsize;
	Dwarf_Die cu, f;
	GElf_Ehdr eh;
	const Abi *abi = NULL;
	size_t i;
	int fd, rc = 1;

	if ((fd = open(path, O_RDONLY|O_CLOEXEC)) < 0) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return -1;
	}
	if ((dw = dwarf_begin(fd, DWARF_C_READ)) == NULL) {
		close(fd);
		return 1;
	}
	if (gelf_getehdr(dwarf_getelf(dw), &eh) != NULL && !classicobj(dwarf_getelf(dw)))
		for (i = 0; i < sizeof abis / sizeof abis[0]; i++)
			if (abis[i].machine == eh.e_machine)
				abi = &abis[i];
	for (off = 0; abi && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next) {
		if (dwarf_offdie(dw, off + hsize, &cu) == NULL || dwarf_child(&cu, &f) != 0)
			continue;
		do
			/* a function with code here: declarations and inline-only ones have no entry to trace */
			if (dwarf_tag(&f) == DW_TAG_subprogram && (dwarf_hasattr(&f, DW_AT_low_pc) || dwarf_hasattr(&f, DW_AT_ranges)) && dwarf_diename(&f)) {
				funcline(&f, abi, out);
				rc = 0;
			}
		while (dwarf_siblingof(&f, &f) == 0);
	}
	dwarf_end(dw);
	close(fd);
	return rc;
}

/*
 * the lines of the objects the symbol file syms names (its third column),
 * from byte from on, each object once: 0, or -1 if syms cannot be read
 */
int
symsigs(const char *syms, long from, FILE *out, const char *who)
{
	char line[4096], obj[4096], seen[64][256];
	int nseen = 0, i;
	FILE *f;

	if ((f = fopen(syms, "r")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", who, syms, strerror(errno));
		return -1;
	}
	if (fseek(f, from, SEEK_SET) < 0) {
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%*s %*s %4095s", obj) != 1)
			continue;
		for (i = 0; i < nseen && strcmp(seen[i], obj) != 0; i++)
			;
		if (i < nseen || nseen == (int)(sizeof seen / sizeof seen[0]) || strlen(obj) >= sizeof seen[0])
			continue;
		snprintf(seen[nseen++], sizeof seen[0], "%s", obj);
		objsigs(obj, out, who);
	}
	fclose(f);
	return 0;
}

/*
 * the names of path's defined functions, its symbol table's (the
 * dynamic one if it has none), one a line: those its DWARF may lack.
 * 0, or -1 if it cannot be read as ELF
 */
int
objfuncs(const char *path, FILE *out)
{
	Elf *e;
	Elf_Scn *s = NULL, *dyn = NULL, *tab = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Sym sym;
	const char *name;
	size_t i, n;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE || (fd = open(path, O_RDONLY|O_CLOEXEC)) < 0)
		return -1;
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) == NULL) {
		close(fd);
		return -1;
	}
	while ((s = elf_nextscn(e, s)) != NULL)
		if (gelf_getshdr(s, &sh) != NULL && sh.sh_type == SHT_SYMTAB)
			tab = s;
		else if (gelf_getshdr(s, &sh) != NULL && sh.sh_type == SHT_DYNSYM)
			dyn = s;
	if (tab == NULL)
		tab = dyn;
	if (tab && gelf_getshdr(tab, &sh) != NULL && sh.sh_entsize > 0 && (d = elf_getdata(tab, NULL)) != NULL) {
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++)
			if (gelf_getsym(d, i, &sym) != NULL && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF &&
			    (name = elf_strptr(e, sh.sh_link, sym.st_name)) != NULL && *name)
				fprintf(out, "%s\n", name);
	}
	elf_end(e);
	close(fd);
	return 0;
}
