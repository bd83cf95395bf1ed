/*
 * shm.h: where the user-space device lives.  The server creates a file
 * in /dev/shm named after the user and the device directory; every
 * traced process maps it.  Its first page is the host's header, the
 * Dev follows.  Beside it, NAME.syms collects the symbols that attached
 * processes append, one line per function: "<pc> <name> <object>".
 */
#ifndef DEVTRACE_SHM_H
#define DEVTRACE_SHM_H
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include "dev/devtrace.h"

typedef struct Shm Shm;
struct Shm {
	uint32_t magic;
	uint32_t alive;		/* 1 while a server serves this device; futex word */
	uint32_t serverpid;
	uint32_t pad;
	uint64_t devsize;
	pthread_mutex_t lock;	/* the control side's lock: robust, shared by processes */
	char dir[3900];		/* the directory the server mounted */
};

enum { Shmhdr = 4096, Shmmagic = 0x64767368 };

const char *devdir(void);	/* $DEVTRACE_DIR, else /run/devtrace as root, else $XDG_RUNTIME_DIR/devtrace, else /tmp/devtrace-UID */
int	shmpath(const char *dir, const char *suffix, char *buf, size_t n);	/* /dev/shm/devtrace-UID-HASH + suffix */
Dev	*shmcreate(const char *dir, int logmax, uint64_t hz, Shm **hdr);	/* server: new device, replacing a stale one */
Dev	*shmattach(const char *dir, Shm **hdr, uint64_t *ino);	/* a process: NULL if no server serves dir */
void	shmremove(const char *dir);
Dev	*shmdev(Shm *hdr);

/* the control side, under the header's lock: what tracectl and trace do */
int	shmctl(Shm *s, const char *buf, size_t n, uint32_t pid, char *err, size_t nerr);	/* 0 or errno */
size_t	shmstate(Shm *s, char *buf, size_t n);
size_t	shmread(Shm *s, Reader *r, char *buf, size_t n);
int	shmreader(Shm *s, uint32_t pid, int open);
void	shmwake(Shm *s);	/* after a change: wake every process waiting on the control generation */
int	shmwait(Shm *s, uint32_t gen, int ms);	/* wait while the generation is gen; 0 on change */
void	shmlock(Shm *s);
void	shmunlock(Shm *s);
#endif
