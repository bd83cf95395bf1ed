/*
 * enc: an arm64 site and stub page as arch/arm64/site.c makes them,
 * written to files for a disassembler (enc.bats).  Built for the host:
 * the encoding is arithmetic on addresses, the same on any LP64 build.
 *	enc SLED PAGE FIRST N I DIR
 * makes in DIR/page.bin the stub page at address PAGE (stubs for sites
 * FIRST..FIRST+N-1, entry 0x1122334455667788), and in DIR/off.bin and
 * DIR/on.bin the sled at address SLED that calls stub I, off and on.
 */
#include <stdio.h>
#include <stdlib.h>
#include "arch/arch.h"

static void
put(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	uintptr_t sled, page;
	uint32_t first, n, i;
	uint8_t *buf, code[Sledlen];
	size_t size;

	if (argc != 7) {
		fprintf(stderr, "usage: enc SLED PAGE FIRST N I DIR\n");
		return 2;
	}
	sled = strtoull(argv[1], NULL, 16);
	page = strtoull(argv[2], NULL, 16);
	first = strtoul(argv[3], NULL, 0);
	n = strtoul(argv[4], NULL, 0);
	i = strtoul(argv[5], NULL, 0);
	size = Stubhdr + (size_t)n * Stublen;
	/* page-aligned as the runtime's (mmap): the stubs' adrp deltas are then as at PAGE */
	if ((buf = aligned_alloc(4096, (size + 4095) & ~(size_t)4095)) == NULL)
		return 1;
	archstubs(buf, first, n, 0x1122334455667788ull, 0);
	put(argv[6], "page.bin", buf, size);
	archsledmake(code, sled, page + Stubhdr + (uintptr_t)i * Stublen);
	put(argv[6], "off.bin", code, Sledlen);
	archflip(code, 1);
	put(argv[6], "on.bin", code, Sledlen);
	printf("reach %d %d\n", archreach(sled, page + Stubhdr + (uintptr_t)i * Stublen), archreach(sled, sled + (1u << 27)));
	return 0;
}
