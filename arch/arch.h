/*
 * arch.h: what the runtime (rt/) asks of an ISA.  Each arch/<isa>/
 * implements every function here, and gives in its site.h the sizes
 * and offsets below as constants; nothing outside arch/ knows the ISA.
 *
 * A site is Sledlen bytes at a function's entry, left by the compiler
 * as NOPs (-fpatchable-function-entry) and made once, while the process
 * is single-threaded, into a skip-branch in front of a call to the
 * site's own stub: off skips the call, on runs it.  Switching a site
 * is one aligned store (archflip) of the Fliplen bytes at Flipoff.
 * The stub (Stublen bytes, after a Stubhdr-byte page header) gives the
 * site's number to devtrace_entry.
 *
 * A probe site (arch/probe.h) is the same Sledlen bytes of NOPs,
 * anywhere in a function, made and switched the same way; its stub
 * (Probestublen bytes, after the functions' stubs) gives its number to
 * devtrace_probe, the stub page header's second entry, and goes back
 * behind the site: the function's registers are kept but the few that
 * arch/probe.h names.
 *
 * site.h gives: Sledlen, Flipoff, Fliplen, Stublen, Stubhdr, and the
 * trampolines' save areas as the hooks index them: Rarg0 (first of
 * four integer arguments), Rret (the integer return value).
 */
#ifndef DEVTRACE_ARCH_H
#define DEVTRACE_ARCH_H
#include <stddef.h>
#include <stdint.h>
#include "site.h"

/* code.c: site and stub encoding */
int	archsledfresh(const uint8_t *p);	/* Sledlen bytes of NOPs, as a compiler leaves them */
int	archpad(const uint8_t *sled, uintptr_t lo);	/* bytes of the landing pad (endbr64, bti c) just before sled, none below lo; 0: none */
void	archsledmake(uint8_t out[Sledlen], uintptr_t sled, uintptr_t stub);	/* the off-state bytes */
void	archflip(uint8_t *sled, int on);	/* the one store that switches a made site (writable already) */
int	archreach(uintptr_t from, uintptr_t to);	/* a site's call at from can reach to */
void	archstubs(uint8_t *page, uint32_t first, uint32_t n, uintptr_t entry, uintptr_t probe);	/* header and n stubs */
void	archprobemake(uint8_t out[Sledlen], uintptr_t sled, uintptr_t stub);	/* a probe site's off-state bytes */
void	archprobestub(uint8_t *s, const uint8_t *page, uint32_t site, uintptr_t back);	/* a probe's stub (Probestublen bytes) */

/* code.c: cross-modifying code */
void	archicache(void *p, size_t n);	/* after a store to code at p: this CPU fetches what was stored */
void	archxsync(void);	/* without membarrier sync-core: what else makes other CPUs run the stored code */

/* jmpbuf.c: the C library's jump buffer */
uintptr_t	archjmpsp(const void *jb);	/* the stack pointer a longjmp to jb resumes with */

/* tramp.S: the trampolines, entered from the stubs and from redirected returns */
void	devtrace_entry(void);
void	devtrace_return(void);
void	devtrace_probe(void);

#endif
