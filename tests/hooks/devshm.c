/*
 * devshm: a device without FUSE, for the hooks' tests.
 *	devshm DIR create [LOG]	make the shared device a server would
 *	devshm DIR ctl WORD...	one control line (the words, space-separated)
 *	devshm DIR state	what tracectl reads
 *	devshm DIR cat		the records queued now
 *	devshm DIR syms		the symbol file
 *	devshm DIR aggs		the aggregations, as the aggs file prints them (cmd/aggtext.c)
 *	devshm DIR stop		the server goes (shmstop), the device stays
 *	devshm DIR destroy	stop and remove
 *	devshm DIR reader PROG ARG...	run PROG as a reader of trace (not traced)
 *	devshm DIR scribble [N]	damage the block as a hostile traced process could, N times
 *				(1 ms apart): log past the mapping, head, tail, nwatch, names
 *				without NUL, slots' tickets, the error text
 *	devshm DIR hold MS	take the device's lock and keep it MS milliseconds
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include "host/shm.h"
#include "dev/dat.h"
#include "cmd/cmd.h"

/* what a traced process of the same user can do: write anything anywhere in the block */
static void
scribble(Dev *d, unsigned n)
{
	struct timespec ms = { 0, 1000 * 1000 };
	unsigned i, k;
	Trace *t;

	srand(getpid());
	for (i = 0; i < n; i++) {
		__atomic_store_n(&d->log, 30, __ATOMIC_RELAXED);
		__atomic_fetch_add(&d->head, 0x3fff0000ull, __ATOMIC_RELAXED);
		d->tail = __atomic_load_n(&d->head, __ATOMIC_RELAXED) + 1000;
		d->nwatch = 0xffffffffu;
		for (t = d->trace; t < d->trace + Ntrace; t++)
			if (t->gen) {
				memset(t->name, 'n', Namelen);
				memset(t->glob, 'g', Globlen);
				memset(t->predsrc, 'p', Predmax);
			}
		memset(d->err, 'e', Errmax);
		for (k = 0; k < 64; k++)
			d->slot[rand() % 256].seq = (uint64_t)rand() << 1 | 1;
		d->stuck = ~0ull;
		nanosleep(&ms, NULL);
	}
}

static void
die(const char *why)
{
	fprintf(stderr, "devshm: %s\n", why);
	exit(1);
}

/* the device main opened, unmapped at exit */
static Shm *opened;

static void
unmap(void)
{
	shmunmap(opened);
}

int
main(int argc, char **argv)
{
	char buf[Statemax], err[Errmax], path[4096];
	const char *dir, *cmd;
	Reader rd = { 0 };
	size_t n;
	Shm *s;
	FILE *f;
	int i, e;

	if (argc < 3)
		die("usage: devshm DIR create|ctl|clone|sessctl|state|cat|syms|stop|destroy|reader|scribble|hold ...");
	dir = argv[1];
	cmd = argv[2];
	if (strcmp(cmd, "create") == 0) {
		if (shmcreate(dir, argc > 3 ? atoi(argv[3]) : 16, Nringdef, shmhz(), &s) == NULL)
			die(strerror(errno));
		return 0;
	}
	if (strcmp(cmd, "destroy") == 0) {
		if (shmattach(dir, &s, NULL) != NULL)
			shmstop(s);
		shmremove(dir);
		return 0;
	}
	if (strcmp(cmd, "syms") == 0) {
		if (shmpath(dir, ".syms", path, sizeof path) < 0 || (f = fopen(path, "r")) == NULL)
			die("no symbol file");
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, n, stdout);
		return 0;
	}
	/* the device, served or not: a stopped server's records are still there to read */
	if (shmopen(dir, &s) == NULL)
		die("no device");
	opened = s;
	atexit(unmap);	/* every command returns from main: the handle goes with the mapping */
	/* clone [PID]: a session held by PID (this process), reaped by a clone after it is gone */
	if (strcmp(cmd, "clone") == 0) {
		if ((e = shmclone(s, getuid(), argc > 3 ? atoi(argv[3]) : getpid(), err, sizeof err)) < 0)
			die(err);
		printf("%d\n", e);
		return 0;
	}
	/* sessctl N LINE...: ctl on session N */
	if (strcmp(cmd, "sessctl") == 0 && argc > 3) {
		if ((s = shmsess(s, atoi(argv[3]))) == NULL)
			die("no such session");
		argv++;
		argc--;
		cmd = "ctl";
	}
	if (strcmp(cmd, "ctl") == 0) {
		buf[0] = 0;
		for (i = 3; i < argc; i++) {
			if (strlen(buf) + strlen(argv[i]) + 2 > sizeof buf)
				die("line too long");
			if (i > 3)
				strcat(buf, " ");
			strcat(buf, argv[i]);
		}
		if ((e = shmctl(s, buf, strlen(buf), getpid(), NULL, err, sizeof err)) != 0) {
			fprintf(stderr, "devshm: %s: %s\n", buf, err);
			return 1;
		}
		return 0;
	}
	if (strcmp(cmd, "aggs") == 0) {
		char *t;

		if (shmpath(dir, ".syms", path, sizeof path) < 0 || (t = aggtext(s, path, Aprinta, &n)) == NULL)
			die("no aggregations");
		fwrite(t, 1, n, stdout);
		free(t);
		return 0;
	}
	if (strcmp(cmd, "state") == 0) {
		n = shmstate(s, buf, sizeof buf);
		fwrite(buf, 1, n, stdout);
		return 0;
	}
	if (strcmp(cmd, "cat") == 0) {
		while ((n = shmread(s, &rd, buf, sizeof buf)) > 0)
			fwrite(buf, 1, n, stdout);
		return 0;
	}
	if (strcmp(cmd, "scribble") == 0) {
		scribble(shmdev(s), argc > 3 ? (unsigned)atoi(argv[3]) : 1);
		return 0;
	}
	if (strcmp(cmd, "hold") == 0 && argc > 3) {
		struct timespec ts = { atoi(argv[3]) / 1000, atoi(argv[3]) % 1000 * 1000000L };

		if ((e = shmlock(s)) != 0)
			die(shmbusy(e));
		nanosleep(&ts, NULL);
		shmunlock(s);
		return 0;
	}
	if (strcmp(cmd, "stop") == 0) {
		shmstop(s);
		return 0;
	}
	if (strcmp(cmd, "reader") == 0 && argc > 3) {
		if (shmreader(s, getpid(), 1) != 0)
			die("too many readers");
		execvp(argv[3], argv + 3);
		die(strerror(errno));
	}
	die("unknown command");
	return 1;
}
