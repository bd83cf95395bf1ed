/*
 * error.h: every refusal of the device, named once with its errno and
 * its text (as Plan 9's port/error.h, or Linux's X-macro tables): the
 * code returns a name, and the errno and the text come from this table,
 * so a reason is typed in one place and its errno cannot drift from it.
 * X(name, errno, text); the errnos are devtrace.h's (Linux's values).
 * A shell shows a refused write as strerror of the errno alone, so the
 * errno must read right: a command never fails with ENOENT ("No such
 * file or directory" reads as tracectl missing); the text is in the
 * state's #error lines.  A text that names a limit takes its numbers
 * from the constants: the command appends a range (errbound), or
 * error_test checks the number in the text against the constant.
 */
#ifndef DEVTRACE_ERROR_H
#define DEVTRACE_ERROR_H

#include "dev/devtrace.h"

#define ERRORS(X) \
	/* a control write */ \
	X(Errempty,	Einval,	"empty command") \
	X(Errlinelong,	E2big,	"line too long") \
	X(Errbadchar,	Einval,	"bad character in command") \
	X(Errunknown,	Einval,	"unknown command") \
	X(Errnargs,	Einval,	"wrong number of arguments") \
	/* trace */ \
	X(Errnotrace,	Einval,	"no such trace") \
	X(Errtracecmd,	Einval,	"bad trace command") \
	X(Erraddr,	Einval,	"bad address") \
	X(Errname,	Einval,	"bad trace name (a letter or _, then letters, digits, _ - or ., 15 at most)") \
	X(Errexists,	Eexist,	"trace exists") \
	X(Errrange,	Einval,	"empty or reversed range") \
	X(Errglob,	Einval,	"pattern too long")	/* EINVAL, not E2BIG: as it always was */ \
	X(Errglobquote,	Einval,	"pattern quoted twice") \
	X(Erroverlap,	Eexist,	"range overlaps trace") \
	X(Errntrace,	Enospc,	"too many traces") \
	X(Errdenied,	Eperm,	"selects a function the host never traces")	/* Devsyms: command.c writes the host's text, with the names */ \
	X(Errnosite,	Einval,	"selects no function the host can patch")	/* likewise */ \
	X(Errpredform,	Einval,	"predicate must be /expression/") \
	X(Errpredlong,	E2big,	"predicate too long") \
	X(Erractform,	Einval,	"expected trace NAME trigger stop [after N] [/pred/], trigger start [/pred/], speculate|commit|discard [/pred/], or actions clear") \
	X(Errafter,	Einval,	"after N out of range")	/* and the range, from Aftermax */ \
	X(Erractfull,	Enospc,	"too many actions") \
	/* size, logsize, testtracein, watch, open */ \
	X(Errsize,	Einval,	"bad size") \
	X(Errsizerange,	Einval,	"size out of range")	/* and the range: the block's logmax or a session's */ \
	X(Errarg,	Einval,	"bad argument") \
	X(Errpid,	Einval,	"bad pid") \
	X(Errnwatch,	Enospc,	"too many watches") \
	X(Errnreader,	Enospc,	"too many readers") \
	/* sessions (dev/sess.c) */ \
	X(Errnsess,	Enospc,	"too many sessions: end one (close its ctl, or remove it)") \
	X(Errnosess,	Enoent,	"no such session") \
	X(Errsessown,	Eacces,	"another user's session") \
	/* policy */ \
	X(Errpolicy,	Einval,	"unknown policy (ring, fill or block)") \
	X(Errwaitms,	Einval,	"bad wait bound (1 to 60000 ms)") \
	X(Errnowait,	Einval,	"only block waits: no bound") \
	X(Errblockhere,	Einval,	"block would make a probe wait where it may not: ring or fill in the kernel")	/* devhostrules' Rulenoblock: the kernel's */ \
	/* agg (dev/agg/aggctl.c) */ \
	X(Erraggform,	Einval,	"expected agg TRACE entry|exit @name[keys] = func(args), agg TRACE records on|off|auto, agg @name clear|remove, or agg clear") \
	X(Erraggname,	Einval,	"bad aggregation name (@ then a letter or _, then letters, digits or _, 15 at most)") \
	X(Erraggexists,	Eexist,	"aggregation exists") \
	X(Errnoagg,	Einval,	"no such aggregation") \
	X(Errnagg,	Enospc,	"too many aggregations") \
	X(Erraggfunc,	Einval,	"unknown function (count, sum, min, max, avg, quantize, lquantize)") \
	X(Erraggargs,	Einval,	"wrong number of arguments: count(), lquantize(value, low, high, step), the others (value)") \
	X(Errkeys,	Einval,	"too many keys (4 words; execname takes 2)") \
	X(Errkey,	Einval,	"empty key or argument") \
	X(Errlquant,	Einval,	"lquantize: low < high, step > 0 dividing high - low into 4096 buckets at most") \
	X(Errrecmode,	Einval,	"records on, off or auto") \
	X(Erragglong,	E2big,	"aggregation too long") \
	/* the shared block */ \
	X(Errcorrupt,	Eio,	"shared device damaged by a process (counted in #corrupt)") \
	/* the predicate compiler (pred.c) */ \
	X(Errexprlong,	E2big,	"expression too long") \
	X(Errnumlarge,	Einval,	"number too large") \
	X(Errnumber,	Einval,	"bad number") \
	X(Errcharconst,	Einval,	"bad character constant") \
	X(Errunterm,	Einval,	"unterminated string") \
	X(Errstrnul,	Einval,	"NUL in string") \
	X(Errstring,	Einval,	"bad string") \
	X(Errstrlong,	E2big,	"strings too long") \
	X(Errchar,	Einval,	"bad character") \
	X(Errproglong,	E2big,	"program too long") \
	X(Errdeep,	E2big,	"expression too deep") \
	X(Errstrnum,	Einval,	"string used as a number") \
	X(Errvar,	Einval,	"unknown variable") \
	X(Errargname,	Einval,	"not an argument of the trace's functions") \
	X(Errargword,	Einval,	"an argument no record word holds (floating point, a large struct, past the fourth, or not the same in all the trace's functions)") \
	X(Errexpr,	Einval,	"expression expected") \
	X(Errrparen,	Einval,	"')' expected") \
	X(Errstrcmp,	Einval,	"string compared with a number") \
	X(Errexeccmp,	Einval,	"compare execname with a string") \
	X(Errcolon,	Einval,	"':' expected") \
	X(Errunbal,	Einval,	"unbalanced ')'") \
	X(Erroperator,	Einval,	"operator expected") \
	X(Errbadprog,	Einval,	"internal error: program refused")	/* a compiler bug: no input provokes it */ \
	X(Errbadterms,	Einval,	"internal error: term table refused")	/* likewise */

/* the names: 0 is no error */
enum {
	Errnone,
#define X(name, no, text)	name,
	ERRORS(X)
#undef X
	Nerror,
};

int	errnum(int e);		/* its errno; 0 for Errnone */
const char	*errtext(int e);	/* its text; "" for Errnone */

#endif
