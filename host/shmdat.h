/*
 * shmdat.h: the header page and the handle, for host/'s files alone
 * (shm.h keeps Shm opaque to everyone else).  As Plan 9's portdat.h:
 * the layout here, the functions in shm.h.
 */
#ifndef DEVTRACE_SHMDAT_H
#define DEVTRACE_SHMDAT_H
#include <stddef.h>
#include <stdint.h>
#include "dev/devtrace.h"

/*
 * The header page, in shared memory: every attached process may write
 * it, so a process keeps what it must trust (where the device is, the
 * mapping's size) in its own Shm, the handle the functions take.
 */
typedef struct Hdr Hdr;
struct Hdr {
	uint32_t magic;
	uint32_t alive;		/* 1 while a server serves this device */
	uint32_t serverpid;
	uint32_t lock;		/* the control side's lock: its holder's tid, 0 free (shmlock) */
	uint64_t devsize;
	char dir[3900];		/* the directory the server mounted */
};

/*
 * The magic names the layout too: "dvsh" + 1 since the lock became a
 * futex word of ours (it was glibc's mutex), so a server or a process of
 * the other layout refuses the block (shmattach: no server) and never
 * takes the other's lock bytes for its own.
 */
enum { Shmhdr = 4096, Shmmagic = 0x64767368 + 1 };
_Static_assert(sizeof(Hdr) <= Shmhdr, "the header fits its page");

/* one process's mapping of a device */
struct Shm {
	Hdr *h;
	Dev *d;		/* at h + Shmhdr; a session's handle: its Dev (shmsess.c) */
	Dev *top;	/* at h + Shmhdr: the block's top level, whose lock and generation every session shares */
	size_t size;	/* of the mapping */
	uint32_t nring;	/* the writers' rings each Dev of it has, as checked against the mapping (devmapped) */
	uint32_t holder;	/* the tid of this process's thread that holds h->lock by this handle, or 0 */
};

#endif
