/*
 * shmpath.c: where the device's files live (the device, its symbol
 * file, the server's lock file) and that they are ours alone (shm.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev/lib.h"
#include "host/shm.h"

const char *
devdir(void)
{
	static char buf[PATH_MAX];
	const char *e;

	if ((e = getenv("DEVTRACE_DIR")) != NULL && *e)
		return e;
	if (geteuid() == 0)
		return "/run/devtrace";
	if ((e = getenv("XDG_RUNTIME_DIR")) != NULL && *e)
		snprintf(buf, sizeof buf, "%s/devtrace", e);
	else
		snprintf(buf, sizeof buf, "/tmp/devtrace-%u", (unsigned)geteuid());
	return buf;
}

/*
 * The device's files live in a directory only their owner can write,
 * so that no other user can plant a link or a file of theirs there
 * (NOTES: the files' threat model): as root /run/devtrace.shm; else
 * /run/user/UID/devtrace.shm, the runtime directory systemd makes
 * (named, not read from $XDG_RUNTIME_DIR: the server and every traced
 * program must find the same place whatever their environments); where
 * there is none, /dev/shm/devtrace-UID, checked to be ours.
 */
static int
privdir(char *buf, size_t n)
{
	char rd[64];
	struct stat st;
	uid_t u = geteuid();

	if (u == 0)
		return snprintf(buf, n, "/run/devtrace.shm") >= (int)n ? -1 : 0;
	snprintf(rd, sizeof rd, "/run/user/%u", (unsigned)u);
	if (lstat(rd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == u && (st.st_mode & 022) == 0)
		return snprintf(buf, n, "%s/devtrace.shm", rd) >= (int)n ? -1 : 0;
	return snprintf(buf, n, "/dev/shm/devtrace-%u", (unsigned)u) >= (int)n ? -1 : 0;
}

/* of the type, ours, and writable by no one else: what OpenSSH asks of its files */
static int
owned(int fd, mode_t type)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return 0;
	if ((st.st_mode & S_IFMT) != type || st.st_uid != geteuid() || (st.st_mode & 022) != 0) {
		errno = EPERM;
		return 0;
	}
	return 1;
}

int
shmmkdir(char *buf, size_t n)
{
	int fd, e;

	if (privdir(buf, n) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return -1;
	if ((fd = open(buf, O_RDONLY|O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC)) < 0)
		return -1;
	/* ours but readable by others (made by hand): made private, not refused */
	if (!owned(fd, S_IFDIR) || fchmod(fd, 0700) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

int
shmopenfile(const char *path, int flags, mode_t mode)
{
	int fd, e;

	if ((fd = open(path, flags|O_NOFOLLOW|O_CLOEXEC, mode)) < 0)
		return -1;
	if (!owned(fd, S_IFREG)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* FNV-1a of the absolute directory name: one device per directory */
int
shmpath(const char *dir, const char *suffix, char *buf, size_t n)
{
	char abs[PATH_MAX], priv[PATH_MAX];

	if (dir[0] == '/')
		snprintf(abs, sizeof abs, "%s", dir);
	else if (getcwd(abs, sizeof abs) == NULL)
		return -1;
	else
		snprintf(abs + strlen(abs), sizeof abs - strlen(abs), "/%s", dir);
	if (privdir(priv, sizeof priv) < 0)
		return -1;
	return snprintf(buf, n, "%s/%016llx%s", priv, (unsigned long long)strhash(abs), suffix) >= (int)n ? -1 : 0;
}

int
shmlockpid(const char *dir)
{
	char path[PATH_MAX], buf[32];
	ssize_t r;
	int fd;

	if (shmpath(dir, ".lock", path, sizeof path) < 0 || (fd = shmopenfile(path, O_RDONLY, 0)) < 0)
		return 0;
	r = pread(fd, buf, sizeof buf - 1, 0);
	close(fd);
	if (r <= 0)
		return 0;
	buf[r] = 0;
	return atoi(buf) > 0 ? atoi(buf) : 0;
}
