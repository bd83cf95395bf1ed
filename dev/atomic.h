/*
 * atomic.h: the atomics of the device and of the runtime (rt/rt.h), named
 * once: acquire and relaxed loads, release and relaxed stores, a relaxed
 * add, a compare-and-swap.
 */
#ifndef DEVTRACE_ATOMIC_H
#define DEVTRACE_ATOMIC_H

#define ald(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define rld(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define ast(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define rst(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define aadd(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define acas(p, o, n)	__atomic_compare_exchange_n((p), (o), (n), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)

#endif
