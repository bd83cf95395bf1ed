/* site.c: arm64 site and stub encoding (see site.h, arch/arch.h). */
#include <string.h>
#include "arch/arch.h"

enum {
	Insn = 4,
	Nop = 0xd503201f,
	Btic = 0xd503245f,	/* bti c: a landing pad for calls (-mbranch-protection=bti) */
	Btijc = 0xd50324df,	/* bti jc */
	Bover = 0x14000000 | Sledlen / Insn,	/* b .+Sledlen: over the call */
	Movx9lr = 0xaa1e03e9,	/* mov x9, x30 */
	Bl = 0x94000000,
	Movzw16 = 0x52800010,	/* movz w16, #imm16 */
	Movkw16 = 0x72a00010,	/* movk w16, #imm16, lsl 16 */
	Adrpx17 = 0x90000011,	/* adrp x17, page */
	Ldrx17 = 0xf9400231,	/* ldr x17, [x17] */
	Brx17 = 0xd61f0220,	/* br x17 */
	Ldrx17e = 0xf9400631,	/* ldr x17, [x17, #8] */
	Blrx17 = 0xd63f0220,	/* blr x17 */
	Stpfp = 0xa9bf7bfd,	/* stp x29, x30, [sp, #-16]! */
	Ldpfp = 0xa8c17bfd,	/* ldp x29, x30, [sp], #16 */
	B = 0x14000000,
	Brk = 0xd4200000,	/* brk #0: what is no stub */
	Reach = 1 << 27,	/* bl: +-128 MiB */
};

static uint32_t
get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* GCC and Clang both leave plain NOPs */
int
archsledfresh(const uint8_t *p)
{
	int i;

	for (i = 0; i < Sledlen; i += Insn)
		if (get32(p + i) != Nop)
			return 0;
	return 1;
}

/* a bti in front of the sled (-mbranch-protection): the function starts there */
int
archpad(const uint8_t *sled, uintptr_t lo)
{
	uint32_t w;

	if ((uintptr_t)sled - Insn < lo)
		return 0;
	w = get32(sled - Insn);
	return w == Btic || w == Btijc ? Insn : 0;
}

static uint32_t
flipword(int on)
{
	return on ? Nop : Bover;
}

/* one aligned word, B or NOP: a thread running the site fetches the old one or the new one */
void
archflip(uint8_t *sled, int on)
{
	__atomic_store_n((uint32_t *)(sled + Flipoff), flipword(on), __ATOMIC_RELAXED);
}

int
archreach(uintptr_t from, uintptr_t to)
{
	int64_t d = (int64_t)(to - from);

	return d >= -Reach && d < Reach;
}

void
archsledmake(uint8_t out[Sledlen], uintptr_t sled, uintptr_t stub)
{
	uintptr_t bl = sled + 2 * Insn;

	put32(out, flipword(0));
	put32(out + Insn, Movx9lr);
	put32(out + 2 * Insn, Bl | (uint32_t)((stub - bl) >> 2 & 0x3ffffff));
}

static uint32_t
branch(uint32_t op, uintptr_t from, uintptr_t to)
{
	return op | (uint32_t)((to - from) >> 2 & 0x3ffffff);
}

/* a probe site: its branch to its stub */
void
archprobemake(uint8_t out[Sledlen], uintptr_t sled, uintptr_t stub)
{
	put32(out, flipword(0));
	put32(out + Insn, branch(B, sled + Insn, stub));
	put32(out + 2 * Insn, Nop);
}

/* adrp's page delta from s to page (<= 0), as its immediate fields */
static uint32_t
adrp(const uint8_t *page, const uint8_t *s)
{
	uint32_t pages = (uint32_t)(((uintptr_t)page >> 12) - ((uintptr_t)s >> 12));

	return Adrpx17 | (pages & 3) << 29 | (pages >> 2 & 0x7ffff) << 5;
}

/* the stub of probe site at s in page: back is where the site's code goes on */
void
archprobestub(uint8_t *s, const uint8_t *page, uint32_t site, uintptr_t back)
{
	put32(s, Stpfp);
	put32(s + 4, Movzw16 | (site & 0xffff) << 5);
	put32(s + 8, Movkw16 | (site >> 16) << 5);
	put32(s + 12, adrp(page, s + 12));
	put32(s + 16, Ldrx17e);
	put32(s + 20, Blrx17);
	put32(s + 24, Ldpfp);
	put32(s + 28, branch(B, (uintptr_t)s + 28, back));
}

/* page is page-aligned (mmap): adrp finds its header from any of its stubs */
void
archstubs(uint8_t *page, uint32_t first, uint32_t n, uintptr_t entry, uintptr_t probe)
{
	uint8_t *s;
	uint32_t i, site;

	memcpy(page, &entry, 8);
	memcpy(page + 8, &probe, 8);
	for (i = 0; i < n; i++) {
		s = page + Stubhdr + (size_t)i * Stublen;
		site = first + i;
		put32(s, Movzw16 | (site & 0xffff) << 5);
		put32(s + 4, Movkw16 | (site >> 16) << 5);
		put32(s + 8, adrp(page, s + 8));
		put32(s + 12, Ldrx17);
		put32(s + 16, Brx17);
	}
}
