/*
 * shm.h: where the user-space device lives.  The server creates a file
 * named after the device directory in a directory only its user can
 * write (shmmkdir); every traced process maps it.  Its first page is the host's header (Shm),
 * the Dev follows.  Beside it, NAME.syms collects the symbols that
 * attached processes append, one line per function: "<pc> <name> <object>".
 *
 * Shm is opaque: only host/'s files know the header's layout
 * (shmdat.h), so the server's life (alive, its pid, the mapping's size,
 * the futex words) is told and changed through these functions alone.
 * The files, callers first: shmsess.c (sessions under the lock),
 * shmctl.c (the control side under the lock),
 * shmmap.c (the device's life), shmlock.c (the futex words), shmpath.c
 * (where the files live); under them all linux.c (dev/host.h).
 */
#ifndef DEVTRACE_SHM_H
#define DEVTRACE_SHM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "dev/devtrace.h"

typedef struct Shm Shm;

/* where: shmpath.c */
const char *devdir(void);	/* $DEVTRACE_DIR, else /run/devtrace as root, else $XDG_RUNTIME_DIR/devtrace, else /tmp/devtrace-UID */
int	shmpath(const char *dir, const char *suffix, char *buf, size_t n);	/* PRIV/HASH + suffix: PRIV is /run/devtrace.shm as root, else /run/user/UID/devtrace.shm, else /dev/shm/devtrace-UID */
int	shmmkdir(char *buf, size_t n);	/* make PRIV, 0700, or check it: a link or a directory not ours alone fails (EPERM); its name in buf */
int	shmopenfile(const char *path, int flags, mode_t mode);	/* open(2) with O_NOFOLLOW|O_CLOEXEC; fails (EPERM) unless a regular file of ours that no one else may write */
int	shmlockpid(const char *dir);	/* the pid the server wrote in its lock file PRIV/HASH.lock, or 0 (it may have died since: check) */

/* the device's life: shmmap.c */
uint64_t	shmhz(void);	/* the cycle counter's rate, measured against the monotonic clock (25 ms) */
Dev	*shmcreate(const char *dir, int logmax, int nring, uint64_t hz, Shm **hdr);	/* server: new device of nring writers' rings a level, replacing a stale one; alive */
Dev	*shmattach(const char *dir, Shm **hdr, uint64_t *ino);	/* a process: NULL if no server serves dir */
Dev	*shmopen(const char *dir, Shm **hdr);	/* the device served or stopped: a stopped server's records stay readable */
int	shmalive(Shm *s);	/* 1 while a server serves the device */
int	shmserverpid(Shm *s);	/* the server that made it (it may have died since: check) */
void	shmstop(Shm *s);	/* the server goes: alive drops, every waiter wakes, attached processes detach */
void	shmunmap(Shm *s);	/* unmap header and device; s is gone */
void	shmremove(const char *dir);	/* unlink the device and its symbol file; mappings stay */
Dev	*shmdev(Shm *hdr);
void	shmprivate(Dev *d, int logmax);	/* a block this process allocated itself (benchmarks): the device trusts logmax for it (devmapped) */

/* the control side, under the header's lock: what tracectl and trace do: shmctl.c */
int	shmctl(Shm *s, const char *buf, size_t n, uint32_t pid, const Devsigs *sigs, char *err, size_t nerr);	/* whole lines: 0 or errno; sigs: the signatures they may name arguments from, or nil (devtrace.h: Devsigs) */
int	shmctlwrite(Shm *s, Ctlfile *f, const char *buf, size_t n, uint32_t pid, const Devsigs *sigs, char *err, size_t nerr);	/* one write of an open file (devctlwrite) */
int	shmctlclose(Shm *s, Ctlfile *f, const Devsigs *sigs, char *err, size_t nerr);	/* its last close: the unfinished line runs */
size_t	shmstate(Shm *s, char *buf, size_t n);	/* its length; 0 (errno EAGAIN) if the lock was not had */
size_t	shmread(Shm *s, Reader *r, char *buf, size_t n);	/* waits, unlocked and bounded, for a record being written; 0 (errno set) if the lock was not had */
ssize_t	shmtake(Shm *s, Reader *r, char *buf, size_t n);	/* never waits: 0 with r->wait set if one is being written; -1 (errno) if the lock was not had */
ssize_t	shmtakering(Shm *s, Reader *r, uint32_t ring, Rec *out, size_t n);	/* devreadring, one source unmerged: a writer's ring outside the lock under this thread's claim (devreadwring), the shared ring under it; never waits: 0 with r->wait set if one is being written or another reader holds the ring; -1 (errno) if the lock was not had */
uint32_t	shmringsqueued(Shm *s, uint32_t *ring, uint32_t n);	/* devringsqueued: the writers' rings with records, read without the lock */
int	shmringowner(Shm *s, uint32_t ring, uint32_t *tid, uint32_t *pid);	/* devringowner: its owner's tid and pid, read without the lock */
uint32_t	shmnring(Shm *s);	/* the writers' rings the mapping has: sources 0..nring-1, then the shared ring */
int	shmreader(Shm *s, uint32_t pid, int open);	/* 0 or errno */
/* sessions (dev/sess.c), under the lock: shmsess.c */
int	shmclone(Shm *s, uint32_t uid, uint32_t pid, char *err, size_t nerr);	/* a new session of uid's, held by pid: its number N, or -errno (the reason in err) */
Shm	*shmsess(Shm *s, uint32_t n);	/* a handle on live session n, for every function here; NULL (errno ENOENT) otherwise; shmunmap frees it */
int	shmsessopen(Shm *s, uint32_t n, uint32_t uid, int others);	/* one more open of its ctl: 0 or errno (ENOENT, EACCES) */
int	shmsessclose(Shm *s, uint32_t n);	/* one less: the last ends it; 0 or errno */
int	shmsessremove(Shm *s, uint32_t n, uint32_t uid, char *err, size_t nerr);	/* end it now: 0 or errno */
int	shmsessreap(Shm *s);	/* end those whose holder is gone: how many, or -errno */
int	shmsessowner(Shm *s, uint32_t n, uint32_t *uid, uint32_t *serial);	/* a live session's owner and serial (which clone made it): 0 or ENOENT; lock-free */
/* the futex words: shmlock.c */
void	shmwake(Shm *s);	/* after a change: wake every process waiting on the control generation */
int	shmwait(Shm *s, uint32_t gen, int ms);	/* wait while the generation is gen; 0 on change */
int	shmlock(Shm *s);	/* 0, or EAGAIN (held by a live thread longer than a bound), also in errno; a dead or no holder is taken over */
void	shmunlock(Shm *s);
const char	*shmbusy(int e);	/* what shmlock's error means, for a message */
#endif
