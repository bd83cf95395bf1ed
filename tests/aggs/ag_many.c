/* ag_many n go: wait for the file go ("-": don't), print the pid, then call ag_key(i) for i in 0..n-1 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long ag_key(long i) { return i; }

int
main(int argc, char **argv)
{
	long n, i, s = 0;

	if (argc != 3)
		return 2;
	n = atol(argv[1]);
	if (strcmp(argv[2], "-") != 0)
		while (access(argv[2], F_OK) != 0)
			usleep(1000);
	printf("%d\n", getpid());
	fflush(stdout);
	for (i = 0; i < n; i++)
		s += ag_key(i);
	return s < 0;
}
