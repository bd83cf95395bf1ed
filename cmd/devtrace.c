/*
 * devtrace: the device from the command line.  ctl, cat and state go
 * through the shared memory directly, so they work where FUSE cannot
 * be mounted, and so does record (record.c); run, start, stop and
 * status manage the server.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "host/shm.h"
#include "cmd/cmd.h"

enum {
	Pollms = 5,		/* cat -f looks again this often */
	Ctlchunk = 64 * 1024,	/* standard input is read this much at a time */
};

typedef struct Cmd Cmd;
struct Cmd {
	char *name;
	int (*fn)(Cmd *, int, char **);
	char *args;
	char *what;
};

static char *dir;
static volatile sig_atomic_t intr;

static Cmd cmds[];
static int ncmds;

static void
usage(FILE *f)
{
	int i;

	fprintf(f, "usage: devtrace [-d dir] command [option ...] [arg ...]\n");
	for (i = 0; i < ncmds; i++)
		fprintf(f, "  %-7s %-22s %s\n", cmds[i].name, cmds[i].args, cmds[i].what);
	fprintf(f, "the device is the one served in dir: -d, else $DEVTRACE_DIR, else /run/devtrace as root,\n"
		"else $XDG_RUNTIME_DIR/devtrace; `devtrace command --help' tells more\n");
}

static void
cmdusage(Cmd *c, FILE *f)
{
	fprintf(f, "usage: devtrace %s %s\n%s\n", c->name, c->args, c->what);
}

/* the next option of a command; --help and unknown ones end here */
static int
nextopt(Cmd *c, int argc, char **argv, const char *sopts)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "follow", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	opterr = 0;
	ch = getopt_long(argc, argv, sopts, lo, NULL);
	if (ch == 'h') {
		cmdusage(c, stdout);
		exit(0);
	}
	if (ch == '?' || (ch != -1 && !strchr(sopts, ch))) {
		if (optopt)
			fprintf(stderr, "devtrace %s: unknown option -%c\n", c->name, optopt);
		else
			fprintf(stderr, "devtrace %s: unknown option %s\n", c->name, argv[optind - 1]);
		cmdusage(c, stderr);
		exit(2);
	}
	return ch;
}

static void
noargs(Cmd *c, int argc, char **argv)
{
	while (nextopt(c, argc, argv, "+") != -1)
		;
	if (optind < argc) {
		fprintf(stderr, "devtrace %s: unexpected argument '%s'\n", c->name, argv[optind]);
		cmdusage(c, stderr);
		exit(2);
	}
}

/* the device, if a live server serves it */
Shm *
attach(void)
{
	Shm *s;

	if (shmattach(dir, &s, NULL) == NULL || !running(shmserverpid(s), "devtraced")) {
		fprintf(stderr, "devtrace: no devtraced serves %s (devtrace start starts one)\n", dir);
		exit(1);
	}
	return s;
}

int
writeall(int fd, const char *buf, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, buf, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= w;
	}
	return 0;
}

/* devtraced from beside this binary, with args; its exit status */
int
spawn(char **args, int nargs)
{
	char path[PATH_MAX], **av;
	int i, st;
	pid_t pid;

	snprintf(path, sizeof path, "%s/devtraced", bindir());
	if ((av = calloc(nargs + 2, sizeof *av)) == NULL)
		return 1;
	av[0] = path;
	for (i = 0; i < nargs; i++)
		av[i + 1] = args[i];
	if ((pid = fork()) < 0) {
		perror("devtrace: fork");
		return 1;
	}
	if (pid == 0) {
		execv(path, av);
		fprintf(stderr, "devtrace: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	free(av);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/*
 * The arguments are one line.  Standard input is read a chunk at a time
 * and each chunk passed as a write to tracectl is: a line split across
 * chunks runs whole, an unfinished last line at the end (dev/ctlfile.c);
 * the first refusal ends it, as it ends cat's or dd's copy to tracectl.
 */
static int
xctl(Cmd *c, int argc, char **argv)
{
	char err[Errmax], *buf;
	size_t n = 0, m, total = 0;
	ssize_t r;
	Ctlfile *f = NULL;
	Shm *s = NULL;
	int i, e = 0, ret = 1;

	while (nextopt(c, argc, argv, "+") != -1)
		;
	for (i = optind; i < argc; i++)
		n += strlen(argv[i]) + 1;
	if ((buf = malloc(n > Ctlchunk ? n : Ctlchunk)) == NULL || (f = calloc(1, sizeof *f)) == NULL) {
		perror("devtrace ctl");
		goto out;
	}
	s = attach();
	err[0] = 0;
	if (optind < argc) {
		for (n = 0, i = optind; i < argc; i++) {
			m = strlen(argv[i]);
			memcpy(buf + n, argv[i], m);
			n += m;
			buf[n++] = i + 1 < argc ? ' ' : '\n';
		}
		e = shmctl(s, buf, n, getpid(), err, sizeof err);
	} else {
		while (e == 0 && (r = read(0, buf, Ctlchunk)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				perror("devtrace ctl: standard input");
				goto out;
			}
			total += r;
			e = shmctlwrite(s, f, buf, r, getpid(), err, sizeof err);
		}
		if (e == 0)
			e = total ? shmctlclose(s, f, err, sizeof err) : shmctl(s, buf, 0, getpid(), err, sizeof err);	/* nothing: an empty command, as ever */
	}
	if (e != 0)
		fprintf(stderr, "devtrace: %s\n", err[0] ? err : strerror(e));
	else
		ret = 0;
out:
	if (s != NULL)
		shmunmap(s);
	free(buf);
	free(f);
	return ret;
}

static void
onsig(int sig)
{
	(void)sig;
	intr = 1;
}

static int
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
		return catfile(c, argv[optind]);	/* a file devtrace record saved */
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

static int
xstate(Cmd *c, int argc, char **argv)
{
	char *buf;
	size_t n;
	Shm *s;

	noargs(c, argc, argv);
	s = attach();
	if ((buf = malloc(Statemax)) == NULL)
		return 1;
	n = shmstate(s, buf, Statemax);
	shmunmap(s);
	if (n == 0) {	/* the lock was not had */
		fprintf(stderr, "devtrace state: %s\n", shmbusy(errno));
		free(buf);
		return 1;
	}
	n = writeall(1, buf, n) < 0;
	free(buf);
	return n;
}

/* the aggregations, as cat aggs (or, -m, aggraw) prints them */
static int
xaggs(Cmd *c, int argc, char **argv)
{
	char syms[PATH_MAX], *buf;
	size_t n;
	Shm *s;
	int form = Aprinta;

	while (nextopt(c, argc, argv, "+m") != -1)
		form = Amachine;
	if (optind < argc) {
		fprintf(stderr, "devtrace aggs: unexpected argument '%s'\n", argv[optind]);
		cmdusage(c, stderr);
		return 2;
	}
	s = attach();
	buf = aggtext(s, shmpath(dir, ".syms", syms, sizeof syms) < 0 ? NULL : syms, form, &n);
	shmunmap(s);
	if (buf == NULL) {
		fprintf(stderr, "devtrace aggs: %s\n", errno == ENOMEM ? strerror(errno) : shmbusy(errno));
		return 1;
	}
	n = writeall(1, buf, n) < 0;
	free(buf);
	return n;
}

static int
xsyms(Cmd *c, int argc, char **argv)
{
	char path[PATH_MAX], buf[8192];
	size_t n;
	FILE *f;

	noargs(c, argc, argv);
	attach();
	if (shmpath(dir, ".syms", path, sizeof path) < 0 || (f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "devtrace: no symbol file for %s\n", dir);
		return 1;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (writeall(1, buf, n) < 0)
			return 1;
	fclose(f);
	return 0;
}

static int
xstatus(Cmd *c, int argc, char **argv)
{
	int pid;

	noargs(c, argc, argv);
	if ((pid = livepid(dir)) == 0) {
		printf("no devtraced serves %s\n", dir);
		return 1;
	}
	printf("devtraced pid %d serves %s\n", pid, dir);
	return 0;
}

/* the options after start are devtraced's: it judges them */
static int
xstart(Cmd *c, int argc, char **argv)
{
	int i, pid;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cmdusage(c, stdout);
			printf("options, passed to devtraced:\n");
			fflush(stdout);
			return spawn((char *[]){ "--help" }, 1);
		}
	if ((pid = livepid(dir)) > 0) {
		fprintf(stderr, "devtrace: devtraced pid %d already serves %s\n", pid, dir);
		return 0;
	}
	return spawn(argv + 1, argc - 1);
}

static int
xstop(Cmd *c, int argc, char **argv)
{
	struct timespec ts = { 0, 10 * 1000000L };
	int pid, i;

	noargs(c, argc, argv);
	if ((pid = livepid(dir)) == 0) {
		fprintf(stderr, "devtrace: no devtraced serves %s\n", dir);
		return 1;
	}
	if (kill(pid, SIGTERM) < 0) {
		fprintf(stderr, "devtrace: kill %d: %s\n", pid, strerror(errno));
		return 1;
	}
	for (i = 0; i < Stopwait / 10; i++) {
		if (!running(pid, NULL))
			return 0;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "devtrace: devtraced pid %d did not stop in %d s\n", pid, Stopwait / 1000);
	return 1;
}

static Cmd cmds[] = {
	{ "run", xrun, "[-tpov] [--] prog ...", "run prog attached to the device (LD_PRELOAD), starting a server if none runs; -t glob: a whole session, printing the call flow" },
	{ "ctl", xctl, "[command ...]", "write a command line, the arguments or standard input, as echo ... > tracectl does" },
	{ "cat", xcat, "[-f] | FILE", "print the queued records, consuming them, as cat trace does; -f, --follow: wait for more; FILE: the records devtrace record saved in it" },
	{ "record", xrecord, "-o FILE [prog ...]", "save the records, binary, into FILE as fast as they are written, until SIGINT or prog's exit" },
	{ "state", xstate, "", "print the device's state, as cat tracectl does" },
	{ "syms", xsyms, "", "print the symbol file: pc name object, one line per function" },
	{ "aggs", xaggs, "[-m]", "print the aggregations, as cat aggs does; -m: one line a key and bucket, as cat aggraw does" },
	{ "status", xstatus, "", "tell whether a server runs, its pid and directory (exit 1 if none)" },
	{ "start", xstart, "[devtraced option ...]", "start a server unless one runs" },
	{ "stop", xstop, "", "stop the server and wait until it is gone" },
};
static int ncmds = sizeof cmds / sizeof cmds[0];

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		}
		if ((strcmp(argv[i], "-d") == 0 || strcmp(argv[i], "--dir") == 0) && i + 1 < argc)
			setenv("DEVTRACE_DIR", argv[++i], 1);
		else if (strncmp(argv[i], "--dir=", 6) == 0)
			setenv("DEVTRACE_DIR", argv[i] + 6, 1);
		else {
			fprintf(stderr, "devtrace: %s %s\n", argv[i],
				strcmp(argv[i], "-d") == 0 ? "needs a directory" : "is an unknown option");
			usage(stderr);
			return 2;
		}
	}
	if (i == argc) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[i], "help") == 0) {
		usage(stdout);
		return 0;
	}
	dir = strdup(absdir(devdir()));
	for (int j = 0; j < ncmds; j++)
		if (strcmp(argv[i], cmds[j].name) == 0)
			return cmds[j].fn(&cmds[j], argc - i, argv + i);
	fprintf(stderr, "devtrace: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return 2;
}
