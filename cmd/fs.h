/*
 * fs.h: the device's files, served through libfuse's low-level API.
 * One thread runs everything: requests, and the reads of tracepipe
 * that wait for records, retried on a short tick until records come
 * or the reader is interrupted.
 */
#define FUSE_USE_VERSION 35
#include <fuse_lowlevel.h>
#include <signal.h>
#include "host/shm.h"

typedef struct Srv Srv;
struct Srv {
	Shm *shm;
	char *dir;		/* the mount point, absolute */
	char syms[4096];	/* the symbol file in /dev/shm */
	void (*ready)(void);	/* called once the kernel has said hello; may be nil */
};

struct fuse_session *fsnew(Srv *srv);
int	fsloop(struct fuse_session *se, volatile sig_atomic_t *stop, const sigset_t *waitmask);

/* mnt.c */
void	unstale(const char *dir);	/* lazily unmount what a dead server left on dir */
void	mklinks(const char *dir);	/* /dev/tracectl and friends, unless another device's */
void	rmlinks(const char *dir);	/* those that lead into dir */
