/*
 * error.c: the errno and the text of each refusal (error.h), and the
 * one writer of the last refusal's text (Dev.err).
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"
#include "dev/lib.h"

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

/* Dev.err: "cmd: " (none if cmd is nil), then text */
void
errset(Dev *d, const char *cmd, const char *text)
{
	Buf b = { d->err, d->err + Errmax - 1 };

	if (cmd) {
		bputs(&b, cmd);
		bputs(&b, ": ");
	}
	bputs(&b, text);
	bputnul(&b);
}

/* a refusal: its text in Dev.err after the command's name (if any); its errno */
int
errrefuse(Dev *d, const char *cmd, int e)
{
	errset(d, cmd, errtext(e));
	return errnum(e);
}

/* a refusal that names its range: "cmd: text (lo to hi)", the numbers the code checks against */
int
errbound(Dev *d, const char *cmd, int e, uint64_t lo, uint64_t hi)
{
	Buf b;

	errset(d, cmd, errtext(e));
	b.p = d->err + slen(d->err);
	b.e = d->err + Errmax - 1;
	bputs(&b, " (");
	bputdec(&b, lo);
	bputs(&b, " to ");
	bputdec(&b, hi);
	bputc(&b, ')');
	bputnul(&b);
	return errnum(e);
}

const char *
deverr(const Dev *d)
{
	return d->err;
}
