/*
 * fl_pair client n | fl_pair server: a request k = 1..n crosses a pipe.
 * The tags tell the two sides' records apart; fl_serve's return is 2k.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Tagsend = 0x5e4d, Tagserve = 0x5e4e };

__attribute__((noinline)) long
fl_send(long k, long tag)
{
	printf("%ld\n", k);
	fflush(stdout);
	return tag;
}

__attribute__((noinline)) long
fl_serve(long k, long tag)
{
	return tag ? 2 * k : 0;
}

int
main(int argc, char **argv)
{
	long k, n, total = 0;

	if (argc == 3 && strcmp(argv[1], "client") == 0) {
		n = atol(argv[2]);
		for (k = 1; k <= n; k++)
			fl_send(k, Tagsend);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "server") == 0) {
		while (scanf("%ld", &k) == 1)
			total += fl_serve(k, Tagserve);
		printf("%ld\n", total);
		return 0;
	}
	fprintf(stderr, "usage: fl_pair client n | fl_pair server\n");
	return 2;
}
