/* shm.c: name, create and map the shared device (see shm.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "host/shm.h"
#include "dev/host.h"
#include "cycles.h"

/*
 * The header page, in shared memory: every attached process may write
 * it, so a process keeps what it must trust (where the device is, the
 * mapping's size) in its own Shm, the handle the functions take.
 */
typedef struct Hdr Hdr;
struct Hdr {
	uint32_t magic;
	uint32_t alive;		/* 1 while a server serves this device */
	uint32_t serverpid;
	uint32_t lock;		/* the control side's lock: its holder's tid, 0 free (shmlock) */
	uint64_t devsize;
	char dir[3900];		/* the directory the server mounted */
};

/*
 * The magic names the layout too: "dvsh" + 1 since the lock became a
 * futex word of ours (it was glibc's mutex), so a server or a process of
 * the other layout refuses the block (shmattach: no server) and never
 * takes the other's lock bytes for its own.
 */
enum { Shmhdr = 4096, Shmmagic = 0x64767368 + 1 };
_Static_assert(sizeof(Hdr) <= Shmhdr, "the header fits its page");

/* one process's mapping of a device */
struct Shm {
	Hdr *h;
	Dev *d;		/* at h + Shmhdr */
	size_t size;	/* of the mapping */
	uint32_t holder;	/* the tid of this process's thread that holds h->lock by this handle, or 0 */
};

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
	uint64_t h = 0xcbf29ce484222325ull;
	const char *p;

	if (dir[0] == '/')
		snprintf(abs, sizeof abs, "%s", dir);
	else if (getcwd(abs, sizeof abs) == NULL)
		return -1;
	else
		snprintf(abs + strlen(abs), sizeof abs - strlen(abs), "/%s", dir);
	for (p = abs; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	if (privdir(priv, sizeof priv) < 0)
		return -1;
	return snprintf(buf, n, "%s/%016llx%s", priv, (unsigned long long)h, suffix) >= (int)n ? -1 : 0;
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

/* one calibration for every device maker: records' ticks become time with it; none where the ISA gives the rate */
uint64_t
shmhz(void)
{
	struct timespec ts = { 0, 25 * 1000000L };
	uint64_t n0, c0, n1, c1;

	if (cycleshz() != 0)
		return cycleshz();
	n0 = hostnsec();
	c0 = hostticks();
	nanosleep(&ts, NULL);
	c1 = hostticks();
	n1 = hostnsec();
	return (uint64_t)((double)(c1 - c0) * 1e9 / (double)(n1 - n0));
}

static Hdr *
mapfd(int fd, size_t size)
{
	void *v = mmap(NULL, size, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0);

	if (v == MAP_FAILED)
		return NULL;
	/*
	 * No readahead: where the block is a file system's sparse file (a
	 * /run on disk), a hook's first touch of a page (its ring's header
	 * as it claims it, its aggregation table) faulted in a large folio of
	 * readahead, zeroed: milliseconds on a thread's first hit.  Now one
	 * page a fault.  tmpfs does no readahead: nothing changes there.
	 */
	madvise(v, size, MADV_RANDOM);
	return v;
}

/*
 * What hostlogmax answers: the ring size of each device this process
 * mapped, from the size of its mapping, kept here where no other process
 * writes.  Read on a writer's first hit (hit.c: decide) and by the
 * control side, so lock-free: an entry's logmax is stored before its d.
 */
enum { Nmap = 32 };
static struct {
	Dev *d;
	uint32_t logmax;
	uint32_t nring;
} maps[Nmap];

static void
remember(Dev *d, int l, int nring)
{
	static uint32_t next;
	Dev *none;
	int i;

	for (i = 0; i < Nmap; i++) {
		none = NULL;
		if (__atomic_load_n(&maps[i].d, __ATOMIC_RELAXED) == NULL &&
		    __atomic_compare_exchange_n(&maps[i].d, &none, (Dev *)1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			goto found;
	}
	/*
	 * Full: the runtime keeps the mapping of every device it left (hooks
	 * may hold it), so a long life of server restarts gets here.  The
	 * oldest goes: its device is long gone, and a thread that wrote to
	 * it keeps its bound in its Writer.
	 */
	i = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % Nmap;
	__atomic_store_n(&maps[i].d, (Dev *)1, __ATOMIC_RELEASE);
found:
	maps[i].logmax = l;
	maps[i].nring = nring;
	__atomic_store_n(&maps[i].d, d, __ATOMIC_RELEASE);
}

/* the process made the block itself: its nring is as it set it */
void
shmprivate(Dev *d, int logmax)
{
	uint32_t l, n;

	devsizes(d, &l, &n);
	remember(d, logmax, n <= Nringmax ? n : 0);
}

static void
forget(Dev *d)
{
	int i;

	for (i = 0; i < Nmap; i++)
		if (__atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE) == d)
			__atomic_store_n(&maps[i].d, NULL, __ATOMIC_RELEASE);
}

/* 0 for a block this process did not map: then every size in it is damage */
uint32_t
hostlogmax(const Dev *d)
{
	int i;

	for (i = 0; i < Nmap; i++)
		if (__atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE) == d)
			return maps[i].logmax;
	return 0;
}

uint32_t
hostnring(const Dev *d)
{
	int i;

	for (i = 0; i < Nmap; i++)
		if (__atomic_load_n(&maps[i].d, __ATOMIC_ACQUIRE) == d)
			return maps[i].nring;
	return 0;
}

/* l and nring: the sizes the block was made with, checked against the mapping's size by the caller */
static Shm *
handle(Hdr *h, size_t size, int l, int nring)
{
	Shm *s;

	if ((s = malloc(sizeof *s)) == NULL) {
		munmap(h, size);
		return NULL;
	}
	s->h = h;
	s->d = (Dev *)((char *)h + Shmhdr);
	s->size = size;
	s->holder = 0;
	remember(s->d, l, nring);
	return s;
}

Dev *
shmdev(Shm *s)
{
	return s->d;
}

Dev *
shmcreate(const char *dir, int logmax, uint64_t hz, Shm **hdr)
{
	char path[PATH_MAX], syms[PATH_MAX], priv[PATH_MAX];
	size_t size = Shmhdr + devsize(logmax, Nringdef);
	Hdr *h;
	Shm *s;
	int fd;

	if (shmpath(dir, "", path, sizeof path) < 0 || shmpath(dir, ".syms", syms, sizeof syms) < 0 ||
	    shmmkdir(priv, sizeof priv) < 0)
		return NULL;
	/* a stale device of a killed server goes: its processes keep their mapping */
	unlink(path);
	unlink(syms);
	if ((fd = shmopenfile(path, O_RDWR|O_CREAT|O_EXCL, 0600)) < 0)
		return NULL;
	if (ftruncate(fd, size) < 0 || (h = mapfd(fd, size)) == NULL || (s = handle(h, size, logmax, Nringdef)) == NULL) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	if ((fd = shmopenfile(syms, O_WRONLY|O_CREAT|O_EXCL, 0600)) >= 0)
		close(fd);
	devinit(s->d, logmax, Nringdef, hz);
	h->devsize = devsize(logmax, Nringdef);
	h->serverpid = getpid();
	snprintf(h->dir, sizeof h->dir, "%s", dir);
	__atomic_store_n(&h->alive, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&h->magic, Shmmagic, __ATOMIC_RELEASE);
	*hdr = s;
	return s->d;
}

/* map dir's device; served: only while a server serves it */
static Dev *
mapdev(const char *dir, int served, Shm **hdr, uint64_t *ino)
{
	char path[PATH_MAX];
	struct stat st;
	Hdr *h;
	Dev *d;
	uint32_t l, n;
	int fd;

	if (shmpath(dir, "", path, sizeof path) < 0)
		return NULL;
	if ((fd = shmopenfile(path, O_RDWR, 0)) < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < Shmhdr + sizeof(Hdr) ||
	    (h = mapfd(fd, st.st_size)) == NULL) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != Shmmagic ||
	    (served && !__atomic_load_n(&h->alive, __ATOMIC_ACQUIRE)) ||
	    Shmhdr + h->devsize != (uint64_t)st.st_size || !devok((Dev *)((char *)h + Shmhdr), h->devsize)) {
		munmap(h, st.st_size);
		return NULL;
	}
	/*
	 * The sizes to trust from now on, read once and checked against the
	 * mapping: any pair that makes its size places every ring inside it.
	 */
	d = (Dev *)((char *)h + Shmhdr);
	devsizes(d, &l, &n);
	if (l < Logmin || l > Logmax || n > Nringmax || Shmhdr + devsize(l, n) != (uint64_t)st.st_size) {
		munmap(h, st.st_size);
		return NULL;
	}
	if ((*hdr = handle(h, st.st_size, l, n)) == NULL)
		return NULL;
	if (ino)
		*ino = st.st_ino;
	return (*hdr)->d;
}

Dev *
shmattach(const char *dir, Shm **hdr, uint64_t *ino)
{
	return mapdev(dir, 1, hdr, ino);
}

Dev *
shmopen(const char *dir, Shm **hdr)
{
	return mapdev(dir, 0, hdr, NULL);
}

/*
 * Asked by the runtime's control thread on each turn and by devtrace
 * cat -f when it finds nothing to read, never on the hook path: a call
 * costs nothing there worth showing the header's layout for.
 */
int
shmalive(Shm *s)
{
	return __atomic_load_n(&s->h->alive, __ATOMIC_ACQUIRE) != 0;
}

int
shmserverpid(Shm *s)
{
	return (int)__atomic_load_n(&s->h->serverpid, __ATOMIC_RELAXED);
}

void
shmunmap(Shm *s)
{
	forget(s->d);
	munmap(s->h, s->size);
	free(s);
}

void
shmremove(const char *dir)
{
	char path[PATH_MAX];

	if (shmpath(dir, "", path, sizeof path) == 0)
		unlink(path);
	if (shmpath(dir, ".syms", path, sizeof path) == 0)
		unlink(path);
}

static long
futex(uint32_t *w, int op, uint32_t v, const struct timespec *ts)
{
	return syscall(SYS_futex, w, op, v, ts, NULL, 0);
}

/*
 * The control side's lock is one 32-bit word of the header, which every
 * attached process may write, so no value of it may hurt the caller:
 * it holds the tid of the thread that holds the lock, 0 when free.
 * Nothing is read through it, only compared and given to kill(2) after
 * a range check, so a scribble can make it look busy (a live tid: a
 * caller waits Lockms, then EAGAIN, as for a holder that never lets go),
 * free, or held by a dead thread or by no thread at all (taken over by
 * the next caller, as a robust mutex's dead owner was).  glibc's robust
 * mutex it replaces keeps its kind and its robust list in its bytes and
 * follows them: a scribbled kind aborted the server (fuzz_shm finding 9),
 * a scribbled list pointer is dereferenced at lock and unlock.
 *
 * A tid, not a pid: the runtime's control thread and a program's own
 * threads (tests/dev/lock_test.c) lock in one process, and a thread that
 * died holding it must free it as a process does; kill(tid, 0) answers
 * for a thread too (ESRCH once it has gone).  A holder whose tid is
 * reused before a caller looks makes the lock busy, not shared: pids
 * cycle through /proc/sys/kernel/pid_max (up to 2^22) first.
 */
enum {
	Lockms = 100,	/* the longest a caller waits */
	Lockslicems = 5,	/* one futex wait: then the holder's life is asked again */
	Pidmax = 1 << 22,	/* the kernel's PID_MAX_LIMIT: above it a word is no tid */
};

static uint32_t
mytid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* no thread holds the lock with o in its word: no tid, or a thread that has gone */
static int
ownergone(uint32_t o)
{
	return o == 0 || o > Pidmax || !hostalive(o);
}

int
shmlock(Shm *s)
{
	uint32_t me = mytid(), o = 0;
	uint64_t end = hostnsec() + Lockms * 1000000ull, t;
	struct timespec ts;

	/* held by this thread through this handle: relocking would deadlock */
	if (__atomic_load_n(&s->holder, __ATOMIC_RELAXED) == me)
		return errno = EAGAIN;
	for (;;) {
		if (__atomic_compare_exchange_n(&s->h->lock, &o, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		/*
		 * o is what the word holds: our own tid there is a scribble
		 * (we do not hold it), and a holder gone is replaced by a
		 * compare-and-swap on exactly o, so of two callers that found
		 * it gone one takes it
		 */
		if ((t = hostnsec()) >= end)	/* also for a word that keeps changing */
			return errno = EAGAIN;
		if (o == me || ownergone(o))
			continue;
		t = end - t;
		if (t > Lockslicems * 1000000ull)
			t = Lockslicems * 1000000ull;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)t;
		futex(&s->h->lock, FUTEX_WAIT, o, &ts);	/* shared between processes: not FUTEX_PRIVATE */
		o = 0;
	}
	__atomic_store_n(&s->holder, me, __ATOMIC_RELAXED);
	return errno = 0;
}

/* a word no longer ours was scribbled on or taken over: left as it is */
void
shmunlock(Shm *s)
{
	uint32_t me = mytid(), o = me;

	if (__atomic_load_n(&s->holder, __ATOMIC_RELAXED) == me)
		__atomic_store_n(&s->holder, 0, __ATOMIC_RELAXED);
	if (__atomic_compare_exchange_n(&s->h->lock, &o, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		futex(&s->h->lock, FUTEX_WAKE, 1, NULL);
}

void
shmwake(Shm *s)
{
	futex(devctlgen(shmdev(s)), FUTEX_WAKE, INT32_MAX, NULL);
}

int
shmwait(Shm *s, uint32_t gen, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	uint32_t *w = devctlgen(shmdev(s));

	if (__atomic_load_n(w, __ATOMIC_ACQUIRE) != gen)
		return 0;
	futex(w, FUTEX_WAIT, gen, &ts);
	return __atomic_load_n(w, __ATOMIC_ACQUIRE) != gen ? 0 : -1;
}

/* the server goes: waiters wake, find alive 0 and detach */
void
shmstop(Shm *s)
{
	__atomic_store_n(&s->h->alive, 0, __ATOMIC_RELEASE);
	shmwake(s);
}

/* a whole text (f nil), one write of an open file, or its close; err: the device's reason for a refusal */
static int
ctl(Shm *s, Ctlfile *f, int close, const char *buf, size_t n, uint32_t pid, char *err, size_t nerr)
{
	Dev *d = shmdev(s);
	int e;

	if ((e = shmlock(s)) != 0) {
		if (err)
			snprintf(err, nerr, "%s", shmbusy(e));
		return e;
	}
	if (f == NULL)
		e = devctl(d, buf, n, pid);
	else if (close)
		e = devctlclose(d, f);
	else
		e = devctlwrite(d, f, buf, n, pid);
	if (e && err)
		snprintf(err, nerr, "%s", deverr(d));
	shmunlock(s);
	shmwake(s);
	return e;
}

int
shmctl(Shm *s, const char *buf, size_t n, uint32_t pid, char *err, size_t nerr)
{
	return ctl(s, NULL, 0, buf, n, pid, err, nerr);
}

int
shmctlwrite(Shm *s, Ctlfile *f, const char *buf, size_t n, uint32_t pid, char *err, size_t nerr)
{
	return ctl(s, f, 0, buf, n, pid, err, nerr);
}

int
shmctlclose(Shm *s, Ctlfile *f, char *err, size_t nerr)
{
	return ctl(s, f, 1, "", 0, 0, err, nerr);
}

const char *
shmbusy(int e)
{
	return e == EAGAIN ? "device busy: another process holds its lock" :
		"device lock damaged by a process";
}

size_t
shmstate(Shm *s, char *buf, size_t n)
{
	size_t r;

	if (shmlock(s) != 0) {
		if (n > 0)
			buf[0] = 0;
		return 0;
	}
	r = devstate(shmdev(s), buf, n);
	shmunlock(s);
	return r;
}

ssize_t
shmtake(Shm *s, Reader *rd, char *buf, size_t n)
{
	size_t r;

	if (shmlock(s) != 0)
		return -1;
	r = devread(shmdev(s), rd, buf, n);
	shmunlock(s);
	return r;
}

/* the capture's read (devtrace record): whole binary records */
ssize_t
shmtakeraw(Shm *s, Reader *rd, Rec *out, size_t n)
{
	size_t r;

	if (shmlock(s) != 0)
		return -1;
	r = devreadraw(shmdev(s), rd, out, n);
	shmunlock(s);
	return r;
}

/* a capture's read of one source (devtrace record): its records, unmerged */
ssize_t
shmtakering(Shm *s, Reader *rd, uint32_t ring, Rec *out, size_t n)
{
	size_t r;

	if (shmlock(s) != 0)
		return -1;
	r = devreadring(shmdev(s), rd, ring, out, n);
	shmunlock(s);
	return r;
}

uint32_t
shmnring(Shm *s)
{
	return hostnring(shmdev(s));
}

/*
 * A record being written makes devread return with rd->wait set: look
 * again, without the lock, until it is done or the device gives it up
 * (ring.c: Stucknsec).  Readwaitms bounds the whole call all the same,
 * whatever the block says.
 */
enum { Readwaitms = 100 };

size_t
shmread(Shm *s, Reader *rd, char *buf, size_t n)
{
	struct timespec nap = { 0, 200 * 1000L };
	uint64_t end = hostnsec() + Readwaitms * 1000000ull;
	ssize_t r;

	for (;;) {
		if ((r = shmtake(s, rd, buf, n)) < 0)
			return 0;
		if (r > 0 || !rd->wait || hostnsec() >= end) {
			errno = 0;
			return r;
		}
		nanosleep(&nap, NULL);
	}
}

int
shmreader(Shm *s, uint32_t pid, int open)
{
	int r;

	if ((r = shmlock(s)) != 0)
		return r;
	r = devreader(shmdev(s), pid, open);
	shmunlock(s);
	shmwake(s);
	return r;
}
