/* start.c: devtrace start; the options after start are devtraced's: it judges them */
#include <string.h>
#include "cmd/client.h"

int
xstart(Cmd *c, int argc, char **argv)
{
	int i, pid;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cmdusage(c, stdout);
			printf("options, passed to devtraced:\n");
			fflush(stdout);
			return spawn((char *[]){ "--help" }, 1);
		}
	if ((pid = livepid(clientdir())) > 0) {
		fprintf(stderr, "devtrace: devtraced pid %d already serves %s\n", pid, clientdir());
		return 0;
	}
	return spawn(argv + 1, argc - 1);
}
