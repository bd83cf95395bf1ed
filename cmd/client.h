/*
 * client.h: devtrace's own.  devtrace.c holds the table of commands
 * and calls them, one file each; under the commands, what they share:
 * ownsess.c (a session of a command's own: run, record and aggs -t),
 * toppolicy.c (the top level's policy for record's duration),
 * client.c (options, the device, programs and the server),
 * statetext.c (the device's state text, parsed once for all),
 * calls.c (a capture file as whole calls, calls.h) and capfile.c (the
 * capture file's format, capfile.h); under those,
 * cmd.h's live.c and aggtext.c.
 */
#ifndef DEVTRACE_CLIENT_H
#define DEVTRACE_CLIENT_H
#include <limits.h>
#include <stdio.h>
#include <sys/types.h>
#include "host/shm.h"
#include "cmd/cmd.h"

typedef struct Cmd Cmd;
struct Cmd {
	char *name;
	int (*fn)(Cmd *, int, char **);
	char *args;
	char *what;
};

/* the commands, each in the file of its name */
int	xrun(Cmd *c, int argc, char **argv);
int	xctl(Cmd *c, int argc, char **argv);
int	xcat(Cmd *c, int argc, char **argv);	/* and cat FILE, a capture file */
int	xrecord(Cmd *c, int argc, char **argv);
int	xstate(Cmd *c, int argc, char **argv);
int	xsyms(Cmd *c, int argc, char **argv);
int	xsigs(Cmd *c, int argc, char **argv);
int	xaggs(Cmd *c, int argc, char **argv);
int	xstatus(Cmd *c, int argc, char **argv);
int	xstart(Cmd *c, int argc, char **argv);
int	xstop(Cmd *c, int argc, char **argv);
int	xmerge(Cmd *c, int argc, char **argv);
int	xinfo(Cmd *c, int argc, char **argv);
int	xdump(Cmd *c, int argc, char **argv);	/* a recording for Perfetto or speedscope */
int	xreplay(Cmd *c, int argc, char **argv);
int	xreport(Cmd *c, int argc, char **argv);
int	xgraph(Cmd *c, int argc, char **argv);

/* toppolicy.c: the top level's buffer policy for a capture's duration (record) */
typedef struct Toppolicy Toppolicy;
struct Toppolicy {
	char was[64];		/* the state's policy line before, "policy ...\n" */
	char set[64];		/* and after the change, as the state shows it */
};
int	toppolicyset(Shm *s, Toppolicy *t, const char *policy, const char *who);	/* `policy POLICY' at the top level, the line before kept: 0, or 1 (told, as "WHO: -P 'POLICY': why") */
int	toppolicyrestore(Shm *s, Toppolicy *t, const char *who);	/* the line before put back, unless the policy changed since: 0, or 1 (told) */

/* record's and run's policy unless -P says otherwise: nothing lost unless the reader stalls this long */
#define Blockms	1000
#define Strof(x)	#x
#define Lossless	"block " Xstrof(Blockms)
#define Xstrof(x)	Strof(x)

/* ownsess.c: a session of the command's own, its traces from -t GLOB (-p, -a, -P), the program it watches */
enum {
	Nglob = 32,		/* -t options: half the device's traces */
	Owndamaged = -1,	/* ownopen: a server runs, its header does not check */
};
typedef struct Ownsess Ownsess;
struct Ownsess {
	/* the command sets: */
	const char *who;	/* "devtrace run": its messages begin so */
	char *glob[Nglob];	/* -t: a trace `runN' each */
	int nglob;
	char *pred;		/* -p: every trace's predicate */
	char **agg;		/* -a: aggregations (their trace's records off, the device's default) */
	int *aggt;		/* agg[j] is trace aggt[j]'s; nil: every trace's */
	int nagg;
	char *policy;		/* -P: `policy POLICY' in the session; nil: the device's default */
	int show;		/* print each control line on stderr, as `# echo 'LINE' > DIR/N/ctl' */
	/* ownopen sets: */
	const char *dir;
	Shm *top;		/* the device */
	Shm *s;			/* the session, on it */
	int sess;		/* its number: DIR/N/ */
	char syms[PATH_MAX];	/* the device's symbol file */
	off_t symoff;		/* its size when the session began: the program's symbols follow */
	char name[Nglob][Namelen];	/* the traces made, in order */
	int nmade;
	int started;		/* `start' written */
	pid_t pid;		/* the program ownstart started, until ownwait reaps it */
	int own;		/* no server ran: ownopen started one, ownclose stops it */
	char err[Errmax];	/* the device's reason for the last refusal, one line */
};
int	ownglob(Ownsess *o, char *glob);	/* one more -t: 0, or 2 (told: too many) */
int	owncheck(Ownsess *o);	/* the options alone, before anything is made: 0, or an exit status (told) */
int	ownopen(Ownsess *o, const char *prog);	/* prog found, the runtime preloaded, a server (started if none), the session cloned: 0; else an exit status (told), or Owndamaged (not told) */
int	ownctl(Ownsess *o, const char *line, int quiet);	/* one line to the session's ctl: 0, else the device's errno (o->err told unless quiet) */
char	*ownstate(Ownsess *o);	/* the session's state text (stateget's buffer); exit 1 if the lock was not had */
int	owntraces(Ownsess *o);	/* the traces of -t with -p and -a, on, then -P: 0, or -1 (told; the ones made are removed by ownstop) */
pid_t	ownstart(Ownsess *o, char **argv);	/* argv behind the gate, watched, the session started, our signals but INT and QUIT passed on to it: its pid, or -1 (told) */
int	ownwait(Ownsess *o, int hang);	/* the program's exit status once it ended; -1 while it runs (hang 0) */
int	ownstop(Ownsess *o);	/* `stop' if started, the traces removed: 0, or 1 (told) */
int	ownnomatch(Ownsess *o);	/* 1 (told) if a GLOB named no function of the symbols the program added */
void	ownclose(Ownsess *o);	/* the session ended; a server ownopen started, stopped */

/* client.c */
void	cmdusage(Cmd *c, FILE *f);	/* "usage: devtrace NAME ARGS" and what it does */
int	nextopt(Cmd *c, int argc, char **argv, const char *sopts);	/* getopt's next; --help and unknown options end here */
int	badopt(const char *who, const char *witharg, const char *usage, char **argv);	/* getopt's '?' of a command of its own usage, told as "WHO: ...", then usage: 2 */
void	noargs(Cmd *c, int argc, char **argv);	/* a command that takes no argument: exit 2 on one */
const char	*clientdir(void);	/* the device's directory (-d, $DEVTRACE_DIR, ...), absolute */
Shm	*attach(void);	/* the device, if a live server serves it; else exit 1 */
int	writeall(int fd, const char *buf, size_t n);	/* all of buf to fd, through EINTR; -1 on error */
int	spawn(char **args, int nargs);	/* devtraced from beside this binary, with args; its exit status */
int	stopserver(int pid);	/* SIGTERM, then wait up to Stopwait: 0 gone, 1 still there, -1 (errno) kill failed */
int	preload(const char *dir);	/* LD_PRELOAD with the runtime first, DEVTRACE_DIR dir */
void	unpreload(void);	/* LD_PRELOAD as the user gave it */
int	findprog(const char *prog, char *path, size_t n);	/* what execvp would find, its path in path; 0: none (noprog says why) */
const char	*noprog(void);	/* findprog's 0 in words: program not found, a directory, not executable */
pid_t	startprog(char **argv, const char *who, int *gate);	/* argv run in a child; its pid, or -1 (told, as "WHO: ..."); gate not nil: the child waits to exec until *gate, a pipe's end, is closed */
int	exitstatus(int ws);	/* a child's wait status as an exit status: 128+N for signal N */

/* statetext.c: the text devstate makes (dev/state.c), as lines */
typedef struct Statetrace Statetrace;
struct Statetrace {
	const char *line;	/* "trace SPEC new NAME", in the text */
	int len;
};
char	*stateget(Shm *s, const char *who);	/* the state now, NUL-terminated, in a buffer of its own that the next call reuses; NULL if the lock was not had (told, as "WHO: ...") */
unsigned long long	statecounter(const char *st, const char *key);	/* N of the line "#key N", 0 if none */
unsigned long long	lostcount(const char *st);	/* #lost + #dropped: the records a policy did not keep */
int	statehas(const char *st, const char *line);	/* the text has that line exactly */
int	statetrace(const char *st, const char *spec, const char *name, Statetrace *t);	/* a trace's "new" line with that SPEC (GLOB, or START END) and NAME (either nil: any); 1 if found */
#endif
