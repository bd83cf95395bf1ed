/*
 * fx_exec: the new image attaches again.  The first image calls
 * before(1) and execs itself with "again"; the second calls after(2).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long
before(long x)
{
	return x + 100;
}

__attribute__((noinline)) long
after(long x)
{
	return x + 200;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "again") == 0) {
		printf("after %ld\n", after(2));
		return 5;
	}
	printf("before %ld\n", before(1));
	fflush(stdout);
	execl("/proc/self/exe", argv[0], "again", (char *)NULL);
	perror("exec");
	return 1;
}
