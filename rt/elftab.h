/*
 * elftab.h: reading an object's file into a table (rt/elftab.c), apart
 * from the runtime's state so that tests/fuzz/fuzz_elf.c can feed it
 * hostile files.  Needs rt/rt.h (Sym, Sledlen, Maxchunk, Chunk) first.
 */
#include <libelf.h>
#include <link.h>

typedef struct Elftab Elftab;
struct Elftab {
	uint64_t *ent;		/* sites: run-time addresses, sorted, distinct, not 0, each
				 * Sledlen bytes inside a PT_LOAD with PF_X */
	size_t nent;
	Sym *sym;		/* function symbols: sorted by pc, one per pc (global first) */
	size_t nsym;
	char *names;		/* the symbols' string table, copied, with a NUL after it */
	size_t namesz;		/* its size, that NUL included */
	Probe *probe;		/* static probes: sites in executable code, sorted, distinct */
	size_t nprobe;
	char *pnames;		/* their names, copied from the devtrace_probes sections */
	int classic;		/* the dynamic symbols ask for __cyg_profile_func_enter */
	const char *err;	/* why the file was refused, or nil */
};

/*
 * n bytes at run-time address a, or nil: the runtime gives the loaded
 * memory itself (the loader relocated the site addresses there), the
 * fuzz harness the file bytes a PT_LOAD puts at a.
 */
typedef const void *Elfat(void *arg, uintptr_t a, size_t n);

enum { Maxsites = Maxchunk * Chunk };	/* the most sites the runtime can hold */

int	elftab(Elf *e, const ElfW(Phdr) *ph, size_t phnum, uintptr_t bias, Elfat *at, void *arg, Elftab *t) HIDDEN;
void	elftabfree(Elftab *t) HIDDEN;
