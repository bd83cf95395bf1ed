/* stop.c: devtrace stop, the server stopped and waited for */
#include <errno.h>
#include <string.h>
#include "cmd/client.h"

int
xstop(Cmd *c, int argc, char **argv)
{
	int pid;

	noargs(c, argc, argv);
	if ((pid = livepid(clientdir())) == 0) {
		fprintf(stderr, "devtrace: no devtraced serves %s\n", clientdir());
		return 1;
	}
	switch (stopserver(pid)) {
	case 0:
		return 0;
	case -1:
		fprintf(stderr, "devtrace: kill %d: %s\n", pid, strerror(errno));
		return 1;
	}
	fprintf(stderr, "devtrace: devtraced pid %d did not stop in %d s\n", pid, Stopwait / 1000);
	return 1;
}
