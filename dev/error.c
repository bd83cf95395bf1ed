/*
 * error.c: the errno and the text of each refusal (error.h).
 */
#include "dev/error.h"

static const struct {
	int no;
	const char *text;
} errors[Nerror] = {
	[Errnone] = { 0, "" },
#define X(name, no, text)	[name] = { no, text },
	ERRORS(X)
#undef X
};

int
errnum(int e)
{
	return e >= 0 && e < Nerror ? errors[e].no : Einval;
}

const char *
errtext(int e)
{
	return e >= 0 && e < Nerror ? errors[e].text : "";
}
