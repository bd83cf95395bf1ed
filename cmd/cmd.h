/*
 * cmd.h: what the server (devtraced) and the client (devtrace) share.
 * The authority on "a server runs" is the device's header: alive, and a
 * serverpid that is a live devtraced; when the header is damaged, the
 * pid in the lock file of a live devtraced that holds that lock.
 */
#ifndef DEVTRACE_CMD_H
#define DEVTRACE_CMD_H
#include <stddef.h>
#include <stdint.h>

enum { Stopwait = 10000 };	/* ms a stop may take */

int	livepid(const char *dir);	/* the server serving dir, or 0; found even when the header is damaged */
int	running(int pid, const char *comm);	/* pid exists, is no zombie, and runs comm (if given) */
char	*absdir(const char *dir);	/* dir made absolute, as shmpath does it; static buffer */
char	*bindir(void);			/* the directory this binary is in; static buffer */
uint32_t	tgidof(uint32_t tid);	/* a thread's process, from /proc */
void	catchstop(void (*on)(int));	/* INT, TERM, HUP call on; SIGPIPE ignored */

/* devtrace's commands: the table is devtrace.c's */
typedef struct Cmd Cmd;
int	spawn(char **args, int nargs);	/* devtraced from beside this binary, with args; its exit status */
int	writeall(int fd, const char *buf, size_t n);	/* all of buf to fd, through EINTR; -1 on error */
int	xrun(Cmd *c, int argc, char **argv);	/* devtrace run: run.c */
int	preload(const char *dir);	/* LD_PRELOAD with the runtime first, DEVTRACE_DIR dir: run.c */
int	findprog(const char *prog);	/* what execvp would find: run.c */
int	copyfile(const char *from, const char *to);	/* to is a copy of from, empty if from is missing: run.c */
unsigned long long	counter(const char *st, const char *key);	/* "#key N" of a state text: run.c */
struct Shm	*attach(void);	/* the device, if a live server serves it; else exit 1: devtrace.c */
int	xrecord(Cmd *c, int argc, char **argv);	/* devtrace record: record.c */
int	catfile(Cmd *c, const char *path);	/* devtrace cat FILE: record.c */
char	*aggtext(struct Shm *s, const char *syms, int form, size_t *len);	/* the aggregations, Aprinta or Amachine (dev/devtrace.h), malloc'd; NULL (errno) if the lock was not had: aggs.c */
#endif
