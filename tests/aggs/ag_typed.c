/*
 * ag_typed: calls whose argument and return types the aggregations'
 * keys show: a signed int that is negative, an enum (a value without a
 * name too), a bool, a char; an unsigned long past 2^63, a pointer.
 */
#include <stdbool.h>

enum mode { OFF, SLOW, FAST = 7 };

__attribute__((noinline)) int
ty_move(int delta, enum mode m, bool on, char tag)
{
	return on ? delta : -delta - m - tag;
}

__attribute__((noinline)) long
ty_count(unsigned long n, char *p)
{
	return (long)n + (p != 0);
}

int
main(void)
{
	int i, r = 0;

	/* delta -2 -1 0 -2 -1 0, m OFF FAST OFF FAST OFF FAST, on at 0 and 3, tag a b a b a b */
	for (i = 0; i < 6; i++)
		r += ty_move(i % 3 - 2, i % 2 ? FAST : OFF, i % 3 == 0, "ab"[i % 2]);
	r += ty_move(4, (enum mode)3, true, '\n');
	r += ty_count(~0UL, (char *)0x1000) + ty_count(7, (char *)0x1000);
	return r & 1;
}
