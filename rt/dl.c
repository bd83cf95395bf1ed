/*
 * dl.c: objects loaded after start-up.  The runtime's dlopen runs the
 * real one, then (outermost call only: a constructor's own dlopen runs
 * with the loader's lock held) scans for new objects, gives them sites
 * and applies the control state before the program can call into them.
 * An object with hooks is then made RTLD_NODELETE: its sites stay in
 * the runtime's tables for good, so dlclose never unmaps code the
 * runtime may still patch.
 *
 * The real dlopen would search the runtime's own RPATH/RUNPATH, not the
 * caller's; for a bare name the caller's search list (dlinfo
 * RTLD_DI_SERINFO of the calling object) is tried first.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt/rt.h"

void *(*realdlopen)(const char *, int);
static __thread int depth __attribute__((tls_model("initial-exec")));

void
dlinit(void)
{
	if (realdlopen == NULL)
		realdlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
}

/* a bare name, searched as the caller's loader would: its RPATH, LD_LIBRARY_PATH, its RUNPATH */
static void *
opencaller(const char *file, int mode, void *caller)
{
	struct link_map *lm = NULL, *self = NULL;
	Dl_serinfo sz, *si;
	Dl_info info;
	char path[PATH_MAX];
	void *h = NULL;
	unsigned i;

	if (file == NULL || strchr(file, '/') || (mode & RTLD_NOLOAD))
		return NULL;
	if (!dladdr1(caller, &info, (void **)&lm, RTLD_DL_LINKMAP) || lm == NULL)
		return NULL;
	if (dladdr1((void *)opencaller, &info, (void **)&self, RTLD_DL_LINKMAP) && self == lm)
		return NULL;
	/* loaded already (by name or soname): the plain call finds it */
	if ((h = realdlopen(file, mode | RTLD_NOLOAD)) != NULL) {
		dlclose(h);
		return NULL;
	}
	if (dlinfo(lm, RTLD_DI_SERINFOSIZE, &sz) != 0 || (si = malloc(sz.dls_size)) == NULL)
		return NULL;
	si->dls_size = sz.dls_size;
	si->dls_cnt = sz.dls_cnt;
	if (dlinfo(lm, RTLD_DI_SERINFO, si) == 0)
		for (i = 0; i < si->dls_cnt && h == NULL; i++) {
			/* the cache and the default directories: the plain call searches them alike */
			if (si->dls_serpath[i].dls_flags & (LA_SER_CONFIG | LA_SER_DEFAULT))
				break;
			if (strlen(si->dls_serpath[i].dls_name) + strlen(file) + 2 > sizeof path)
				continue;
			strcpy(path, si->dls_serpath[i].dls_name);
			strcat(path, "/");
			strcat(path, file);
			if (access(path, F_OK) == 0)
				h = realdlopen(path, mode);
		}
	free(si);
	return h;
}

static void
rescan(void)
{
	uint32_t first, i;
	void *h;
	int n;
	Obj *o;

	pthread_mutex_lock(&rt.lock);
	first = rt.nobj;
	n = objscan();
	if (n > 0)
		ctlgrow(first);
	pthread_mutex_unlock(&rt.lock);
	if (n == 0)
		return;
	for (i = first; i < ald(&rt.nobj); i++) {
		o = rt.obj[i];
		if ((o->nsite || o->classic) && !o->inmain && o->path[0] &&
		    (h = realdlopen(o->path, RTLD_LAZY|RTLD_NOLOAD|RTLD_NODELETE)) != NULL)
			dlclose(h);	/* NODELETE stays */
	}
	ctlstart();
}

__attribute__((visibility("default"))) void *
dlopen(const char *file, int mode)
{
	void *caller = __builtin_return_address(0), *h;

	dlinit();
	if (realdlopen == NULL)
		return NULL;
	depth++;
	if ((h = opencaller(file, mode, caller)) == NULL)
		h = realdlopen(file, mode);
	depth--;
	if (h && depth == 0 && ald(&rt.ready) && !(mode & RTLD_NOLOAD))
		rescan();
	return h;
}
