/*
 * client.c: what devtrace's commands share: their options, the device,
 * the programs they run and the server they start or stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cmd/client.h"

void
cmdusage(Cmd *c, FILE *f)
{
	fprintf(f, "usage: devtrace %s %s\n%s\n", c->name, c->args, c->what);
}

/* the next option of a command; --help and unknown ones end here */
int
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

int
badopt(const char *who, const char *witharg, const char *usage, char **argv)
{
	if (optopt && strchr(witharg, optopt))
		fprintf(stderr, "%s: -%c needs an argument\n", who, optopt);
	else if (optopt)
		fprintf(stderr, "%s: unknown option -%c\n", who, optopt);
	else
		fprintf(stderr, "%s: unknown option %s\n", who, argv[optind - 1]);
	fprintf(stderr, "%s", usage);
	return 2;
}

void
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

/* once: main has set $DEVTRACE_DIR from -d before any command asks */
const char *
clientdir(void)
{
	static char *dir;

	if (dir == NULL)
		dir = strdup(absdir(devdir()));
	return dir;
}

Shm *
attach(void)
{
	Shm *s;

	if (shmattach(clientdir(), &s, NULL) == NULL || !running(shmserverpid(s), "devtraced")) {
		fprintf(stderr, "devtrace: no devtraced serves %s (devtrace start starts one)\n", clientdir());
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

/* devtrace stop, and devtrace run's end when it started the server */
int
stopserver(int pid)
{
	struct timespec ts = { 0, 10 * 1000000L };
	int i;

	if (kill(pid, SIGTERM) < 0)
		return -1;
	for (i = 0; i < Stopwait / 10; i++) {
		if (!running(pid, NULL))
			return 0;
		nanosleep(&ts, NULL);
	}
	return 1;
}

static char *userpreload;	/* LD_PRELOAD as the user gave it, for unpreload */

/* LD_PRELOAD with the runtime library first, DEVTRACE_DIR the device's */
int
preload(const char *dir)
{
	char lib[PATH_MAX], want[PATH_MAX], *old, *env;

	snprintf(want, sizeof want, "%s/../lib/libdevtrace.so", bindir());
	if (realpath(want, lib) == NULL) {
		fprintf(stderr, "devtrace: no runtime library %s: %s\n", want, strerror(errno));
		return -1;
	}
	old = getenv("LD_PRELOAD");
	userpreload = old ? strdup(old) : NULL;
	if (old && *old && strstr(old, lib) == NULL) {
		if ((env = malloc(strlen(lib) + strlen(old) + 2)) == NULL)
			return -1;
		sprintf(env, "%s:%s", lib, old);
	} else
		env = old && *old ? old : lib;
	setenv("LD_PRELOAD", env, 1);
	setenv("DEVTRACE_DIR", dir, 1);
	return 0;
}

void
unpreload(void)
{
	if (userpreload)
		setenv("LD_PRELOAD", userpreload, 1);
	else
		unsetenv("LD_PRELOAD");
}

/* what execvp would find; a command checks before it changes anything */
/* path is a program execvp runs: 1; else 0, errno EISDIR, EACCES or ENOENT */
static int
isprog(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return errno = ENOENT, 0;
	if (S_ISDIR(st.st_mode))
		return errno = EISDIR, 0;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return errno = EACCES, 0;
	return 1;
}

int
findprog(const char *prog, char *path, size_t n)
{
	char *p, *q, *list;
	int found = 0, why = ENOENT;

	if (strchr(prog, '/')) {
		snprintf(path, n, "%s", prog);
		return isprog(prog);
	}
	if ((p = getenv("PATH")) == NULL || (list = strdup(p)) == NULL)
		return errno = ENOENT, 0;
	for (p = list; !found && p; p = q) {
		if ((q = strchr(p, ':')) != NULL)
			*q++ = 0;
		snprintf(path, n, "%s/%s", *p ? p : ".", prog);
		if (!(found = isprog(path)) && errno == EACCES)
			why = EACCES;	/* as execvp: one there but not runnable says more than none */
	}
	free(list);
	return found || (errno = why, 0);
}

/* why findprog found none, in words */
const char *
noprog(void)
{
	return errno == EISDIR ? "a directory, not a program" : errno == EACCES ? "not an executable file" : "program not found";
}

/* prog, attached (preload): its pid, or -1 */
pid_t
startprog(char **argv, const char *who, int *gate)
{
	int p[2] = { -1, -1 };
	pid_t pid;
	char c;

	fflush(NULL);
	if (gate && pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "%s: pipe: %s\n", who, strerror(errno));
		return -1;
	}
	if ((pid = fork()) < 0) {
		fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
		if (gate) {
			close(p[0]);
			close(p[1]);
		}
		return -1;
	}
	if (pid == 0) {
		if (gate) {
			close(p[1]);
			while (read(p[0], &c, 1) < 0 && errno == EINTR)
				;
			close(p[0]);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s\n", who, argv[0], strerror(errno));
		_exit(127);
	}
	if (gate) {
		close(p[0]);
		*gate = p[1];
	}
	return pid;
}

int
exitstatus(int ws)
{
	return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

