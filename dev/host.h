/*
 * host.h: what the device asks of its host.  The user-space host
 * (host/linux.c) and the kernel module (kernel/host.c) each define these, as plain
 * functions bound at link time: an indirect call on every hit costs more.
 * Every one may be called on the hook path: none may take a lock
 * the hook path could already hold, none may call into traced code.
 */
#ifndef DEVTRACE_HOST_H
#define DEVTRACE_HOST_H

#include <stddef.h>
#include <stdint.h>

uint64_t	hostticks(void);	/* the cycle counter the records carry */
uint64_t	hostnsec(void);		/* monotonic nanoseconds, for the reader's time-outs */
void	hostclock(uint64_t *ticks, uint64_t *ns);	/* the cycle counter and real time (ns since 1970) read together: the state's #clock */
void	hostwait(uint64_t nsec);	/* a writer waits for the reader (policy block): sleep about nsec; holds no lock */
void	hostzero(void *p, size_t n);
int	hostfaultin(void *p, size_t n);	/* n bytes of shared memory faulted in for writing in one go, before the device touches each page: 1 if done */	/* n bytes zeroed; a host may give whole pages back instead (the next touch finds zeros) */
int	hostalive(uint32_t tid);	/* 0 once the thread is gone for good */
int	hostdescends(uint32_t pid, uint32_t anc);	/* 1 if process pid (the caller's, where the host knows only its own) descends from process anc */

/* predicate variables the Hit does not carry; asked only when a predicate uses them */
uint32_t	hostppid(void);
uint32_t	hostuid(void);
uint32_t	hostcpu(void);
const char	*hostexecname(void);	/* the command name: 16 readable bytes, at most 15 characters NUL-padded; never nil */

#endif
