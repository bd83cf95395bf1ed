/*
 * syms.c: the symbol file: "<pc> <name> <object>" for each function of
 * an object with hooks, appended to the device's .syms file once per
 * device, so that readers can name the records' pcs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt/rt.h"

/* "<pc> <name> <object>\n" at p, pc in 16 hex digits: snprintf's work here was a third of attaching */
static size_t
symline(char *p, uint64_t pc, const char *name, size_t nname, const char *obj, size_t nobj)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--, pc >>= 4)
		p[i] = hex[pc & 15];
	p[16] = ' ';
	memcpy(p + 17, name, nname);
	p[17 + nname] = ' ';
	memcpy(p + 18 + nname, obj, nobj);
	p[18 + nname + nobj] = '\n';
	return 19 + nname + nobj;
}

/* "<pc> <name> <object>" for each of o's functions the device can name */
void
objsyms(Obj *o)
{
	char path[PATH_MAX], *buf;
	size_t cap, len, nname, nobj;
	uint32_t i, n;
	const char *name;
	uint64_t pc;
	int fd;

	if (rt.dev == NULL || o->symsdev == rt.ino + 1 || (o->nsite == 0 && !o->classic))
		return;
	o->symsdev = rt.ino + 1;
	n = o->classic ? o->nsym : o->nsite;
	cap = (size_t)n * 64 + 4096;
	if (n == 0 || shmpath(rt.dir, ".syms", path, sizeof path) < 0 || (buf = malloc(cap)) == NULL)
		return;
	if ((fd = shmopenfile(path, O_WRONLY|O_APPEND|O_CREAT, 0600)) < 0) {	/* no link followed, ours only */
		free(buf);
		return;
	}
	len = 0;
	nobj = strlen(o->path);
	for (i = 0; i < n; i++) {
		if (o->classic) {
			pc = o->sym[i].pc;
			name = o->sym[i].name;
		} else {
			pc = siteat(o->first + i)->pc;
			name = siteat(o->first + i)->name;
		}
		if (name == NULL)
			continue;
		nname = strlen(name);
		if (cap - len < nname + nobj + 24) {
			/* whole lines per write: appends of other processes fall between them */
			if (write(fd, buf, len) < 0)
				break;
			len = 0;
		}
		if (cap - len < nname + nobj + 24)
			continue;	/* a line longer than the buffer: not nameable anyway */
		len += symline(buf + len, pc, name, nname, o->path, nobj);
	}
	if (len > 0 && write(fd, buf, len) < 0)
		rtdebug("%s: %s", path, strerror(errno));
	close(fd);
	free(buf);
}
