/* site.c: amd64 site and stub encoding (see site.h, arch/arch.h). */
#include <string.h>
#include "arch/arch.h"

enum { Endbrlen = 4 };

/* the NOPs GCC (seven 90s) and Clang (one 7-byte nopl) leave, and the other recommended forms */
static const uint8_t nops[][8] = {
	{ 1, 0x90 },
	{ 2, 0x66, 0x90 },
	{ 3, 0x0f, 0x1f, 0x00 },
	{ 4, 0x0f, 0x1f, 0x40, 0x00 },
	{ 5, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 6, 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 7, 0x0f, 0x1f, 0x80 },	/* nopl disp32(%rax): any displacement */
};

int
archsledfresh(const uint8_t *p)
{
	int i, n, k, off = 0;

	while (off < Sledlen) {
		for (i = 0; i < (int)(sizeof nops / sizeof nops[0]); i++) {
			n = nops[i][0];
			if (off + n > Sledlen)
				continue;
			k = n == 7 ? 3 : n;
			if (memcmp(p + off, nops[i] + 1, k) == 0)
				break;
		}
		if (i == (int)(sizeof nops / sizeof nops[0]))
			return 0;
		off += nops[i][0];
	}
	return 1;
}

/* an endbr64 in front of the sled (-fcf-protection): the function starts there */
int
archpad(const uint8_t *sled, uintptr_t lo)
{
	const uint8_t *p = sled - Endbrlen;

	if ((uintptr_t)sled - Endbrlen < lo)
		return 0;
	return p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa ? Endbrlen : 0;
}

static uint8_t
flipbyte(int on)
{
	return on ? 0x00 : 0x05;
}

/* one byte: a thread running the site sees the old jump or the new one, never a mix */
void
archflip(uint8_t *sled, int on)
{
	__atomic_store_n(sled + Flipoff, flipbyte(on), __ATOMIC_RELAXED);
}

int
archreach(uintptr_t from, uintptr_t to)
{
	int64_t d = (int64_t)(to - from);

	return d >= INT32_MIN && d <= INT32_MAX;
}

static void
put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

void
archsledmake(uint8_t out[Sledlen], uintptr_t sled, uintptr_t stub)
{
	out[0] = 0xeb;
	out[1] = flipbyte(0);
	out[2] = 0xe8;
	put32(out + 3, (uint32_t)(stub - (sled + Sledlen)));
}

/* a probe site: its jump to its stub */
void
archprobemake(uint8_t out[Sledlen], uintptr_t sled, uintptr_t stub)
{
	out[0] = 0xeb;
	out[1] = flipbyte(0);
	out[2] = 0xe9;
	put32(out + 3, (uint32_t)(stub - (sled + Sledlen)));
}

static const uint8_t probecode[Probestublen] = {
	0x48, 0x8d, 0x64, 0x24, 0x80,			/* lea -128(%rsp), %rsp: over the red zone */
	0x41, 0xbb, 0, 0, 0, 0,				/* mov $site, %r11d */
	0xff, 0x15, 0, 0, 0, 0,				/* call *probe(%rip) */
	0x48, 0x8d, 0xa4, 0x24, 0x80, 0, 0, 0,		/* lea 128(%rsp), %rsp */
	0xe9, 0, 0, 0, 0,				/* jmp back */
	0xcc, 0xcc,
};

/* the stub of probe site at s in page: back is where the site's code goes on */
void
archprobestub(uint8_t *s, const uint8_t *page, uint32_t site, uintptr_t back)
{
	memcpy(s, probecode, Probestublen);
	put32(s + 7, site);
	put32(s + 13, (uint32_t)((uintptr_t)page + 8 - (uintptr_t)(s + 17)));
	put32(s + 26, (uint32_t)(back - (uintptr_t)(s + 30)));
}

void
archstubs(uint8_t *page, uint32_t first, uint32_t n, uintptr_t entry, uintptr_t probe)
{
	uint8_t *s;
	uint32_t i;

	memset(page, 0xcc, Stubhdr + (size_t)n * Stublen);
	memcpy(page, &entry, 8);
	memcpy(page + 8, &probe, 8);
	for (i = 0; i < n; i++) {
		s = page + Stubhdr + (size_t)i * Stublen;
		s[0] = 0x41;	/* mov $imm32, %r11d */
		s[1] = 0xbb;
		put32(s + 2, first + i);
		s[6] = 0xff;	/* jmp *rel32(%rip) */
		s[7] = 0x25;
		put32(s + 8, (uint32_t)((uintptr_t)page - (uintptr_t)(s + 12)));
	}
}
