/* syms.c: devtrace syms, the symbol file the attached processes append to */
#include <limits.h>
#include <stdio.h>
#include "cmd/client.h"

int
xsyms(Cmd *c, int argc, char **argv)
{
	char path[PATH_MAX], buf[8192];
	size_t n;
	FILE *f;

	noargs(c, argc, argv);
	attach();
	if (shmpath(clientdir(), ".syms", path, sizeof path) < 0 || (f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "devtrace: no symbol file for %s\n", clientdir());
		return 1;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (writeall(1, buf, n) < 0)
			return 1;
	fclose(f);
	return 0;
}
