/*
 * recpids.h: which process each recorded thread belonged to, for the
 * trailer of devtrace record (capfile.h: thread, process), so that a
 * viewer (dump.c) puts a forked child's threads under their own process.
 * Records carry only a tid: a writer's ring knows its owner's pid
 * (devringowner: the device's, sure even once the thread has gone); a
 * thread that wrote the shared ring alone is looked up in
 * /proc/TID/status while record runs, best effort.
 */
#ifndef DEVTRACE_RECPIDS_H
#define DEVTRACE_RECPIDS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dev/devtrace.h"

enum { Commlen = 16 };	/* /proc/PID/comm's longest, with its NUL (TASK_COMM_LEN) */

typedef struct Recpid Recpid;
struct Recpid {
	uint32_t tid, pid;	/* pid 0: not known */
};

typedef struct Recproc Recproc;
struct Recproc {
	uint32_t pid;
	char comm[Commlen];	/* "": not read */
};

typedef struct Recpids Recpids;
struct Recpids {
	Recpid *thr;		/* each tid seen, once, in order seen */
	size_t nthr, maxthr;
	uint32_t *ix;		/* a thread's index + 1 by its tid's hash (open addressing); 0 free */
	size_t ixcap;		/* a power of 2, more than twice nthr */
	Recproc *proc;		/* each pid found, once */
	size_t nproc;
	uint32_t last;		/* the last tid looked at: a run of one thread's records costs a compare each */
};

int	recpids(Recpids *p, const Rec *r, size_t n, int owned, uint32_t otid, uint32_t opid);	/* the records' threads, from a ring whose owner (otid, opid: devringowner) is known if owned: 0, or -1 out of memory */
int	recpidsmerge(Recpids *to, const Recpids *from);	/* from's threads and processes into to: 0, or -1 out of memory */
void	recpidsout(Recpids *p, FILE *f, uint32_t mainpid);	/* the trailer's lines "thread TID PID", then "process PID COMM" for each but mainpid */
void	recpidsfree(Recpids *p);
#endif
