/*
 * recread.c: devtrace record's readers (recread.h): each a thread that
 * copies its rings in passes and writes its own stretch of the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/capfile.h"
#include "cmd/recread.h"

enum {
	Nsrc = 8192,		/* records one source gives a pass at most (~0.1 ms of copying) */
	Bufsize = 2 << 20,	/* a reader's buffer of packed chunks, written out when it cannot take a full source's: small enough to stay in the cache, reused */
	Nearidle = 256,		/* a pass that found fewer: nap, else look again at once */
	Busyus = 50,		/* records came: look again this soon (one thread fills 65536 in ~4 ms) */
	Idleus = 1000,		/* nothing queued for a while: naps double from Busyus up to this */
	Waitus = 100,		/* a record is being written: look again sooner */
	Drainidle = 10000,	/* the last records: given up after this many Waitus naps with none (a lock held for ever) */
};

static void
nap(long us)
{
	struct timespec ts = { 0, us * 1000L };

	nanosleep(&ts, NULL);
}

void
recoutopen(Recout *o, int fd, const char *name)
{
	off_t at = lseek(fd, 0, SEEK_CUR);

	o->fd = fd;
	o->name = name;
	o->seekable = at >= 0;
	o->off = at >= 0 ? (uint64_t)at : 0;
	pthread_mutex_init(&o->mu, NULL);
}

int
recoutend(Recout *o)
{
	if (o->seekable && lseek(o->fd, (off_t)o->off, SEEK_SET) < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", o->name, strerror(errno));
		return -1;
	}
	return 0;
}

/* n bytes at off, through short writes and EINTR */
static int
pwriteall(int fd, const char *b, size_t n, uint64_t off)
{
	ssize_t w;

	while (n > 0) {
		if ((w = pwrite(fd, b, n, (off_t)off)) < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= w;
		off += w;
	}
	return 0;
}

static int
recflush(Recreader *r)
{
	Recout *o = r->out;
	int e;

	if (r->pos == 0)
		return 0;
	if (o->seekable)
		e = pwriteall(o->fd, r->buf, r->pos, __atomic_fetch_add(&o->off, r->pos, __ATOMIC_RELAXED));
	else {
		pthread_mutex_lock(&o->mu);
		e = writeall(o->fd, r->buf, r->pos);
		pthread_mutex_unlock(&o->mu);
	}
	if (e < 0) {
		fprintf(stderr, "devtrace record: %s: %s\n", o->name, strerror(errno));
		return -1;
	}
	r->pos = 0;
	return 0;
}

/* the processes of n records just copied from source src (after the copy: their owner's pid was stored before they were written) */
static int
learn(Recreader *r, uint32_t src, const Rec *rec, size_t n)
{
	uint32_t tid = 0, pid = 0;
	int owned = src != Capshared && shmringowner(r->s, src, &tid, &pid) == 0;

	return recpids(&r->pids, rec, n, owned, tid, pid);
}

/* one pass over r's sources, up to max records: how many, or -1 (told); *wait: one is being written, or another reader has it */
static long long
recsave(Recreader *r, unsigned long long max, int *wait)
{
	uint32_t nring = shmnring(r->s), nq = shmringsqueued(r->s, r->ring, Nringmax), k, i, src;
	unsigned long long done = 0;
	size_t want;
	ssize_t n;

	*wait = 0;
	/* its rings with records, then the shared ring */
	for (k = 0; k <= nq && done < max; k++) {
		if (k == nq && r->k != 0)
			break;
		i = k == nq ? nring : r->ring[k];
		if (k < nq && i % r->nj != r->k)
			continue;
		src = k == nq ? Capshared : i;
		if (r->pos + Capchunkmax(Nsrc) > Bufsize && recflush(r) < 0)
			return -1;
		want = max - done < Nsrc ? max - done : Nsrc;
		n = shmtakering(r->s, &r->rd, i, r->rec, want);
		if (n < 0 && errno == EAGAIN) {	/* the lock held by another a while: no records this time */
			*wait = 1;
			continue;
		}
		if (n < 0) {	/* a damaged lock stays damaged */
			fprintf(stderr, "devtrace record: %s\n", shmbusy(errno));
			return -1;
		}
		if (r->rd.wait)
			*wait = 1;
		if (n > 0 && (recpcs(&r->pcs, r->rec, n) < 0 || learn(r, src, r->rec, n) < 0)) {
			fprintf(stderr, "devtrace record: out of memory\n");
			return -1;
		}
		if (n > 0) {
			r->pos += capchunk(r->buf + r->pos, src, r->rec, n);
			done += n;
		}
	}
	return done;
}

/* a reader's life: passes until the capture ends, a busy device looked at again at once or soon, an idle one ever more rarely */
static void *
readloop(void *a)
{
	Recreader *r = a;
	long long n = 0;
	long us = Busyus;
	int wait;

	while (!__atomic_load_n(r->ending, __ATOMIC_ACQUIRE)) {
		if ((n = recsave(r, ~0ULL, &wait)) < 0)
			break;
		r->saved += n;
		if (n >= Nearidle)
			us = Busyus;
		else if (n > 0) {
			us = Busyus;
			nap(us);
		} else {
			if (r->pos > 0 && (n = recflush(r)) < 0)
				break;
			nap(wait && Waitus < us ? Waitus : us);
			if (us < Idleus)
				us = us * 2 < Idleus ? us * 2 : Idleus;
		}
	}
	if (n < 0 || recflush(r) < 0)
		__atomic_store_n(&r->failed, 1, __ATOMIC_RELAXED);
	return NULL;
}

Recreader *
recreaders(uint32_t nj, Shm *s, Recout *o)
{
	Recreader *r;
	uint32_t k;

	if ((r = calloc(nj, sizeof *r)) == NULL) {
		fprintf(stderr, "devtrace record: out of memory\n");
		return NULL;
	}
	for (k = 0; k < nj; k++) {
		r[k].s = s;
		r[k].out = o;
		r[k].k = k;
		r[k].nj = nj;
		if ((r[k].buf = malloc(Bufsize)) == NULL || (r[k].rec = malloc(Nsrc * sizeof(Rec))) == NULL) {
			fprintf(stderr, "devtrace record: out of memory\n");
			recreadersfree(r, nj);
			return NULL;
		}
	}
	return r;
}

int
recstart(Recreader *r, uint32_t nj, int *ending)
{
	uint32_t k;
	int e;

	for (k = 0; k < nj; k++) {
		r[k].ending = ending;
		if ((e = pthread_create(&r[k].thr, NULL, readloop, &r[k])) != 0) {
			fprintf(stderr, "devtrace record: a reader thread: %s\n", strerror(e));
			__atomic_store_n(ending, 1, __ATOMIC_RELEASE);
			while (k-- > 0)
				pthread_join(r[k].thr, NULL);
			return -1;
		}
	}
	return 0;
}

int
recfailed(Recreader *r, uint32_t nj)
{
	uint32_t k;

	for (k = 0; k < nj; k++)
		if (__atomic_load_n(&r[k].failed, __ATOMIC_RELAXED))
			return 1;
	return 0;
}

long long
recjoin(Recreader *r, uint32_t nj)
{
	long long saved = 0;
	uint32_t k;

	for (k = 0; k < nj; k++)
		pthread_join(r[k].thr, NULL);
	for (k = 0; k < nj; k++) {
		if (saved >= 0)
			saved = r[k].failed ? -1 : saved + r[k].saved;
		if (k > 0 && (recpcsmerge(&r[0].pcs, &r[k].pcs) < 0 || recpidsmerge(&r[0].pids, &r[k].pids) < 0)) {
			fprintf(stderr, "devtrace record: out of memory\n");
			saved = -1;
		}
	}
	r[0].nj = 1;	/* what is left: every ring, the others' done */
	return saved;
}

long long
recdrain(Recreader *r, unsigned long long queued)
{
	unsigned long long tail = 0;
	long long n = 0;
	int wait, idle = 0;

	while (tail < queued && (n = recsave(r, queued - tail, &wait)) >= 0) {
		if (n == 0 && (!wait || ++idle > Drainidle))
			break;
		if (n == 0)
			nap(Waitus);
		else
			idle = 0;
		tail += n;
	}
	if (n < 0 || recflush(r) < 0)
		return -1;
	return tail;
}

void
recreadersfree(Recreader *r, uint32_t nj)
{
	uint32_t k;

	if (r == NULL)
		return;
	for (k = 0; k < nj; k++) {
		free(r[k].buf);
		free(r[k].rec);
		recsymsfree(&r[k].pcs);
		recpidsfree(&r[k].pids);
	}
	free(r);
}
