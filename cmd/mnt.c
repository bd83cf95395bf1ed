/*
 * mnt.c: where the files appear.  The mount point, cleared of a dead
 * server's mount, and as root the /dev links that lead into it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/fs.h"

static char *links[][2] = {
	{ "/dev/tracectl", "tracectl" },
	{ "/dev/trace", "trace" },
	{ "/dev/tracepipe", "tracepipe" },
	{ "/dev/tracesyms", "syms" },
};

/* dir as /proc/mounts shows it: the parent resolved, since dir itself may be a dead mount */
static int
mounted(const char *dir)
{
	char parent[PATH_MAX], real[PATH_MAX], want[PATH_MAX + 256], line[3 * PATH_MAX];
	char *base, *mp, *type, *p, *q;
	FILE *f;
	int found = 0;

	snprintf(parent, sizeof parent, "%s", dir);
	if ((base = strrchr(parent, '/')) == NULL)
		return 0;
	*base++ = 0;
	if (realpath(*parent ? parent : "/", real) == NULL)
		return 0;
	snprintf(want, sizeof want, "%s/%s", strcmp(real, "/") == 0 ? "" : real, base);
	if ((f = fopen("/proc/self/mounts", "r")) == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f)) {
		if (strtok(line, " ") == NULL || (mp = strtok(NULL, " ")) == NULL || (type = strtok(NULL, " ")) == NULL)
			continue;
		/* undo the octal escapes of spaces and such */
		for (p = q = mp; *p; p++, q++)
			if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3]) {
				*q = (p[1] - '0') << 6 | (p[2] - '0') << 3 | (p[3] - '0');
				p += 3;
			} else
				*q = *p;
		*q = 0;
		found = strcmp(mp, want) == 0 && strcmp(type, "fuse.devtraced") == 0;
	}
	fclose(f);
	return found;
}

/* a server killed without unmounting left its mount behind: we hold the lock, so it is dead */
void
unstale(const char *dir)
{
	int i, st;
	pid_t pid;

	for (i = 0; i < 8 && mounted(dir); i++) {
		if (umount2(dir, MNT_DETACH) == 0)
			continue;
		if ((pid = fork()) == 0) {
			execlp("fusermount3", "fusermount3", "-u", "-z", "-q", dir, (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			{
			fprintf(stderr, "devtraced: %s: cannot remove the stale mount of a dead server\n", dir);
			exit(1);
		}
	}
}

static void
linkpath(const char *dir, char *buf, size_t n, int i)
{
	snprintf(buf, n, "%s/%s", dir, links[i][1]);
}

/* links that lead elsewhere, to a device that answers, are another server's: leave them */
void
mklinks(const char *dir)
{
	char want[PATH_MAX], have[PATH_MAX];
	struct stat st;
	ssize_t n;
	unsigned i;

	for (i = 0; i < sizeof links / sizeof links[0]; i++) {
		linkpath(dir, want, sizeof want, i);
		if (lstat(links[i][0], &st) == 0) {
			n = readlink(links[i][0], have, sizeof have - 1);
			if (n >= 0 && (have[n] = 0, strcmp(have, want) == 0))
				continue;
			if (!S_ISLNK(st.st_mode) || stat(links[i][0], &st) == 0) {
				fprintf(stderr, "devtraced: %s exists and is not ours: left alone\n", links[i][0]);
				continue;
			}
			unlink(links[i][0]);
		}
		if (symlink(want, links[i][0]) < 0)
			fprintf(stderr, "devtraced: %s: %s\n", links[i][0], strerror(errno));
	}
}

void
rmlinks(const char *dir)
{
	char want[PATH_MAX], have[PATH_MAX];
	ssize_t n;
	unsigned i;

	for (i = 0; i < sizeof links / sizeof links[0]; i++) {
		linkpath(dir, want, sizeof want, i);
		n = readlink(links[i][0], have, sizeof have - 1);
		if (n >= 0 && (have[n] = 0, strcmp(have, want) == 0))
			unlink(links[i][0]);
	}
}
