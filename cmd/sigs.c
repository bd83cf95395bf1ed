/* sigs.c: devtrace sigs, the functions' signatures from the objects' DWARF (dwarf.c) */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include "cmd/client.h"

int
xsigs(Cmd *c, int argc, char **argv)
{
	char path[PATH_MAX];
	int i, rc = 0;

	while (nextopt(c, argc, argv, "+") != -1)
		;
	if (optind == argc) {
		/* the objects of the attached processes, as the symbol file names them */
		shmunmap(attach());	/* exits unless a server serves the directory */
		if (shmpath(clientdir(), ".syms", path, sizeof path) < 0) {
			fprintf(stderr, "devtrace: no symbol file for %s\n", clientdir());
			return 1;
		}
		return symsigs(path, 0, stdout, "devtrace sigs") < 0;
	}
	for (i = optind; i < argc; i++)
		switch (objsigs(argv[i], stdout, "devtrace sigs")) {
		case -1:
			rc = 1;
			break;
		case 1:
			fprintf(stderr, "devtrace sigs: %s: no debug information (build it with -g)\n", argv[i]);
			break;
		}
	return rc;
}
