/* state.c: devtrace state, cat tracectl through the shared memory */
#include <string.h>
#include "cmd/client.h"

int
xstate(Cmd *c, int argc, char **argv)
{
	char *st;
	Shm *s;

	noargs(c, argc, argv);
	s = attach();
	st = stateget(s, "devtrace state");
	shmunmap(s);
	return st == NULL || writeall(1, st, strlen(st)) < 0;
}
