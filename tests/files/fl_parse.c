/*
 * fl_parse expr [status]: evaluate digits, + and * by recursive descent,
 * print the value, exit with status.  The parse_* functions nest three
 * deep; arg0 of each is where in expr its call began.
 */
#include <stdio.h>
#include <stdlib.h>

static const char *src;
static long pos;

__attribute__((noinline)) long
parse_num(long at)
{
	long v = 0;

	for (pos = at; src[pos] >= '0' && src[pos] <= '9'; pos++)
		v = v * 10 + src[pos] - '0';
	return v;
}

__attribute__((noinline)) long
parse_term(long at)
{
	long v = parse_num(at);

	while (src[pos] == '*')
		v *= parse_num(pos + 1);
	return v;
}

__attribute__((noinline)) long
parse_expr(long at)
{
	long v = parse_term(at);

	while (src[pos] == '+')
		v += parse_term(pos + 1);
	return v;
}

__attribute__((noinline)) long
print_value(long v)
{
	printf("%ld\n", v);
	return v;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fl_parse expr [status]\n");
		return 2;
	}
	src = argv[1];
	print_value(parse_expr(0));
	return argc > 2 ? atoi(argv[2]) : 0;
}
