/* live.c: is a server serving a directory?  Helpers both commands use. */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "host/shm.h"
#include "cmd/cmd.h"

int
running(int pid, const char *comm)
{
	char path[64], buf[512], *p, *q;
	FILE *f;
	size_t n;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	/* "pid (comm) S ...": comm may hold spaces and parentheses */
	if ((p = strchr(buf, '(')) == NULL || (q = strrchr(buf, ')')) == NULL || q[1] != ' ')
		return 0;
	if (q[2] == 'Z' || q[2] == 'X')
		return 0;
	*q = 0;
	return comm == NULL || strcmp(p + 1, comm) == 0;
}

/* pid has dir's lock file open: dir's server, not another that took a dead one's pid */
static int
holdslock(int pid, const char *dir)
{
	char path[PATH_MAX], proc[64], fd[64 + NAME_MAX + 2];
	struct stat lk, st;
	struct dirent *e;
	DIR *d;
	int found = 0;

	if (shmpath(dir, ".lock", path, sizeof path) < 0 || lstat(path, &lk) < 0)
		return 0;
	snprintf(proc, sizeof proc, "/proc/%d/fd", pid);
	if ((d = opendir(proc)) == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		snprintf(fd, sizeof fd, "%s/%s", proc, e->d_name);
		found = e->d_name[0] != '.' && stat(fd, &st) == 0 && st.st_dev == lk.st_dev && st.st_ino == lk.st_ino;
	}
	closedir(d);
	return found;
}

/* the header names the server; a damaged one does not, so the lock file does */
int
livepid(const char *dir)
{
	Shm *s;
	int pid;

	if (shmattach(dir, &s, NULL) != NULL) {
		pid = shmserverpid(s);
		shmunmap(s);
		if (running(pid, "devtraced"))
			return pid;
	}
	pid = shmlockpid(dir);
	return running(pid, "devtraced") && holdslock(pid, dir) ? pid : 0;
}

char *
absdir(const char *dir)
{
	static char buf[PATH_MAX];
	char cwd[PATH_MAX];

	if (dir[0] == '/' || getcwd(cwd, sizeof cwd) == NULL || snprintf(buf, sizeof buf, "%s/%s", cwd, dir) >= (int)sizeof buf)
		snprintf(buf, sizeof buf, "%s", dir);
	return buf;
}

char *
bindir(void)
{
	static char buf[PATH_MAX];
	ssize_t n;
	char *p;

	if ((n = readlink("/proc/self/exe", buf, sizeof buf - 1)) < 0)
		return strcpy(buf, ".");
	buf[n] = 0;
	if ((p = strrchr(buf, '/')) != NULL)
		*p = 0;
	return buf;
}

uint32_t
tgidof(uint32_t tid)
{
	char path[64], line[128];
	unsigned v;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%u/status", tid);
	if ((f = fopen(path, "r")) == NULL)
		return tid;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Tgid: %u", &v) == 1) {
			fclose(f);
			return v;
		}
	fclose(f);
	return tid;
}

/* a reader's signals: INT, TERM and HUP call on (which ends its loop, so
 * it leaves the reader list), a closed pipe is an error of write(2) */
void
catchstop(void (*on)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}
