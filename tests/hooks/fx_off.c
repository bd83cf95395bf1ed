/*
 * fx_off: a trace turned off, the device stopped, while a traced call
 * is in progress.  slow(x) runs "CMD" (argv[1]) with system(), waits
 * for the runtime to apply it, and returns x+1 through its redirected
 * return.  quick() is called before and after.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *cmd;

__attribute__((noinline)) long
quick(long x)
{
	return x * 2;
}

__attribute__((noinline)) long
slow(long x)
{
	if (system(cmd) != 0)
		printf("command failed\n");
	usleep(600000);
	return x + 1;
}

int
main(int argc, char **argv)
{
	long r;

	cmd = argc > 1 ? argv[1] : "true";
	printf("quick %ld\n", quick(1));
	r = slow(41);
	printf("slow %ld\n", r);
	printf("quick %ld\n", quick(2));
	return 0;
}
