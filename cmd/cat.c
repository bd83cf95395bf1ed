/*
 * cat.c: devtrace cat, cat trace through the shared memory: the queued
 * records, consumed, as lines; -f waits for more.  devtrace cat FILE:
 * the records devtrace record saved in FILE (capfile.h), as the lines
 * reading trace would have given, made by the device's own formatter,
 * after the file's #hz and #clock as the device's state gives them: the
 * scripts take their time unit from them, with no device at hand.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/capfile.h"

enum {
	Pollms = 5,		/* cat -f looks again this often */
	Nrec = 16384,		/* cat FILE: lines formatted per write */
};

static volatile sig_atomic_t intr;

static void
onsig(int sig)
{
	(void)sig;
	intr = 1;
}

/* the file's records merged by time, as lines on standard output */
static int
catfile(const char *path)
{
	static char buf[Nrec * Reclen];
	const Rec *r;
	Capfile *f;
	size_t nl = 0, n, i;
	int rc = 0;

	if ((f = capopen(path, "devtrace cat")) == NULL)
		return 1;
	if (caphz(f) != 0)
		nl = snprintf(buf, sizeof buf, "#hz %llu\n", (unsigned long long)caphz(f));
	if (capinfo(f, "clock", 0) != NULL)
		nl += snprintf(buf + nl, sizeof buf - nl, "#clock %s\n", capinfo(f, "clock", 0));
	if (nl > 0)
		rc = writeall(1, buf, nl) < 0;
	nl = 0;
	while (rc == 0 && (r = caprun(f, Nrec - nl, &n)) != NULL) {
		for (i = 0; i < n; i++)
			devfmt(buf + nl++ * Reclen, &r[i]);
		if (nl == Nrec) {
			rc = writeall(1, buf, nl * Reclen) < 0;
			nl = 0;
		}
	}
	if (rc == 0 && nl > 0)
		rc = writeall(1, buf, nl * Reclen) < 0;
	rc |= captruncated(f);
	capclose(f);
	return rc;
}

int
xcat(Cmd *c, int argc, char **argv)
{
	struct timespec ts = { 0, Pollms * 1000000L };
	static char buf[1024 * 1024];	/* as much as cat trace reads at once (fs.c: st_blksize) */
	Reader r;
	size_t n;
	Shm *s;
	int ch, follow = 0, rc = 0;

	while ((ch = nextopt(c, argc, argv, "+f")) != -1)
		follow = 1;
	if (optind < argc && !follow && optind + 1 == argc)
		return catfile(argv[optind]);
	if (optind < argc) {
		fprintf(stderr, "devtrace cat: unexpected argument '%s'\n", argv[optind + (optind + 1 < argc)]);
		cmdusage(c, stderr);
		return 2;
	}
	s = attach();
	/* a signal ends the loop, so the reader is always taken off the list */
	catchstop(onsig);
	if (shmreader(s, getpid(), 1) != 0) {
		fprintf(stderr, "devtrace: %s\n", deverr(shmdev(s)));
		return 1;
	}
	memset(&r, 0, sizeof r);
	while (!intr) {
		if ((n = shmread(s, &r, buf, sizeof buf)) > 0) {
			if (writeall(1, buf, n) < 0) {
				if (errno != EPIPE)	/* a reader that went away needs no message */
					fprintf(stderr, "devtrace cat: standard output: %s\n", strerror(errno));
				rc = 1;
				break;
			}
			continue;
		}
		if (!follow || !shmalive(s))
			break;
		nanosleep(&ts, NULL);
	}
	shmreader(s, getpid(), 0);
	shmunmap(s);
	return rc;
}
