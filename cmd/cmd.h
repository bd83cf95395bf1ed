/*
 * cmd.h: what the server (devtraced) and the client (devtrace) share:
 * argnames.c (predicates by argument name) and keytypes.c (the
 * aggregations' keys typed) over dwarf.c (signatures from DWARF),
 * aggtext.c (the aggregations as text, below keytypes.c, which types
 * them), and live.c (is a server serving, and small helpers of
 * both).  devtrace's own: client.h.
 * The authority on "a server runs" is the device's header: alive, and a
 * serverpid that is a live devtraced; when the header is damaged, the
 * pid in the lock file of a live devtraced that holds that lock.
 */
#ifndef DEVTRACE_CMD_H
#define DEVTRACE_CMD_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dev/devtrace.h"

enum { Stopwait = 10000 };	/* ms a stop may take */

struct Shm;

/* live.c */
int	livepid(const char *dir);	/* the server serving dir, or 0; found even when the header is damaged */
int	running(int pid, const char *comm);	/* pid exists, is no zombie, and runs comm (if given) */
char	*absdir(const char *dir);	/* dir made absolute, as shmpath does it; static buffer */
char	*bindir(void);			/* the directory this binary is in; static buffer */
uint32_t	tgidof(uint32_t tid);	/* a thread's process, from /proc */
void	catchstop(void (*on)(int));	/* INT, TERM, HUP call on; SIGPIPE ignored */

/* argnames.c: the signatures control writes hand the device, for arguments by name (dev/devtrace.h: Devsigs) */
void	argnamesdir(const char *dir);	/* from the signatures of the objects dir's symbol file names, from now on */
void	argnamesobj(const char *path);	/* and from path's */
Devsigs	*argnamessigs(const char *buf, size_t n, const Ctlfile *f);	/* for a write of buf (of open file f, or nil), before the lock: nil if it names no argument or none is known; argnamesfree it */
void	argnamesfree(Devsigs *s);

/* dwarf.c: signature lines "NAME RET name:class:word ..." from DWARF (libdw) */
int	objsigs(const char *path, FILE *out, const char *who);	/* path's functions: 0; 1 no debug information; -1 unreadable (told, as "WHO: ...") */
int	symsigs(const char *syms, long from, FILE *out, const char *who);	/* those of each object the symbol file names from byte from on: 0, or -1 (told) */
int	objfuncs(const char *path, FILE *out);	/* the names of path's defined functions, one a line: 0, or -1 */

/* aggtext.c: the aggregations as text, Aprinta or Amachine (dev/devtrace.h); their func keys named from the symbol file syms */
typedef struct Aggkeys Aggkeys;
struct Aggkeys {
	Aggkey	*k;	/* sorted as the device listed them; each text malloc'd, or nil */
	size_t	n;
	int	form;
	void	*work;	/* the device's work area */
};
int	aggkeys(struct Shm *s, const char *syms, int form, Aggkeys *k);	/* the keys the text may name, func keys named: 0, or -1 (errno: ENOMEM, the lock's) */
char	*aggprint(struct Shm *s, Aggkeys *k, size_t *len);	/* the text with k's texts, malloc'd, k freed; NULL (errno) */
char	*aggtext(struct Shm *s, const char *syms, int form, size_t *len);	/* aggkeys, aggprint: malloc'd; NULL (errno) if the lock was not had; argN and retval keys as numbers */

/* keytypes.c: aggtext with argN and retval keys typed from the signatures of their trace's functions (dwarf.c) */
char	*aggtyped(struct Shm *s, const char *syms, int form, size_t *len);
#endif
