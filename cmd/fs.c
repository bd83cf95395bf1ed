/*
 * fs.c: the files of the device.  tracectl reads the state and takes
 * commands; trace and tracepipe consume records (an open one makes its
 * opener a reader, who is not traced); syms is the symbol file; aggs
 * and aggraw print the aggregations (cmd/keytypes.c, cmd/aggtext.c), without consuming them.
 * Sizes are unknown, so every file is direct_io: each read reaches us.
 *
 * Sessions (dev/sess.c), as Plan 9's /net/tcp/clone: opening clone
 * makes one (its owner the opener), reading it gives its number N, and
 * the open file is N/ctl; the directory N has ctl, trace, tracepipe,
 * aggs and aggraw, each as the top level's file of the same job, on the
 * session's Dev.  The session ends at the last close of its ctl files
 * (clone's included) or at rmdir N.  Inodes: session N's file q is
 * N * Qstride + q, the top level's are q.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd/fs.h"
#include "cmd/cmd.h"
#include "dev/host.h"

enum {
	Qdir = FUSE_ROOT_ID,
	Qctl,
	Qtrace,
	Qpipe,
	Qsyms,
	Qaggs,
	Qaggraw,
	Qmax,
	Qclone = Qmax,	/* the top level's alone */
	Qtop,
	Qstride = 16,	/* session N's inodes: N * Qstride + q */

	Tickms = 5,	/* how often waiting tracepipe reads look again, at most */
	Busyus = 50,	/* and once a look found records: writers under block wait for this reader */
	Reapms = 1000,	/* how often sessions whose holder died are looked for */
};
_Static_assert(Qtop <= Qstride, "cmd/fs.c: the top level's inodes below session 1's");

/* the device's files after the directory, in the order of dev/devtrace.h's table */
_Static_assert(Qmax - Qctl == Nfile && Qsyms - Qctl == Filesyms, "cmd/fs.c: Q* in devfiles' order");
static const Devfile *
file(int q)
{
	return &devfiles[q - Qctl];
}

/* a file's name in session n's directory or the top level's (n 0); nil: none there */
static const char *
qname(uint32_t n, int q)
{
	if (q == Qclone)
		return n == 0 ? "clone" : NULL;
	if (q < Qctl || q >= Qmax)
		return NULL;
	if (n == 0)
		return file(q)->name;
	return q == Qsyms ? NULL : q == Qctl ? "ctl" : file(q)->name;
}

typedef struct Fh Fh;
typedef struct Pend Pend;

/* one open file */
struct Fh {
	int q;
	uint32_t sess;		/* its session, 0 the top level; clone's: the one it made */
	uint32_t serial;	/* which clone made that session: a later one on its place is not this file's */
	Shm *shm;		/* the top level's, or a handle on the session (shmsess) */
	int hold;		/* clone, a session's ctl: one of the opens that keep the session */
	uint32_t pid;		/* trace, tracepipe: the reader it registered */
	Reader r;		/* a record split across reads */
	char *state;		/* tracectl, aggs, aggraw: the text a read from 0 took */
	size_t nstate;
	Ctlfile *ctl;		/* tracectl opened for writing: a line split across writes */
	int fd;			/* syms */
};

/* a tracepipe read waiting for records, or a trace read for a record being written */
struct Pend {
	fuse_req_t req;
	Fh *fh;
	size_t size;
	int eof;		/* trace: end of file once no record is being written */
	volatile int intr;
	Pend *next;
};

static Srv *srv;
static Pend *pend;
static time_t boot;
static blksize_t iosize = 4096;	/* st_blksize: the largest read one request carries (fsinit) */

/* ino's session and file: 1 if it names one that is there now */
static int
inode(fuse_ino_t ino, uint32_t *n, int *q, uint32_t *uid)
{
	uint32_t serial;

	*n = ino / Qstride;
	*q = ino % Qstride;
	*uid = getuid();
	if (*n == 0)
		return *q >= Qdir && *q < Qtop;
	if (*n > Nsess || shmsessowner(srv->shm, *n, uid, &serial) != 0)
		return 0;
	return *q == Qdir || qname(*n, *q) != NULL;
}

static void
fill(fuse_ino_t ino, struct stat *st)
{
	uint32_t n, uid;
	int q;

	memset(st, 0, sizeof *st);
	inode(ino, &n, &q, &uid);
	st->st_ino = ino;
	st->st_uid = uid;
	st->st_gid = getgid();
	st->st_atime = st->st_mtime = st->st_ctime = boot;
	st->st_blksize = iosize;
	if (q == Qdir) {
		st->st_mode = S_IFDIR | 0700;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | (q == Qclone ? 0600 : file(q)->mode);
		st->st_nlink = 1;
	}
}

static void
fsinit(void *u, struct fuse_conn_info *conn)
{
	blksize_t max = conn->max_write;

	(void)u;
	/*
	 * cat and friends read st_blksize at a time: make that the largest
	 * read the kernel sends us whole (max_pages follows max_write since
	 * protocol 7.28; before, 32 pages), so a reader drains about 8600
	 * records a round trip instead of about 1000.  Not larger: a read
	 * the kernel splits into requests would wait, on tracepipe, for a
	 * second batch of records after a first full one.
	 */
	if (conn->proto_minor < 28 && max > 32 * 4096)
		max = 32 * 4096;
	if (conn->max_read && (blksize_t)conn->max_read < max)
		max = conn->max_read;
	for (iosize = 4096; 2 * iosize <= max; iosize *= 2)
		;
	if (srv->ready)
		srv->ready();
}

static void
fslookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	uint32_t n, uid, k;
	fuse_ino_t ino = 0;
	const char *qn;
	char *end;
	int q;

	if (!inode(parent, &n, &q, &uid) || q != Qdir) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (q = Qctl; q < Qtop; q++)
		if ((qn = qname(n, q)) != NULL && strcmp(qn, name) == 0)
			ino = n * Qstride + q;
	k = strtoul(name, &end, 10);
	if (n == 0 && ino == 0 && *end == 0 && end != name && k >= 1 && k <= Nsess && inode(k * Qstride + Qdir, &n, &q, &uid))
		ino = k * Qstride + Qdir;
	if (ino == 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof e);
	e.ino = ino;
	/* sessions come and go: their names and owners are not cached */
	e.attr_timeout = e.entry_timeout = n == 0 && ino < Qstride ? 1.0 : 0.0;
	fill(ino, &e.attr);
	fuse_reply_entry(req, &e);
}

static void
fsgetattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	uint32_t n, uid;
	int q;

	(void)fi;
	if (!inode(ino, &n, &q, &uid)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill(ino, &st);
	fuse_reply_attr(req, &st, n == 0 ? 1.0 : 0.0);
}

/* the shell's > truncates: accept that, refuse changes of owner or mode */
static void
fssetattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int set, struct fuse_file_info *fi)
{
	(void)attr;
	if (set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fsgetattr(req, ino, fi);
}

static void
fsreaddir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct { char name[16]; fuse_ino_t ino; } ent[2 + Qtop + Nsess];
	uint32_t n, k, kn, uid;
	size_t len = 0, m;
	struct stat st;
	int q, ne = 0, kq, i;
	char *buf;

	(void)fi;
	if (!inode(ino, &n, &q, &uid) || q != Qdir) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	snprintf(ent[ne].name, sizeof ent[ne].name, ".");
	ent[ne++].ino = ino;
	snprintf(ent[ne].name, sizeof ent[ne].name, "..");
	ent[ne++].ino = Qdir;
	for (q = Qctl; q < Qtop; q++)
		if (qname(n, q) != NULL) {
			snprintf(ent[ne].name, sizeof ent[ne].name, "%s", qname(n, q));
			ent[ne++].ino = n * Qstride + q;
		}
	for (k = 1; n == 0 && k <= Nsess; k++)
		if (inode(k * Qstride + Qdir, &kn, &kq, &uid)) {
			snprintf(ent[ne].name, sizeof ent[ne].name, "%u", k);
			ent[ne++].ino = k * Qstride + Qdir;
		}
	if ((buf = malloc(size)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (i = off; i < ne; i++) {
		fill(ent[i].ino, &st);
		m = fuse_add_direntry(req, buf + len, size - len, ent[i].name, &st, i + 1);
		if (m > size - len)
			break;
		len += m;
	}
	fuse_reply_buf(req, buf, len);
	free(buf);
}

/* the session of fh is still the one it opened (the top level always is) */
static int
fhlive(Fh *fh)
{
	uint32_t uid, serial;

	return fh->sess == 0 || (shmsessowner(srv->shm, fh->sess, &uid, &serial) == 0 && serial == fh->serial);
}

/* the last close of a ctl: its unfinished line runs, with the signatures it may name arguments from */
static int
fsclosectl(Fh *fh)
{
	Devsigs *sigs = argnamessigs("", 0, fh->ctl);
	int e = shmctlclose(fh->shm, fh->ctl, sigs, NULL, 0);

	argnamesfree(sigs);
	return e;
}

/* an open file given back: its reader, its line, its hold on the session */
static void
fhfree(Fh *fh)
{
	if (fh->pid)
		shmreader(fh->shm, fh->pid, 0);
	if (fh->ctl && fhlive(fh))
		fsclosectl(fh);
	if (fh->hold && fhlive(fh))
		shmsessclose(srv->shm, fh->sess);
	if (fh->fd >= 0)
		close(fh->fd);
	if (fh->shm && fh->shm != srv->shm)
		shmunmap(fh->shm);
	free(fh->ctl);
	free(fh->state);
	free(fh);
}

/*
 * Which session fh is of, held: clone makes one (the file is its ctl),
 * a session's ctl is one more hold on it, its other files only its
 * owner's (or root's).  0 or errno.
 */
static int
fhsess(fuse_req_t req, Fh *fh, uint32_t n)
{
	const struct fuse_ctx *c = fuse_req_ctx(req);
	uint32_t uid;
	int r;

	if (fh->q == Qclone) {
		if ((r = shmclone(srv->shm, c->uid, tgidof(c->pid), NULL, 0)) < 0)
			return -r;
		n = r;
	} else if (fh->q == Qctl) {
		if ((r = shmsessopen(srv->shm, n, c->uid, 0)) != 0)
			return r;
	} else if (shmsessowner(srv->shm, n, &uid, &fh->serial) != 0)
		return ENOENT;
	else if (uid != c->uid && c->uid != 0)
		return EACCES;
	fh->sess = n;
	fh->hold = fh->q == Qclone || fh->q == Qctl;
	shmsessowner(srv->shm, n, &uid, &fh->serial);
	if ((fh->shm = shmsess(srv->shm, n)) == NULL) {
		if (fh->hold)
			shmsessclose(srv->shm, n);
		return errno ? errno : ENOMEM;
	}
	return 0;
}

static void
fsopen(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	uint32_t n, uid;
	int q, e;
	Fh *fh;

	if (!inode(ino, &n, &q, &uid)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (q == Qdir) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY && q != Qclone && !file(q)->write) {
		fuse_reply_err(req, EACCES);
		return;
	}
	if ((fh = calloc(1, sizeof *fh)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fh->q = q;
	fh->fd = -1;
	fh->shm = srv->shm;
	if ((q == Qclone || n > 0) && (e = fhsess(req, fh, n)) != 0) {
		fh->shm = NULL;
		free(fh);
		fuse_reply_err(req, e);
		return;
	}
	if ((q == Qclone || (q == Qctl && (fi->flags & O_ACCMODE) != O_RDONLY)) &&
	    (fh->ctl = calloc(1, sizeof *fh->ctl)) == NULL) {
		fhfree(fh);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (q == Qtrace || q == Qpipe) {
		fh->pid = tgidof(fuse_req_ctx(req)->pid);
		if ((e = shmreader(fh->shm, fh->pid, 1)) != 0) {
			fh->pid = 0;
			fhfree(fh);
			fuse_reply_err(req, e);
			return;
		}
	}
	if (q == Qsyms)
		fh->fd = open(srv->syms, O_RDONLY | O_CLOEXEC);
	fi->direct_io = 1;
	fi->fh = (uintptr_t)fh;
	if (fuse_reply_open(req, fi) != 0)
		fhfree(fh);	/* the opener went away: no release will come */
}

/*
 * A close of a descriptor of tracectl: its unfinished line runs now, as
 * echo -n start > tracectl wants, and close() returns its refusal.  At
 * close, not at the last close (release): FUSE sends release after
 * close() has returned, so the line would run after the closer had gone
 * on (its next devtrace state or traced program would miss it).  The
 * price: a process that shares the open file and closes its descriptor
 * mid-line (a child inheriting it and exiting) ends the line there.
 */
static void
fsflush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	Fh *fh = (Fh *)(uintptr_t)fi->fh;

	(void)ino;
	fuse_reply_err(req, fh->ctl && fhlive(fh) ? fsclosectl(fh) : 0);
}

/* the last close: a tracectl line left unfinished without a flush runs here; a session's last ctl ends it */
static void
fsrelease(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	fhfree((Fh *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

/* rmdir N: the session ends now, whoever holds its files */
static void
fsrmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	char *end;
	uint32_t n = strtoul(name, &end, 10);

	if (parent != Qdir || *end != 0 || end == name || n < 1 || n > Nsess) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fuse_reply_err(req, shmsessremove(srv->shm, n, fuse_req_ctx(req)->uid, NULL, 0));
}

/* a buffer for one read, kept: waiting reads look every tick */
static char *
rbuf(size_t size)
{
	static char *buf;
	static size_t nbuf;
	char *p;

	if (size > nbuf) {
		if ((p = realloc(buf, size)) == NULL)
			return NULL;
		buf = p;
		nbuf = size;
	}
	return buf;
}

static void
intr(fuse_req_t req, void *v)
{
	(void)req;
	((Pend *)v)->intr = 1;
}

/*
 * Records, or 0 if none are ready (fh->r.wait: one is being written).
 * Never waits: the server serves every client on one thread, so a
 * record being written is waited for by looking again on the next tick
 * (fsloop), and a lock held too long (shmlock) is an error, EAGAIN.
 */
static int
records(fuse_req_t req, Fh *fh, size_t size)
{
	char *buf;
	ssize_t n;

	if ((buf = rbuf(size)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return 1;
	}
	if (!fhlive(fh)) {
		fuse_reply_buf(req, NULL, 0);	/* its session ended: end of file */
		return 1;
	}
	if ((n = shmtake(fh->shm, &fh->r, buf, size)) < 0) {
		fuse_reply_err(req, errno);
		return 1;
	}
	if (n > 0)
		fuse_reply_buf(req, buf, n);
	return n > 0;
}

/* a read answered later, by retry */
static void
park(fuse_req_t req, Fh *fh, size_t size, int eof)
{
	Pend *p;

	if ((p = calloc(1, sizeof *p)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	p->req = req;
	p->fh = fh;
	p->size = size;
	p->eof = eof;
	p->next = pend;
	pend = p;
	fuse_req_interrupt_func(req, intr, p);
}

/* tracectl, aggs, aggraw: the part at off of the text a read from 0 took */
static void
textreply(fuse_req_t req, Fh *fh, size_t size, off_t off)
{
	if ((size_t)off >= fh->nstate)
		fuse_reply_buf(req, NULL, 0);
	else
		fuse_reply_buf(req, fh->state + off, fh->nstate - off < size ? fh->nstate - off : size);
}

static void
fsread(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	Fh *fh = (Fh *)(uintptr_t)fi->fh;
	char *buf;
	ssize_t n;

	(void)ino;
	switch (fh->q) {
	case Qclone:
		/* its session's number, as /net/tcp/clone gives a connection's */
		if (fh->state == NULL && (fh->state = malloc(16)) == NULL) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		fh->nstate = snprintf(fh->state, 16, "%u\n", fh->sess);
		textreply(req, fh, size, off);
		return;
	case Qctl:
		/* a read from the start takes the state; the rest of it is served from that */
		if (off == 0 || fh->state == NULL) {
			if (fh->state == NULL && (fh->state = malloc(Statemax)) == NULL) {
				fuse_reply_err(req, ENOMEM);
				return;
			}
			if ((fh->nstate = shmstate(fh->shm, fh->state, Statemax)) == 0) {
				fuse_reply_err(req, errno ? errno : EIO);	/* the lock was not had: EAGAIN */
				return;
			}
		}
		textreply(req, fh, size, off);
		return;
	case Qaggs:
	case Qaggraw:
		/* as tracectl: a read from the start makes the text afresh */
		if (off == 0 || fh->state == NULL) {
			free(fh->state);
			fh->nstate = 0;
			if ((fh->state = aggtyped(fh->shm, srv->syms, fh->q == Qaggs ? Aprinta : Amachine, &fh->nstate)) == NULL) {
				fuse_reply_err(req, errno ? errno : ENOMEM);
				return;
			}
		}
		textreply(req, fh, size, off);
		return;
	case Qtrace:
		if (records(req, fh, size))
			return;
		if (fh->r.wait)
			park(req, fh, size, 1);
		else
			fuse_reply_buf(req, NULL, 0);
		return;
	case Qpipe:
		if (!records(req, fh, size))
			park(req, fh, size, 0);
		return;
	case Qsyms:
		if (fh->fd < 0 || (buf = rbuf(size)) == NULL) {
			fuse_reply_buf(req, NULL, 0);
			return;
		}
		if ((n = pread(fh->fd, buf, size, off)) < 0)
			fuse_reply_err(req, errno);
		else
			fuse_reply_buf(req, buf, n);
		return;
	}
	fuse_reply_err(req, EBADF);
}

/*
 * Lines, however the writes cut them (the open file keeps an unfinished
 * one: dev/ctlfile.c); a refusal's reason stays in the device for the
 * next read of tracectl (#error), and its errno, the error table's, is
 * all a shell prints: never ENOENT, which would read as tracectl missing.
 */
static void
fswrite(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	Fh *fh = (Fh *)(uintptr_t)fi->fh;
	Devsigs *sigs;
	int e;

	(void)off;
	(void)ino;
	if (fh->ctl == NULL || (fh->q != Qctl && fh->q != Qclone)) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (!fhlive(fh)) {
		fuse_reply_err(req, ENXIO);	/* its session ended */
		return;
	}
	sigs = argnamessigs(buf, size, fh->ctl);	/* before the lock: DWARF may take long */
	e = shmctlwrite(fh->shm, fh->ctl, buf, size, tgidof(fuse_req_ctx(req)->pid), sigs, NULL, 0);
	argnamesfree(sigs);
	if (e != 0)
		fuse_reply_err(req, e);
	else
		fuse_reply_write(req, size);
}

static void
fscreate(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, struct fuse_file_info *fi)
{
	(void)parent;
	(void)name;
	(void)mode;
	(void)fi;
	fuse_reply_err(req, EACCES);
}

static const struct fuse_lowlevel_ops ops = {
	.init = fsinit,
	.lookup = fslookup,
	.getattr = fsgetattr,
	.setattr = fssetattr,
	.readdir = fsreaddir,
	.open = fsopen,
	.read = fsread,
	.write = fswrite,
	.flush = fsflush,
	.release = fsrelease,
	.rmdir = fsrmdir,
	.create = fscreate,
};

/* waiting reads: answer those with records, or interrupted; all of them if done; how many had records */
static int
retry(int done)
{
	Pend **pp, *p;
	int n = 0;

	for (pp = &pend; (p = *pp) != NULL;) {
		if (p->intr)
			fuse_reply_err(p->req, EINTR);
		else if (done)
			fuse_reply_buf(p->req, NULL, 0);
		else if (!records(p->req, p->fh, p->size)) {
			if (p->eof && !p->fh->r.wait)
				fuse_reply_buf(p->req, NULL, 0);	/* trace: the record was given up */
			else {
				pp = &p->next;
				continue;
			}
		} else
			n++;
		*pp = p->next;
		free(p);
	}
	return n;
}

struct fuse_session *
fsnew(Srv *s)
{
	char *argv[] = { "devtraced", "-o", "default_permissions,fsname=devtrace,subtype=devtraced", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	struct fuse_session *se;

	srv = s;
	boot = time(NULL);
	se = fuse_session_new(&args, &ops, sizeof ops, NULL);
	fuse_opt_free_args(&args);	/* fuse_session_new added to them */
	return se;
}

/* one thread: requests as they come, waiting reads every tick; signals only in ppoll */
int
fsloop(struct fuse_session *se, volatile sig_atomic_t *stop, const sigset_t *waitmask)
{
	struct fuse_buf fb;
	struct pollfd pfd;
	struct timespec tick = { 0, Busyus * 1000L }, reap = { Reapms / 1000, Reapms % 1000 * 1000000L };
	uint64_t next = 0, now;
	int r;

	memset(&fb, 0, sizeof fb);
	pfd.fd = fuse_session_fd(se);
	pfd.events = POLLIN;
	r = 0;
	while (!*stop && !fuse_session_exited(se)) {
		/* a session whose holder died without closing it (a client of the block, killed) ends here */
		if ((now = hostnsec()) >= next) {
			shmsessreap(srv->shm);
			next = now + Reapms * 1000000ull;
		}
		r = ppoll(&pfd, 1, pend ? &tick : &reap, waitmask);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0) {
			r = fuse_session_receive_buf(se, &fb);
			if (r == -EINTR || r == -EAGAIN)
				continue;
			if (r <= 0)
				break;	/* unmounted */
			fuse_session_process_buf(se, &fb);
		}
		/* adaptive, as record's naps: records flowing, look again soon; none, ever more rarely */
		if (retry(0) > 0)
			tick.tv_nsec = Busyus * 1000L;
		else if (r == 0 && tick.tv_nsec < Tickms * 1000000L)
			tick.tv_nsec = tick.tv_nsec * 2 < Tickms * 1000000L ? tick.tv_nsec * 2 : Tickms * 1000000L;
	}
	retry(1);
	free(fb.mem);
	return r < 0 && r != -EINTR ? -1 : 0;
}
