/* status.c: devtrace status, whether a server serves the device */
#include "cmd/client.h"

int
xstatus(Cmd *c, int argc, char **argv)
{
	int pid;

	noargs(c, argc, argv);
	if ((pid = livepid(clientdir())) == 0) {
		printf("no devtraced serves %s\n", clientdir());
		return 1;
	}
	printf("devtraced pid %d serves %s\n", pid, clientdir());
	return 0;
}
