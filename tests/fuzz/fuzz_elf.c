/*
 * fuzz_elf: libFuzzer over the runtime's reading of an object's file
 * (rt/elftab.c), with ASan and UBSan: the input is the file, opened with
 * elf_memory (libelf itself is not instrumented: only our reads are
 * checked); the program headers given to the reader are the input's
 * own, as dl_iterate_phdr would give them, at a load bias; the "loaded
 * memory" the sites' addresses are read from is the file bytes a
 * PT_LOAD puts there.  Checks on the table:
 *	- the reader asks for the bytes of readable segments only (the
 *	  runtime reads the loaded object itself);
 *	- every site lies, with its Sledlen bytes, inside a PT_LOAD with
 *	  PF_X; the sites are sorted and distinct, none is 0;
 *	- the symbols are sorted by pc and distinct; every name is inside
 *	  the table's copy of the string table and ends in a NUL of the
 *	  file's table (not the one the copy adds after it);
 *	- no more sites than the __patchable_function_entries sections
 *	  hold (their union: overlapping sections count once; at most
 *	  Maxsites), no more symbols than a symbol table holds, no more
 *	  name bytes than a string table's size;
 *	- no allocation while reading beyond a bound from those sizes:
 *	  the live bytes (ASan's malloc hooks) stay under 16 times the
 *	  input plus 8 bytes per site the sections hold, plus 64 KiB;
 *	- a refusal leaves an empty table.
 */
#include <gelf.h>
#include <sanitizer/allocator_interface.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt.h"
#include "rt/elftab.h"

#define check(x)	do { if (!(x)) __builtin_trap(); } while (0)

enum { Bias = 0x555555554000 };	/* where a loader puts a PIE */

typedef struct Img Img;
struct Img {
	const unsigned char *b;
	size_t n;
	const ElfW(Phdr) *ph;
	size_t phnum;
	uintptr_t bias;
	uint64_t *rel;		/* the last bytes fileat relocated */
};

static int counting;
static size_t live, peak;

static void
mallochook(const volatile void *p, size_t n)
{
	(void)p;
	if (counting && (live += n) > peak)
		peak = live;
}

static void
freehook(const volatile void *p)
{
	if (counting && p)
		live -= __sanitizer_get_allocated_size((const void *)p);
}

/* is [a, a+n) inside a PT_LOAD with flags (compared without overflow)? */
static int
inload(const Img *m, uint64_t a, uint64_t n, unsigned flags)
{
	uint64_t lo;
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const ElfW(Phdr) *p = &m->ph[i];
		lo = m->bias + p->p_vaddr;
		if (p->p_type == PT_LOAD && (p->p_flags & flags) == flags && lo + p->p_memsz >= lo &&
		    a >= lo && a - lo < p->p_memsz && n <= p->p_memsz - (a - lo))
			return 1;
	}
	return 0;
}

/*
 * The file bytes a PT_LOAD puts at run-time address a (its p_filesz
 * part).  The runtime reads the loaded object there: the reader must ask
 * only for bytes of a readable segment.
 */
static const void *
fileat(void *arg, uintptr_t a, size_t n)
{
	Img *m = arg;
	uint64_t lo, off;
	size_t i;

	check(inload(m, a, n, PF_R));
	for (i = 0; i < m->phnum; i++) {
		const ElfW(Phdr) *p = &m->ph[i];
		if (p->p_type != PT_LOAD)
			continue;
		lo = m->bias + p->p_vaddr;
		off = a - lo;
		if (a < lo || off >= p->p_filesz || n > p->p_filesz - off)
			continue;
		if (p->p_offset > m->n || off > m->n - p->p_offset || n > m->n - p->p_offset - off)
			continue;
		if (m->bias == 0 || n % 8 != 0)
			return m->b + p->p_offset + off;
		/* as the loader's R_*_RELATIVE do to the words of a PIE: + bias (not counted) */
		counting = 0;
		free(m->rel);
		m->rel = malloc(n ? n : 1);
		counting = 1;
		if (m->rel == NULL)
			return NULL;
		memcpy(m->rel, m->b + p->p_offset + off, n);
		for (i = 0; i < n / 8; i++)
			m->rel[i] += m->bias;
		return m->rel;
	}
	return NULL;
}

typedef struct Rng Rng;
struct Rng {
	uint64_t lo, n;
};

static int
rngcmp(const void *a, const void *b)
{
	const Rng *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* words in the union of the sections' ranges (overlapping sections hold them once) */
static uint64_t
union8(Rng *r, size_t n)
{
	uint64_t w = 0, end = 0, hi;
	size_t i;

	qsort(r, n, sizeof *r, rngcmp);
	for (i = 0; i < n; i++) {
		hi = r[i].lo + r[i].n < r[i].lo ? UINT64_MAX : r[i].lo + r[i].n;
		if (i == 0 || r[i].lo >= end) {
			w += r[i].n / 8;
			end = hi;
		} else if (hi > end) {
			w += (hi - end + 7) / 8;
			end = hi;
		}
	}
	return w;
}

typedef struct Bound Bound;
struct Bound {
	uint64_t ent;		/* words in the __patchable_function_entries sections, at most Maxsites */
	uint64_t sym;		/* entries of the largest symbol table */
	uint64_t str;		/* bytes of the largest string table */
	uint64_t size;		/* of the input */
};

/* read e at m->bias and check the table */
static void
readcheck(Elf *e, Img *m, const Bound *b)
{
	uint64_t bound;
	Elftab t;
	size_t i;
	int r;

	live = peak = 0;
	counting = 1;
	r = elftab(e, m->ph, m->phnum, m->bias, fileat, m, &t);
	counting = 0;

	/* FUZZ_ELF_SHOW=1: what was read, to see that the seeds reach the sites */
	if (getenv("FUZZ_ELF_SHOW"))
		fprintf(stderr, "fuzz_elf: %d: %zu sites, %zu symbols, classic %d, %zu of %zu bytes peak%s%s\n", r,
		    t.nent, t.nsym, t.classic, peak, b->size, t.err ? ": " : "", t.err ? t.err : "");
	check(r == 0 || r == 1);
	if (r == 0)
		check(t.nent == 0 && t.ent == NULL && t.nsym == 0 && t.sym == NULL && t.names == NULL);
	check(t.classic == 0 || t.classic == 1);
	check(t.nent <= b->ent);
	for (i = 0; i < t.nent; i++) {
		check(t.ent[i] != 0);
		check(inload(m, t.ent[i], Sledlen, PF_X));
		check(i == 0 || t.ent[i - 1] < t.ent[i]);
	}
	check(t.nsym <= b->sym);
	check(t.nsym == 0 || (t.namesz >= 2 && t.namesz - 1 <= b->str && t.namesz - 1 <= b->size));
	for (i = 0; i < t.nsym; i++) {
		check(i == 0 || t.sym[i - 1].pc < t.sym[i].pc);
		check(t.sym[i].name >= t.names && t.sym[i].name < t.names + t.namesz);
		check(*t.sym[i].name != 0);
		/* ends before the NUL the copy adds: inside the file's string table */
		check(memchr(t.sym[i].name, 0, t.names + t.namesz - 1 - t.sym[i].name) != NULL);
	}
	bound = 16 * b->size + 8 * b->ent + (64 << 10);
	check(peak <= bound);
	elftabfree(&t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;
	unsigned char *buf;
	Bound b = { 0, 0, 0, size };
	Rng r[4096];
	size_t nr = 0;
	ElfW(Phdr) *ph = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	GElf_Phdr p;
	size_t n = 0, i, shstr;
	const char *name;
	Img m;
	Elf *e;

	memset(&eh, 0, sizeof eh);
	if (!once) {
		check(elf_version(EV_CURRENT) != EV_NONE);
		__sanitizer_install_malloc_and_free_hooks(mallochook, freehook);
		once = 1;
	}
	/* a copy of exactly the input's size: ASan sees any read past it */
	if ((buf = malloc(size ? size : 1)) == NULL)
		return 0;
	memcpy(buf, data, size);
	if ((e = elf_memory((char *)buf, size)) == NULL) {
		free(buf);
		return 0;
	}
	/* the program headers as the loader reports them: the input's own */
	if (gelf_getehdr(e, &eh) != NULL && elf_getphdrnum(e, &n) == 0 && n > 0 && n < 65536 &&
	    (ph = calloc(n, sizeof *ph)) != NULL)
		for (i = 0; i < n; i++)
			if (gelf_getphdr(e, i, &p) != NULL) {
				ph[i].p_type = p.p_type;
				ph[i].p_flags = p.p_flags;
				ph[i].p_offset = p.p_offset;
				ph[i].p_vaddr = p.p_vaddr;
				ph[i].p_paddr = p.p_paddr;
				ph[i].p_filesz = p.p_filesz;
				ph[i].p_memsz = p.p_memsz;
				ph[i].p_align = p.p_align;
			}
	if (ph == NULL)
		n = 0;
	m = (Img){ buf, size, ph, n, 0, NULL };
	/* the bounds, from the section headers */
	if (elf_getshdrstrndx(e, &shstr) != 0)
		shstr = 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		name = elf_strptr(e, shstr, sh.sh_name);
		if (name && strcmp(name, "__patchable_function_entries") == 0 && sh.sh_size >= 8 &&
		    nr < sizeof r / sizeof r[0]) {
			r[nr].lo = sh.sh_addr;
			r[nr++].n = sh.sh_size / 8 * 8;
		}
		if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) && sh.sh_entsize > 0 &&
		    sh.sh_size / sh.sh_entsize > b.sym)
			b.sym = sh.sh_size / sh.sh_entsize;
		if (sh.sh_type == SHT_STRTAB && sh.sh_size > b.str)
			b.str = sh.sh_size;
	}
	b.ent = nr < sizeof r / sizeof r[0] ? union8(r, nr) : UINT64_MAX;
	if (b.ent > Maxsites)
		b.ent = Maxsites;

	/* at bias 0 the file's words are the run-time ones; a PIE also where a loader puts it */
	readcheck(e, &m, &b);
	if (eh.e_type == ET_DYN) {
		m.bias = Bias;
		readcheck(e, &m, &b);
	}
	free(m.rel);
	elf_end(e);
	free(ph);
	free(buf);
	return 0;
}
