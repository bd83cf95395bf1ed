/*
 * devtraced: serve the trace device's files (tracectl, trace, tracepipe,
 * syms) through FUSE in devdir(), with the device in shared memory
 * where every traced process maps it, in a directory only the user can
 * write (shmmkdir).  As root, /dev/tracectl and friends lead there.
 * One server per directory: a lock file there says so, and names the
 * server's pid for devtrace stop when the device's header is damaged.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host/linux.h"
#include "cmd/fs.h"
#include "cmd/cmd.h"

enum {
	Readywait = 30000,	/* ms the parent waits for the mount */
	Nringauto = 1024,	/* the most rings the default -M gives: 96 GiB of address space at -m 20, sessions included */
};


static char *dir;
static char lockpath[PATH_MAX];
static int readyfd = -1;
static volatile sig_atomic_t stop;

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: devtraced [-fnF] [-d dir] [-m log2] [-M size]\n"
		"serve the trace device's files tracectl, trace, tracepipe and syms in dir\n"
		"  -f, --foreground    stay in front; default: background once the files are ready\n"
		"  -n, --no-dev-links  as root, do not make /dev/tracectl, /dev/trace, /dev/tracepipe, /dev/tracesyms\n"
		"  -F, --no-files      serve the device in shared memory only, for devtrace ctl, cat and run;\n"
		"                      also what happens, with a warning, when FUSE cannot mount\n"
		"  -d, --dir DIR       serve in DIR; default $DEVTRACE_DIR, /run/devtrace as root,\n"
		"                      else $XDG_RUNTIME_DIR/devtrace\n"
		"  -m, --max-size N    the largest ring that `size' may ask for: 2^N records (%d..%d, default %d)\n"
		"  -M, --ring-memory SIZE  memory for the traced threads' own rings at the default\n"
		"                      size, 4M each (K, M, G: 1024s); a thread past them writes\n"
		"                      the one shared ring (#ringless); default 1/16 of the\n"
		"                      machine's memory, %d to %d rings\n"
		"      --help          this text\n"
		"stop it with SIGTERM or `devtrace stop'\n",
		Logmin, Logmax, Logmax, Nringdef, Nringauto);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "devtraced: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void
mkdirp(char *path)
{
	char *p;

	for (p = path + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
}

/*
 * Held for the server's life; the inode check catches a lock file a
 * stopping server removed.  In the private directory, never through a
 * link: no other user can plant it, hold it, or make us create theirs.
 */
static int
lockdir(void)
{
	char priv[PATH_MAX];
	struct stat a, b;
	int fd;

	if (shmpath(dir, ".lock", lockpath, sizeof lockpath) < 0)
		die("%s: name too long", dir);
	if (shmmkdir(priv, sizeof priv) < 0)
		die("%s: %s (it must be a directory of yours that no one else may write)", priv, strerror(errno));
	for (;;) {
		if ((fd = shmopenfile(lockpath, O_RDWR | O_CREAT, 0600)) < 0)
			die("%s: %s (it must be a file of yours that no one else may write)", lockpath, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			close(fd);
			return -1;
		}
		if (fstat(fd, &a) == 0 && lstat(lockpath, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			return fd;
		close(fd);
	}
}

/* a link another user planted in a shared directory would carry the mount elsewhere */
static void
mine(struct stat *st)
{
	if (!S_ISDIR(st->st_mode) || st->st_uid != geteuid())
		die("%s: not a directory of yours (a link or another user's): not served", dir);
}

/* the lock file names the server (shmlockpid): the daemon's pid, once it is the daemon */
static void
writepid(int lockfd)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%d\n", (int)getpid());

	if (ftruncate(lockfd, 0) < 0 || pwrite(lockfd, buf, n, 0) != n)
		die("%s: %s", lockpath, strerror(errno));
}

/*
 * The daemon keeps no descriptor of its caller's: a test harness waits
 * for those to close: close_range around the two it keeps; without it
 * (a kernel before 5.9) a close a descriptor up to the limit, 20,000
 * system calls at every start here (ulimit -n).
 */
static void
closefds(int keep1, int keep2)
{
	int keep[2] = { keep1 < keep2 ? keep1 : keep2, keep1 < keep2 ? keep2 : keep1 };
	int fd, max = sysconf(_SC_OPEN_MAX), i;
	unsigned from = 3;

	for (i = 0; i < 2; i++) {
		if (keep[i] < (int)from)
			continue;
		if ((unsigned)keep[i] > from && close_range(from, keep[i] - 1, 0) < 0)
			break;
		from = keep[i] + 1;
	}
	if (i == 2 && close_range(from, ~0u, 0) == 0)
		return;
	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = 3; fd < max; fd++)
		if (fd != keep1 && fd != keep2)
			close(fd);
}

/* fork; the parent exits once the child's files answer, or with the child's failure */
static void
background(int lockfd)
{
	struct pollfd pfd;
	int p[2], st;
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	if ((pid = fork()) < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(p[0]);
		readyfd = p[1];
		setsid();
		closefds(lockfd, readyfd);
		return;
	}
	close(p[1]);
	pfd.fd = p[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, Readywait) == 1 && read(p[0], &c, 1) == 1)
		exit(0);
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(pid, SIGTERM);
		die("the server did not become ready in %d s", Readywait / 1000);
	}
	exit(WIFEXITED(st) && WEXITSTATUS(st) ? WEXITSTATUS(st) : 1);
}

/* the kernel has said hello: from here on the files answer */
static void
ready(void)
{
	int fd;

	if (readyfd < 0)
		return;
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (write(readyfd, "r", 1) != 1) {
		/* the parent is gone: nobody to tell */
	}
	close(readyfd);
	readyfd = -1;
}

/* a ring of its own at the default size (Logdef), its header included */
static uint64_t
ringbytes(void)
{
	return devsize(Logdef, 1) - devsize(Logdef, 0);
}

/* -M's SIZE as rings: N[K|M|G], at least one ring; 0: refused */
static int
ringsof(const char *arg)
{
	static const char units[] = "KMG";
	unsigned long long v;
	const char *u;
	char *e;

	errno = 0;
	v = strtoull(arg, &e, 10);
	if (*arg < '0' || *arg > '9' || errno)
		return 0;
	if (*e && (u = strchr(units, *e)) != NULL && e[1] == 0)
		v <<= 10 * (u - units + 1);
	else if (*e)
		return 0;
	if (v < ringbytes() - ringbytes() / 64)	/* less than one ring, its header aside */
		return 0;
	v = (v + ringbytes() / 2) / ringbytes();	/* nearest: 64M is 16 rings, their headers aside */
	return v < 1 ? 0 : v > Nringmax ? Nringmax : (int)v;
}

/* the default: 1/16 of the machine's memory, in rings of the default size */
static int
ringsauto(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), pagesize = sysconf(_SC_PAGESIZE);
	uint64_t n = pages > 0 && pagesize > 0 ? (uint64_t)pages * pagesize / 16 / ringbytes() : 0;

	return n < Nringdef ? Nringdef : n > Nringauto ? Nringauto : (int)n;
}

static void
onsig(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "no-dev-links", no_argument, NULL, 'n' },
		{ "no-files", no_argument, NULL, 'F' },
		{ "dir", required_argument, NULL, 'd' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "ring-memory", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, fg = 0, nolinks = 0, nofiles = 0, logmax = Logmax, nring = 0, lockfd, pid;
	sigset_t block, waitmask;
	struct fuse_session *se;
	Srv s;
	struct stat st;
	char shmfile[PATH_MAX];
	ino_t ino;
	uint64_t hz;
	char *e;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "fnFd:m:M:h", opts, NULL)) != -1)
		switch (c) {
		case 'f':
			fg = 1;
			break;
		case 'n':
			nolinks = 1;
			break;
		case 'F':
			nofiles = 1;
			break;
		case 'd':
			setenv("DEVTRACE_DIR", optarg, 1);
			break;
		case 'm':
			logmax = strtol(optarg, &e, 10);
			if (*optarg == 0 || *e || logmax < Logmin || logmax > Logmax) {
				fprintf(stderr, "devtraced: -m wants a number from %d to %d, not '%s'\n", Logmin, Logmax, optarg);
				return 2;
			}
			break;
		case 'M':
			if ((nring = ringsof(optarg)) == 0) {
				fprintf(stderr, "devtraced: -M wants a size of at least one ring, %lluK (N, NK, NM or NG), not '%s'\n",
					(unsigned long long)ringbytes() >> 10, optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			if (optopt)
				fprintf(stderr, "devtraced: option -%c %s\n", optopt,
					strchr("dmM", optopt) ? "needs an argument" : "is unknown");
			else
				fprintf(stderr, "devtraced: option %s is unknown or needs an argument\n", argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	if (optind < argc) {
		fprintf(stderr, "devtraced: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	dir = strdup(absdir(devdir()));
	argnamesdir(dir);	/* trace NAME pred /count > 4096/ written to tracectl */
	mkdirp(dir);
	/* before the lock, so a refused start leaves nothing; again after the mkdir */
	if (lstat(dir, &st) == 0)
		mine(&st);
	if ((lockfd = lockdir()) < 0) {
		if ((pid = livepid(dir)) > 0)
			die("%s is already served by devtraced pid %d", dir, pid);
		die("%s is already served by another devtraced, which is starting or stopping", dir);
	}
	unstale(dir);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		die("%s: %s", dir, strerror(errno));
	if (lstat(dir, &st) < 0)
		die("%s: %s", dir, strerror(errno));
	mine(&st);
	memset(&s, 0, sizeof s);
	s.dir = dir;
	s.ready = ready;
	if (shmpath(dir, ".syms", s.syms, sizeof s.syms) < 0)
		die("%s: name too long", dir);
	hz = shmhz();

	if (!fg)
		background(lockfd);
	if (chdir("/") < 0)
		die("chdir /: %s", strerror(errno));
	/* signals are taken only inside ppoll or sigsuspend: no stop is missed, none leaves a mount behind */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGHUP);
	catchstop(onsig);
	if (shmpath(dir, "", shmfile, sizeof shmfile) < 0)
		die("%s: name too long", dir);
	if (shmcreate(dir, logmax, nring ? nring : ringsauto(), hz, &s.shm) == NULL || lstat(shmfile, &st) < 0)
		die("cannot make the device in %s: %s", shmfile, strerror(errno));
	ino = st.st_ino;
	writepid(lockfd);	/* after the header: a starting server is never taken for a damaged one */
	hostrefresh();	/* testtracein's predicates see the server's name */
	/* without FUSE the device still serves devtrace ctl, cat and run */
	se = NULL;
	if (!nofiles && (se = fsnew(&s)) != NULL && fuse_session_mount(se, dir) != 0) {
		fuse_session_destroy(se);
		se = NULL;
	}
	if (!nofiles && se == NULL)
		fprintf(stderr, "devtraced: cannot mount the files on %s (is fuse3 installed, /dev/fuse there?): "
			"serving the device without them, for devtrace ctl, cat and run\n", dir);
	if (se && geteuid() == 0 && !nolinks)
		mklinks(dir);

	if (se)
		fsloop(se, &stop, &waitmask);
	else {
		ready();
		while (!stop)
			sigsuspend(&waitmask);
	}

	/* attached processes switch their hooks off when alive drops */
	if (se && geteuid() == 0 && !nolinks)
		rmlinks(dir);
	shmstop(s.shm);
	if (se) {
		fuse_session_unmount(se);
		fuse_session_destroy(se);
	}
	/* a device made since for the same directory is not ours to remove */
	if (lstat(shmfile, &st) == 0 && st.st_ino == ino)
		shmremove(dir);
	shmunmap(s.shm);
	unlink(lockpath);
	close(lockfd);
	return 0;
}
