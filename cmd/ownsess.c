/*
 * ownsess.c: a session of a command's own, for devtrace run, record
 * and aggs with -t.  It clones a session over the device (held by this
 * process: the server reaps it if we are killed), makes its traces from
 * the -t patterns with -p's predicate and -a's aggregations, sets its
 * policy, starts the program behind a gate (startprog's pipe: it execs
 * once `watch PID' and `start' are written, so the session records it
 * alone, from its first call), and at the end stops, removes its
 * traces and closes the session.  What the session's records or
 * aggregations become is the command's: it reads them in between.
 * Other users' traces neither see its records nor lose theirs to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/client.h"
#include "dev/lib.h"

static volatile sig_atomic_t child;

static void
onsig(int sig)
{
	/* the terminal's ^C reaches prog itself; what is sent to us alone is passed on */
	if (child > 0 && sig != SIGINT && sig != SIGQUIT)
		kill(child, sig);
}

/* the device matches names as fnmatch does without escapes (dev/lib.c: globmatch) */
static char *
badglob(const char *g)
{
	const char *p;

	if (*g == 0)
		return "empty pattern";
	if (strlen(g) >= Globlen)
		return "longer than 63 bytes";
	for (p = g; *p; p++) {
		if (*p == '[') {
			/* [ then ! then at least one member, then ]: what the device accepts */
			const char *q = p + 1;
			if (*q == '!')
				q++;
			if (*q == 0 || (q = strchr(q + 1, ']')) == NULL)
				return "[ without ]";
			p = q;
			continue;
		}
		/* ":" is a probe's, provider:name */
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$-*?:", *p))
			return "a character no function name has";
	}
	return NULL;
}

int
ownglob(Ownsess *o, char *glob)
{
	if (o->nglob == Nglob) {
		fprintf(stderr, "%s: more than %d -t\n", o->who, Nglob);
		return 2;
	}
	o->glob[o->nglob++] = glob;
	return 0;
}

int
owncheck(Ownsess *o)
{
	int i;

	for (i = 0; i < o->nglob; i++) {
		char *why = badglob(o->glob[i]);
		if (why) {
			fprintf(stderr, "%s: -t '%s': bad pattern: %s\n", o->who, o->glob[i], why);
			return 1;
		}
	}
	if (o->nglob > 0)
		return 0;
	/* each option that shapes the session's traces needs one */
	if (o->pred)
		fprintf(stderr, "%s: -p needs a -t to attach it to\n", o->who);
	else if (o->nagg)
		fprintf(stderr, "%s: -a needs a -t to attach it to\n", o->who);
	else if (o->policy)
		fprintf(stderr, "%s: -P needs a -t: it is the policy of a session's own\n", o->who);
	return o->pred || o->nagg || o->policy ? 2 : 0;
}

int
ownopen(Ownsess *o, const char *prog)
{
	char path[PATH_MAX];
	struct stat sb;

	o->dir = clientdir();
	if (!findprog(prog, path, sizeof path)) {
		fprintf(stderr, "%s: %s: %s\n", o->who, prog, noprog());
		return 127;
	}
	/* -p names the program's arguments before it has attached */
	argnamesdir(o->dir);
	argnamesobj(path);
	if (preload(o->dir) < 0)
		return 1;
	if (livepid(o->dir) == 0) {
		/* two commands at once may race to start it: the loser finds the winner's */
		o->own = spawn((char *[]){ "-n" }, 1) == 0;
		if (!o->own && livepid(o->dir) == 0)
			return 1;
	}
	if (shmattach(o->dir, &o->top, NULL) == NULL) {
		/* a server runs but its header does not check */
		if (livepid(o->dir) > 0)
			return Owndamaged;
		fprintf(stderr, "%s: no devtraced serves %s\n", o->who, o->dir);
		return 1;
	}
	if ((o->sess = shmclone(o->top, getuid(), getpid(), o->err, sizeof o->err)) < 0) {
		fprintf(stderr, "%s: %s\n", o->who, o->err);
		return 1;
	}
	if ((o->s = shmsess(o->top, o->sess)) == NULL) {
		fprintf(stderr, "%s: session %d: %s\n", o->who, o->sess, strerror(errno));
		return 1;
	}
	if (shmpath(o->dir, ".syms", o->syms, sizeof o->syms) < 0)
		o->syms[0] = 0;
	o->symoff = stat(o->syms, &sb) == 0 ? sb.st_size : 0;
	return 0;
}

char *
ownstate(Ownsess *o)
{
	char *st;

	if ((st = stateget(o->s, o->who)) == NULL)
		exit(1);
	return st;
}

/* a shell word, for -v: the line inside single quotes */
static void
showline(Ownsess *o, const char *line)
{
	const char *p;

	fputs("# echo '", stderr);
	for (p = line; *p; p++)
		if (*p == '\'')
			fputs("'\\''", stderr);
		else
			fputc(*p, stderr);
	fprintf(stderr, "' > %s/%d/ctl\n", o->dir, o->sess);
}

/* an expression's error is three lines, the reason, the text and a caret: made one */
static void
oneline(char *err)
{
	char *text, *caret, *end;

	if ((text = strchr(err, '\n')) == NULL)
		return;
	*text++ = 0;
	if ((caret = strchr(text, '\n')) != NULL && (end = strchr(++caret, '^')) != NULL && caret[0] == ' ' && caret[1] == ' ')
		snprintf(err + strlen(err), Errmax - strlen(err), " at column %d", (int)(end - caret) - 1);
}

int
ownctl(Ownsess *o, const char *line, int quiet)
{
	char buf[Linemax + 2];
	Devsigs *sigs;
	size_t n;
	int e;

	n = snprintf(buf, sizeof buf, "%s\n", line);
	if (n >= sizeof buf) {
		fprintf(stderr, "%s: %s: line too long\n", o->who, line);
		return E2big;
	}
	if (o->show)
		showline(o, line);
	o->err[0] = 0;
	sigs = argnamessigs(buf, n, NULL);
	e = shmctl(o->s, buf, n, getpid(), sigs, o->err, sizeof o->err);
	argnamesfree(sigs);
	if (e != 0 && o->err[0] == 0)
		snprintf(o->err, sizeof o->err, "%s", strerror(e));
	if (e != 0)
		oneline(o->err);
	if (e != 0 && !quiet)
		fprintf(stderr, "%s: %s\n", o->who, o->err);
	return e;
}

/* "trace NAME pred /EXPR/" or "agg NAME DEF": refused, told as the option that gave it, without the command's name */
static int
optline(Ownsess *o, const char *line, int opt, const char *arg, const char *cmd)
{
	size_t n = strlen(cmd);

	if (strlen(line) >= Linemax) {
		fprintf(stderr, "%s: -%c: too long\n", o->who, opt);
		return -1;
	}
	if (ownctl(o, line, 1) == 0)
		return 0;
	fprintf(stderr, "%s: -%c '%s': %s\n", o->who, opt, arg,
		strncmp(o->err, cmd, n) == 0 && strncmp(o->err + n, ": ", 2) == 0 ? o->err + n + 2 : o->err);
	return -1;
}

/* trace i's name: the first free runN; a command at the same moment may take it, then the next */
static int
mktrace(Ownsess *o, int i, int *k)
{
	char line[Linemax + 1], *st = ownstate(o);
	Statetrace t;

	/* the device refuses a second trace of one pattern; say which one has it */
	if (statetrace(st, o->glob[i], NULL, &t)) {
		fprintf(stderr, "%s: -t '%s': the session has a trace of that pattern already: %.*s\n",
			o->who, o->glob[i], t.len, t.line);
		return -1;
	}
	for (;; ++*k) {
		snprintf(o->name[i], Namelen, "run%d", *k);
		if (statetrace(st, NULL, o->name[i], &t))
			continue;
		snprintf(line, sizeof line, "trace %s new %s", o->glob[i], o->name[i]);
		if (ownctl(o, line, 1) == 0)
			break;
		st = ownstate(o);
		if (!statetrace(st, NULL, o->name[i], &t)) {
			fprintf(stderr, "%s: %s\n", o->who, o->err);
			return -1;
		}
	}
	++*k;
	o->nmade = i + 1;
	return 0;
}

int
owntraces(Ownsess *o)
{
	char line[Linemax + 64];
	int i, j, k = 1;

	for (i = 0; i < o->nglob; i++) {
		if (mktrace(o, i, &k) < 0)
			return -1;
		snprintf(line, sizeof line, "trace %s pred /%s/", o->name[i], o->pred ? o->pred : "");
		if (o->pred && optline(o, line, 'p', o->pred, "trace") < 0)
			return -1;
		for (j = 0; j < o->nagg; j++) {
			if (o->aggt && o->aggt[j] != i)
				continue;
			snprintf(line, sizeof line, "agg %s %s", o->name[i], o->agg[j]);
			if (optline(o, line, 'a', o->agg[j], "agg") < 0)
				return -1;
		}
		snprintf(line, sizeof line, "trace %s on", o->name[i]);
		if (ownctl(o, line, 0) != 0)
			return -1;
	}
	snprintf(line, sizeof line, "policy %s", o->policy ? o->policy : "");
	if (o->policy && optline(o, line, 'P', o->policy, "policy") < 0)
		return -1;
	return 0;
}

pid_t
ownstart(Ownsess *o, char **argv)
{
	struct sigaction sa;
	char line[32];
	int gate, st;
	pid_t pid;

	if ((pid = startprog(argv, o->who, &gate)) < 0)
		return -1;
	snprintf(line, sizeof line, "watch %d tree", (int)pid);	/* and the processes it starts */
	if (ownctl(o, line, 0) != 0 || ownctl(o, "start", 0) != 0) {
		kill(pid, SIGKILL);
		close(gate);
		waitpid(pid, &st, 0);
		return -1;
	}
	o->started = 1;
	close(gate);
	child = o->pid = pid;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onsig;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return pid;
}

int
ownwait(Ownsess *o, int hang)
{
	int ws, rc;

	if (o->pid <= 0)	/* none started, or reaped already: never waitpid(0) */
		return 1;
	while ((rc = waitpid(o->pid, &ws, hang ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (rc == 0)
		return -1;
	child = o->pid = 0;
	if (rc < 0) {
		fprintf(stderr, "%s: waitpid: %s\n", o->who, strerror(errno));
		return 1;
	}
	return exitstatus(ws);
}

int
ownstop(Ownsess *o)
{
	char line[64];
	int i, rc = 0;

	if (o->started && ownctl(o, "stop", 0) != 0)
		rc = 1;
	o->started = 0;
	for (i = o->nmade - 1; i >= 0; i--) {
		snprintf(line, sizeof line, "trace %s remove", o->name[i]);
		if (ownctl(o, line, 0) != 0)
			rc = 1;
	}
	o->nmade = 0;
	return rc;
}

int
ownnomatch(Ownsess *o)
{
	char line[8192], name[4096];
	int i, rc = 0, *hit;
	FILE *f;

	if (o->nglob == 0)
		return 0;
	if ((f = fopen(o->syms, "r")) == NULL || fseeko(f, 0, SEEK_END) != 0 || ftello(f) <= o->symoff) {
		fprintf(stderr, "%s: the program wrote no symbols: was it built with devtrace-cc?\n", o->who);
		if (f)
			fclose(f);
		return 1;
	}
	if ((hit = calloc(o->nglob, sizeof *hit)) == NULL) {
		fclose(f);
		return 0;
	}
	fseeko(f, o->symoff, SEEK_SET);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%*s %4095s", name) == 1)
			for (i = 0; i < o->nglob; i++)
				hit[i] |= globmatch(o->glob[i], name);
	fclose(f);
	for (i = 0; i < o->nglob; i++)
		if (!hit[i]) {
			fprintf(stderr, "%s: -t '%s': no function of the program matched\n", o->who, o->glob[i]);
			rc = 1;
		}
	free(hit);
	return rc;
}

void
ownclose(Ownsess *o)
{
	int pid;

	if (o->s) {
		shmsessclose(o->top, o->sess);
		shmunmap(o->s);	/* the session's handle alone: the mapping is o->top's */
	}
	o->s = NULL;
	if (o->own && (pid = livepid(o->dir)) != 0)
		stopserver(pid);
	o->own = 0;
}
