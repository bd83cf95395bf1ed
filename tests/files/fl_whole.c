/* fl_whole: fl_step(flags) for flags 1..6, each returning flags * 10 + 1: calls a predicate on flags keeps or drops whole */
#include <stdio.h>

__attribute__((noinline)) int
fl_step(int flags)
{
	return flags * 10 + 1;
}

int
main(void)
{
	int flags, sum = 0;

	for (flags = 1; flags <= 6; flags++)
		sum += fl_step(flags);
	printf("%d\n", sum);
	return 0;
}
