/*
 * fl_types.c: one function of each type class that devtrace sigs tells,
 * each with fewer than four arguments, called with values whose words
 * would show a wrong width or sign (neg's -4, add's 2^64-1).
 */
#include <stdbool.h>

enum color { RED, GREEN, BLUE = 7 };
struct pair { long a, b; };

int neg(int x) { return x - 1; }
unsigned long add(unsigned long x, unsigned short y) { return x + y; }
char *next(char *p) { return p + 1; }
char upper(char c) { return c - 32; }
bool flip(bool b) { return !b; }
enum color paint(enum color c) { return c == RED ? BLUE : RED; }
long sum(struct pair p, signed char k) { return p.a + p.b + k; }
double half(double d, int n) { return d / 2 + n; }
void nothing(void) { }

int
main(void)
{
	struct pair p = { 1, 2 };

	nothing();
	return neg(-4) + (int)add(~0UL, 2) + (next((char *)0x1000) != 0) + upper('a') +
		flip(false) + paint(GREEN) + (int)sum(p, -3) + (int)half(3.0, 1);
}
