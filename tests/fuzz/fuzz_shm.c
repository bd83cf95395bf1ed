/*
 * fuzz_shm: libFuzzer over the host's side of a shared device whose
 * file another process has scribbled on (host/shmdat.h: the header page
 * with its lock, then the Dev), built with clang's address and
 * undefined-behaviour sanitizers from host/ and dev/.  A device is
 * made once with shmcreate, as the server makes it, given a trace, a
 * reader and records; each input starts from a copy of its file.
 *
 * An input is patches, as fuzz_block's: offset (4 bytes, little-endian),
 * length (1 byte), length bytes.  The offset's top byte picks where:
 * 0 the header page (low 24 bits modulo its 4096 bytes), 1 the Dev's
 * first 256 bytes (magic, size, logmax, log, counts), else the whole
 * file (modulo its size).  Then shmattach and shmopen must refuse or
 * accept without a sanitizer's complaint; what they accept is read as
 * the server and devtrace read it: shmstate (NUL-terminated, shorter
 * than its buffer, Statemax or for an input of odd length 100 bytes,
 * nothing written past it; or 0 with EAGAIN, the lock not had),
 * shmread until it has nothing (whole records, a bounded number of
 * calls), shmctl and shmreader (0, a device errno, or EAGAIN).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/shm.h"

enum {
	Hdrbytes = 4096,	/* host/shmdat.h: Shmhdr, the header page */
	Logshm = Logmin,
	Guard = 64,
	Readpid = 200,
	Maxcalls = 64,	/* shmread calls: a ring of 16 is read in a few */
};

#define check(x)	do { if (!(x)) { fprintf(stderr, "fuzz_shm.c:%d: check failed: %s\n", __LINE__, #x); \
	__builtin_trap(); } } while (0)

static char dir[64];
static Shm *srv;
static char *file, *tmpl;	/* the server's mapping of the file; its valid contents */
static size_t filebytes;
static char state[Statemax + Guard];

static void
cleanup(void)
{
	shmremove(dir);
}

static void
makedev(void)
{
	static const char setup[] = "trace 1000 2000 new r\ntrace r on\nstart\n";
	char err[Errmax];
	Hit h;
	int i;

	snprintf(dir, sizeof dir, "/fuzz-shm-%d", (int)getpid());
	check(shmcreate(dir, Logshm, Nringdef, 1000000, &srv) != NULL);
	atexit(cleanup);
	check(shmctl(srv, setup, sizeof setup - 1, 42, NULL, err, sizeof err) == 0);
	check(shmreader(srv, Readpid, 1) == 0);
	memset(&h, 0, sizeof h);
	for (i = 0; i < 20; i++) {	/* more than the ring: some lost */
		h.pc = 0x1500 + i;
		h.tid = h.pid = 7;
		devrecord(shmdev(srv), &h);
	}
	filebytes = Hdrbytes + devsize(Logshm, Nringdef);
	file = (char *)shmdev(srv) - Hdrbytes;
	tmpl = malloc(filebytes);
	check(tmpl != NULL);
	memcpy(tmpl, file, filebytes);
}

static int
okerrno(int e)
{
	return e == 0 || e == ENOENT || e == E2BIG || e == EEXIST || e == EINVAL ||
		e == ENOSPC || e == ERANGE || e == EIO || e == EAGAIN;
}

/* a device shmattach or shmopen accepted: read it as the server does */
static void
use(Shm *s, size_t cap)
{
	static char buf[Reclen * 8];
	char err[Errmax];
	size_t n, i, k;
	Reader r;
	int calls = 0;

	memset(state, 0xa5, sizeof state);
	errno = 0;
	n = shmstate(s, state, cap);
	check(n < cap && state[n] == 0 && strlen(state) == n);
	check(n > 0 || errno == EAGAIN);
	for (i = cap; i < sizeof state; i++)
		check((unsigned char)state[i] == 0xa5);
	memset(&r, 0, sizeof r);
	do {
		check(++calls <= Maxcalls);
		k = shmread(s, &r, buf, sizeof buf);
		check(k <= sizeof buf && k % Reclen == 0);
		for (i = 0; i < k; i += Reclen)
			check((buf[i] == 'E' || buf[i] == 'X') && buf[i + Reclen - 1] == '\n');
	} while (k > 0);
	check(okerrno(shmctl(s, "watch 7\n", 8, 42, NULL, err, sizeof err)));
	check(memchr(err, 0, sizeof err) != NULL);
	check(okerrno(shmreader(s, Readpid + 1, 1)));
	check(okerrno(shmreader(s, Readpid + 1, 0)));
	shmalive(s);
	shmserverpid(s);
	shmunmap(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const uint8_t *p = data, *end = data + n;
	size_t off, len;
	uint32_t o;
	uint64_t ino;
	Shm *s;

	if (srv == NULL)
		makedev();
	memcpy(file, tmpl, filebytes);
	while (end - p >= 5) {
		o = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
		len = p[4];
		p += 5;
		if (len > (size_t)(end - p))
			len = end - p;
		switch (o >> 24) {
		case 0:
			off = (o & 0xffffff) % Hdrbytes;
			break;
		case 1:
			off = Hdrbytes + (o & 0xffffff) % 256;
			break;
		default:
			off = o % filebytes;
		}
		if (len > filebytes - off)
			len = filebytes - off;
		memcpy(file + off, p, len);
		p += len;
	}
	if (shmattach(dir, &s, &ino) != NULL)
		use(s, n % 2 ? 100 : Statemax);	/* the server's buffer, or a short one */
	if (shmopen(dir, &s) != NULL)
		use(s, Statemax);
	return 0;
}
