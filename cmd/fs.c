/*
 * fs.c: the files of the device.  tracectl reads the state and takes
 * commands; trace and tracepipe consume records (an open one makes its
 * opener a reader, who is not traced); syms is the symbol file; aggs
 * and aggraw print the aggregations (cmd/aggtext.c), without consuming them.
 * Sizes are unknown, so every file is direct_io: each read reaches us.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd/fs.h"
#include "cmd/cmd.h"

enum {
	Qdir = FUSE_ROOT_ID,
	Qctl,
	Qtrace,
	Qpipe,
	Qsyms,
	Qaggs,
	Qaggraw,
	Qmax,

	Tickms = 5,	/* how often waiting tracepipe reads look again */
};

/* the device's files after the directory, in the order of dev/devtrace.h's table */
_Static_assert(Qmax - Qctl == Nfile && Qsyms - Qctl == Filesyms, "cmd/fs.c: Q* in devfiles' order");
static const Devfile *
file(int q)
{
	return &devfiles[q - Qctl];
}

typedef struct Fh Fh;
typedef struct Pend Pend;

/* one open file */
struct Fh {
	int q;
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

static void
fill(int q, struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_ino = q;
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_atime = st->st_mtime = st->st_ctime = boot;
	st->st_blksize = iosize;
	if (q == Qdir) {
		st->st_mode = S_IFDIR | 0700;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | file(q)->mode;
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
	int q;

	if (parent != Qdir) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (q = Qctl; q < Qmax; q++)
		if (strcmp(file(q)->name, name) == 0) {
			memset(&e, 0, sizeof e);
			e.ino = q;
			e.attr_timeout = e.entry_timeout = 1.0;
			fill(q, &e.attr);
			fuse_reply_entry(req, &e);
			return;
		}
	fuse_reply_err(req, ENOENT);
}

static void
fsgetattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino < Qdir || ino >= Qmax) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill(ino, &st);
	fuse_reply_attr(req, &st, 1.0);
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
	char *buf;
	size_t n = 0, m;
	struct stat st;
	int q;

	(void)fi;
	if (ino != Qdir) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if ((buf = malloc(size)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	/* offsets: 0 ".", 1 "..", then the files */
	for (q = off; q < Qmax; q++) {
		fill(q < 2 ? Qdir : q, &st);
		m = fuse_add_direntry(req, buf + n, size - n, q == 0 ? "." : q == 1 ? ".." : file(q)->name, &st, q + 1);
		if (m > size - n)
			break;
		n += m;
	}
	fuse_reply_buf(req, buf, n);
	free(buf);
}

static void
fsopen(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	Fh *fh;
	int e;

	if (ino == Qdir) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (ino < Qdir || ino >= Qmax) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY && (ino == Qdir || !file(ino)->write)) {
		fuse_reply_err(req, EACCES);
		return;
	}
	if ((fh = calloc(1, sizeof *fh)) == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fh->q = ino;
	fh->fd = -1;
	if (ino == Qtrace || ino == Qpipe) {
		fh->pid = tgidof(fuse_req_ctx(req)->pid);
		if ((e = shmreader(srv->shm, fh->pid, 1)) != 0) {
			free(fh);
			fuse_reply_err(req, e);
			return;
		}
	}
	if (ino == Qsyms)
		fh->fd = open(srv->syms, O_RDONLY | O_CLOEXEC);
	if (ino == Qctl && (fi->flags & O_ACCMODE) != O_RDONLY && (fh->ctl = calloc(1, sizeof *fh->ctl)) == NULL) {
		free(fh);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fi->direct_io = 1;
	fi->fh = (uintptr_t)fh;
	if (fuse_reply_open(req, fi) != 0) {
		/* the opener went away: no release will come */
		if (fh->pid)
			shmreader(srv->shm, fh->pid, 0);
		if (fh->fd >= 0)
			close(fh->fd);
		free(fh->ctl);
		free(fh);
	}
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
	fuse_reply_err(req, fh->ctl ? shmctlclose(srv->shm, fh->ctl, NULL, 0) : 0);
}

/* the last close: a tracectl line left unfinished without a flush runs here */
static void
fsrelease(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	Fh *fh = (Fh *)(uintptr_t)fi->fh;

	(void)ino;
	if (fh->pid)
		shmreader(srv->shm, fh->pid, 0);
	if (fh->ctl)
		shmctlclose(srv->shm, fh->ctl, NULL, 0);
	if (fh->fd >= 0)
		close(fh->fd);
	free(fh->ctl);
	free(fh->state);
	free(fh);
	fuse_reply_err(req, 0);
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
	if ((n = shmtake(srv->shm, &fh->r, buf, size)) < 0) {
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
	case Qctl:
		/* a read from the start takes the state; the rest of it is served from that */
		if (off == 0 || fh->state == NULL) {
			if (fh->state == NULL && (fh->state = malloc(Statemax)) == NULL) {
				fuse_reply_err(req, ENOMEM);
				return;
			}
			if ((fh->nstate = shmstate(srv->shm, fh->state, Statemax)) == 0) {
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
			if ((fh->state = aggtext(srv->shm, srv->syms, fh->q == Qaggs ? Aprinta : Amachine, &fh->nstate)) == NULL) {
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
 * next read of tracectl.
 */
static void
fswrite(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	Fh *fh = (Fh *)(uintptr_t)fi->fh;
	int e;

	(void)off;
	if (ino != Qctl || fh->ctl == NULL) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if ((e = shmctlwrite(srv->shm, fh->ctl, buf, size, tgidof(fuse_req_ctx(req)->pid), NULL, 0)) != 0)
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
	.create = fscreate,
};

/* waiting reads: answer those with records, or interrupted; all of them if done */
static void
retry(int done)
{
	Pend **pp, *p;

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
		}
		*pp = p->next;
		free(p);
	}
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
	struct timespec tick = { 0, Tickms * 1000000L };
	int r;

	memset(&fb, 0, sizeof fb);
	pfd.fd = fuse_session_fd(se);
	pfd.events = POLLIN;
	r = 0;
	while (!*stop && !fuse_session_exited(se)) {
		r = ppoll(&pfd, 1, pend ? &tick : NULL, waitmask);
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
		retry(0);
	}
	retry(1);
	free(fb.mem);
	return r < 0 && r != -EINTR ? -1 : 0;
}
