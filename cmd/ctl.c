/*
 * ctl.c: devtrace ctl, echo ... > tracectl through the shared memory.
 * The arguments are one line.  Standard input is read a chunk at a time
 * and each chunk passed as a write to tracectl is: a line split across
 * chunks runs whole, an unfinished last line at the end (dev/ctlfile.c);
 * the first refusal ends it, as it ends cat's or dd's copy to tracectl.
 * A refusal prints what was refused (the line, or standard input) and
 * the device's reason, the text of the state's #error lines: the errno
 * alone is all a shell's echo can say.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/client.h"

enum { Ctlchunk = 64 * 1024 };	/* standard input is read this much at a time */

int
xctl(Cmd *c, int argc, char **argv)
{
	char err[Errmax], *buf;
	const char *what = "standard input";	/* what was refused */
	size_t n = 0, m, total = 0;
	ssize_t r;
	Ctlfile *f = NULL;
	Devsigs *sigs = NULL;	/* gathered before the lock (argnames.c) */
	Shm *s = NULL;
	int i, e = 0, ret = 1, wn = (int)strlen(what);

	while (nextopt(c, argc, argv, "+") != -1)
		;
	for (i = optind; i < argc; i++)
		n += strlen(argv[i]) + 1;
	if ((buf = malloc(n > Ctlchunk ? n : Ctlchunk)) == NULL || (f = calloc(1, sizeof *f)) == NULL) {
		perror("devtrace ctl");
		goto out;
	}
	s = attach();
	argnamesdir(clientdir());
	err[0] = 0;
	if (optind < argc) {
		for (n = 0, i = optind; i < argc; i++) {
			m = strlen(argv[i]);
			memcpy(buf + n, argv[i], m);
			n += m;
			buf[n++] = i + 1 < argc ? ' ' : '\n';
		}
		what = buf;
		wn = (int)n - 1;	/* the line without its newline */
		sigs = argnamessigs(buf, n, NULL);
		e = shmctl(s, buf, n, getpid(), sigs, err, sizeof err);
	} else {
		while (e == 0 && (r = read(0, buf, Ctlchunk)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				perror("devtrace ctl: standard input");
				goto out;
			}
			total += r;
			sigs = argnamessigs(buf, r, f);
			e = shmctlwrite(s, f, buf, r, getpid(), sigs, err, sizeof err);
			argnamesfree(sigs);
			sigs = NULL;
		}
		if (e == 0 && total)
			sigs = argnamessigs("", 0, f);
		if (e == 0)
			e = total ? shmctlclose(s, f, sigs, err, sizeof err) : shmctl(s, buf, 0, getpid(), NULL, err, sizeof err);	/* nothing: an empty command, as ever */
	}
	if (e != 0)
		fprintf(stderr, "devtrace ctl: %.*s: %s\n", wn, what, err[0] ? err : strerror(e));
	else
		ret = 0;
out:
	if (s != NULL)
		shmunmap(s);
	argnamesfree(sigs);
	free(buf);
	free(f);
	return ret;
}
