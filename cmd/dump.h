/*
 * dump.h: the parts of devtrace dump, private to them: dump.c the
 * command; perfetto.c and speedscope.c the writers; dumpwalk.c, below
 * both, the state they share (Dump) and the walk, the file's calls as
 * report and graph take them (calls.h), a step at a time: a writer
 * pulls, nothing is called back.
 */
#ifndef DEVTRACE_DUMP_H
#define DEVTRACE_DUMP_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cmd/calls.h"
#include "cmd/pbwrite.h"

typedef struct Sig Sig;	/* a function's line of FILE.sigs, cut: "NAME RET ARG..." */
struct Sig {
	char *name;
	char *ret;
	char *arg[8];		/* "name:class:word" */
	int narg;
	int twice;		/* the name has two different lines: untyped, as sigs.awk has it */
};

typedef struct Fn Fn;	/* a function, by calls.h's number */
struct Fn {
	uint32_t id;		/* 1 + its index in Dump.name: Perfetto's iid, speedscope's frame + 1; 0: not used yet */
	Sig *sig;		/* nil: untyped */
};

typedef struct Thr Thr;	/* a thread, by calls.h's number */
struct Thr {
	uint32_t tid;
	uint64_t first, last;	/* its first and last record's ticks */
};

typedef struct Proc Proc;	/* a thread's process, from the trailer (capfile.h: thread, process) */
struct Proc {
	uint32_t tid, pid;
};

typedef struct Pname Pname;	/* a process other than the recording's */
struct Pname {
	uint32_t pid;
	char *name;		/* nil: none read */
	int sent;		/* Perfetto: its track written */
};

typedef struct Dump Dump;
struct Dump {
	const char *path;
	uint64_t hz, t0, ns0;	/* a time's ns: ns0 + (ticks - t0) / hz */
	uint64_t last;		/* Perfetto: the incremental clock's ns, the last packet's on it */
	Fn *fn;
	size_t nfn;
	char **name;		/* the functions' names in the order first used, by id - 1 */
	size_t nname, sent;	/* Perfetto: names interned so far */
	char **aname;		/* the arguments' names, the same way */
	size_t nanames, asent;
	Sig *sig;		/* FILE.sigs, sorted by name */
	size_t nsig;
	Thr *thr;
	size_t nthr;
	Calls *calls;		/* the walk's, while it runs */
	Pb pb;
	uint32_t pid;		/* the recording's (capfile.h: pid) */
	Proc *proc;		/* the trailer's "thread TID PID" lines */
	size_t nproc;
	Pname *pname;		/* the processes they name, but pid */
	size_t npname;
	int emitted;		/* speedscope: an event of this profile written */
	FILE *out;
};

typedef struct Step Step;	/* one event of the walk */
struct Step {
	int kind;		/* calls.h's: Centry, Cexit, Cnoexit, Cprobe; Cnoentry (no slice) only names its thread */
	Thr *t;
	Fn *f;
	uint64_t end;		/* Cexit, Cnoexit: the ticks it ends at */
	const Rec *r;		/* its record: Cnoexit's is nil (the call was cut) */
	int isnew;		/* its thread's first event */
};

int	perfettodump(Dump *d);	/* d->path as Perfetto's trace on standard output: 0, 1 an error, 2 a terminal (told) */
int	speedscopedump(Dump *d);	/* as speedscope's JSON */

void	*xalloc(void *p, size_t n);	/* realloc, or exit told */
char	*strsave(const char *s);
uint32_t	intern(char ***names, size_t *n, const char *s);	/* s's id among the n names (1 + its index), added if new */
void	loadsigs(Dump *d);	/* FILE.sigs, if there is one */
uint64_t	ns(Dump *d, uint64_t ticks);
int	walkopen(Dump *d);	/* the file's calls: 0, or 1 unreadable (told) */
int	walknext(Dump *d, Step *s, int only, uint32_t tid);	/* the next event, of thread tid alone if only: 1; 0 at the end; -1 an error (told) */
int	walkclose(Dump *d, int rc);	/* after walknext's last rc: the walk's exit status, 0 or 1 */
#endif
