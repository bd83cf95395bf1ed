/*
 * toppolicy.c: the top level's buffer policy for a capture's duration
 * (devtrace record without -t keeps every record: policy block while it
 * reads).  The policy it replaced is put back at the end, unless another
 * command changed it meanwhile: the last change wins.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cmd/client.h"

/* the state's "policy ..." line into line (as the state shows it: valid input again); -1 if the lock was not had */
static int
policyline(Shm *s, char *line, size_t n, const char *who)
{
	const char *l;
	size_t len = 0;

	if ((l = stateget(s, who)) == NULL)
		return -1;
	for (; *l; l += len + (l[len] == '\n'))
		if ((len = strcspn(l, "\n")) > 7 && strncmp(l, "policy ", 7) == 0)
			break;
	if (*l == 0 || len + 2 > n)	/* no policy line: nothing to put back */
		len = 0;
	memcpy(line, l, len);
	line[len] = '\n';
	line[len + 1] = 0;
	return 0;
}

int
toppolicyset(Shm *s, Toppolicy *t, const char *policy, const char *who)
{
	char line[sizeof t->set + 8], err[256];
	int e;

	t->was[0] = t->set[0] = 0;
	if (policyline(s, t->was, sizeof t->was, who) < 0)
		return 1;
	snprintf(line, sizeof line, "policy %s\n", policy);
	err[0] = 0;
	if ((e = shmctl(s, line, strlen(line), getpid(), NULL, err, sizeof err)) != 0) {
		fprintf(stderr, "%s: -P '%s': %s\n", who, policy,
			strncmp(err, "policy: ", 8) == 0 ? err + 8 : err[0] ? err : strerror(e));
		t->was[0] = 0;
		return 1;
	}
	return policyline(s, t->set, sizeof t->set, who) < 0;
}

int
toppolicyrestore(Shm *s, Toppolicy *t, const char *who)
{
	char now[sizeof t->set], was[sizeof t->was], err[256];
	int e;

	if (t->was[0] == 0 || strcmp(t->was, t->set) == 0)
		return 0;
	if (policyline(s, now, sizeof now, who) < 0)
		return 1;
	memcpy(was, t->was, sizeof was);
	t->was[0] = 0;	/* once: a second call does nothing */
	if (strcmp(now, t->set) != 0)	/* changed meanwhile: theirs stays */
		return 0;
	err[0] = 0;
	if ((e = shmctl(s, was, strlen(was), getpid(), NULL, err, sizeof err)) != 0) {
		fprintf(stderr, "%s: %.*s: %s\n", who, (int)strlen(was) - 1, was, err[0] ? err : strerror(e));
		return 1;
	}
	return 0;
}
