/*
 * recread.h: devtrace record's readers.  Each is a thread with its share
 * of the writers' rings (ring % nj == k; reader 0 the shared ring too),
 * copied outside the device's lock under each ring's claim
 * (devreadwring), packed into a buffer of its own, a chunk per source a
 * pass (capfile.h); a full buffer goes to the reader's own stretch of the
 * file, taken with one atomic add, so the readers write side by side (a
 * file that cannot seek takes the buffers in turn).  A source's chunks
 * all come from one reader, in order: cat finds each source's records
 * in the order they were written.
 */
#ifndef DEVTRACE_RECREAD_H
#define DEVTRACE_RECREAD_H
#include <pthread.h>
#include <stdint.h>
#include "host/shm.h"
#include "cmd/recsyms.h"
#include "cmd/recpids.h"

enum { Njmax = 64 };	/* readers at most */

typedef struct Recout Recout;
struct Recout {
	int fd;
	const char *name;
	int seekable;
	uint64_t off;		/* seekable: the file's next free byte, taken by an atomic add */
	pthread_mutex_t mu;	/* not: one buffer written at a time */
};

typedef struct Recreader Recreader;
struct Recreader {
	Shm *s;
	Recout *out;
	uint32_t k, nj;		/* its rings: ring % nj == k */
	Reader rd;
	Rec *rec;		/* a source's records as a pass copies them, then packed into buf */
	char *buf;		/* the chunks of its passes, not yet written */
	size_t pos;
	Recsyms pcs;		/* the pcs it saved: the recording's objects */
	Recpids pids;		/* the threads it saved: their processes */
	uint32_t ring[Nringmax];
	pthread_t thr;
	int *ending;		/* the capture's end: the thread flushes and returns */
	long long saved;	/* records saved */
	int failed;		/* it stopped on an error, told (recfailed reads it while it runs) */
};

void	recoutopen(Recout *o, int fd, const char *name);	/* after the header: the file's place, and whether it seeks */
int	recoutend(Recout *o);	/* the file's end, for the trailer: 0, or -1 (told) */
Recreader	*recreaders(uint32_t nj, Shm *s, Recout *o);	/* nj readers, their buffers; nil (told) */
int	recstart(Recreader *r, uint32_t nj, int *ending);	/* their threads: 0, or -1 (told; none left running) */
long long	recjoin(Recreader *r, uint32_t nj);	/* *ending set before: the records they saved, or -1; their pcs and threads gathered in r[0], which then reads every ring */
int	recfailed(Recreader *r, uint32_t nj);	/* one has stopped on an error */
long long	recdrain(Recreader *r, unsigned long long queued);	/* after recjoin, r[0] alone: what was queued at the end, up to queued records (others may still be writing): how many, or -1 (told) */
void	recreadersfree(Recreader *r, uint32_t nj);
#endif
