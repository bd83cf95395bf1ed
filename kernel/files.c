/*
 * files.c: the device's files, misc devices named and moded by the
 * device's table (dev/devtrace.h: devfiles; 0600, a udev rule can give
 * them to a group: README).  tracectl reads the state and takes
 * commands; trace gives the records there are and ends; tracepipe waits
 * for more (the follow file, woken by wake.c); tracesyms is the symbol
 * file; tracesigs, the kernel's alone, the signature file (sigs.c).
 * An open trace or tracepipe makes its process a reader, who is not
 * traced.
 *
 * Sessions (ctl.c, dev/sess.c): traceclone makes one at each open and
 * is its ctl, as Plan 9's clone files; reading it gives the session's
 * number N.  Session N's files are misc devices made at load for every
 * N the block has room for, under /dev/tracesess/N/ (their nodename):
 * ctl, trace, tracepipe, aggs, aggraw, as the top level's.  An open
 * checks the session lives and is the opener's (or root's), and keeps
 * its serial: a file of a session that ended reads end of file, and its
 * ctl refuses writes (ENXIO), even once another session lives under N.
 */
#include "k.h"
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

enum {
	Chunk = 64 * 1024,	/* the most one read or write takes at once */
	Waitms = 200,		/* tracepipe looks again this often without a wake-up */
};

typedef struct Kf Kf;
struct Kf {
	Ctlfile ctl;
	Reader r;
	uint32_t pid;
	uint32_t sess;		/* its level: 0 the top level, N session N */
	uint32_t serial;	/* which clone made that session */
	int hold;		/* a session's clone or ctl: its close may end it */
	char *state;
	size_t nstate;
};

/* session N's file: which N, which of the device's files */
typedef struct Sessfile Sessfile;
struct Sessfile {
	struct miscdevice m;
	uint32_t sess;
	int file;
	char name[32], node[32];
};

/* a session's files, named as user space's N/ directory's */
static const struct {
	int file;
	const char *name;
} sessnames[] = {
	{ Filectl, "ctl" }, { Filetrace, "trace" }, { Filepipe, "tracepipe" }, { Fileaggs, "aggs" }, { Fileaggraw, "aggraw" },
};
enum { Nsessfile = ARRAY_SIZE(sessnames) };

static Sessfile *sessfiles;	/* ksess * Nsessfile of them */
static int nsessfiles;		/* registered */

/* the session an opening file's node is of (misc_open left its miscdevice in private_data); 0: the top level's */
static uint32_t
sessof(struct file *fp)
{
	struct miscdevice *m = fp->private_data;
	int i;

	for (i = 0; i < nsessfiles; i++)
		if (m == &sessfiles[i].m)
			return sessfiles[i].sess;
	return 0;
}

static uint32_t
openeruid(void)
{
	return from_kuid(&init_user_ns, current_fsuid());
}

/* an open of a level's file: a session's must live and be the opener's; hold: its ctl */
static Kf *
kfopen(struct file *fp, int hold, int *err)
{
	uint32_t sess = sessof(fp), serial = 0;
	Kf *f;

	*err = 0;
	if (sess != 0 && (*err = ksessopen(sess, openeruid(), hold, &serial)) != 0) {
		*err = *err == ENOENT ? -ENXIO : -*err;
		return NULL;
	}
	if ((f = kvzalloc(sizeof *f, GFP_KERNEL)) == NULL) {
		if (sess != 0 && hold)
			ksessclose(sess, serial);
		*err = -ENOMEM;
		return NULL;
	}
	f->sess = sess;
	f->serial = serial;
	f->hold = sess != 0 && hold;
	fp->private_data = f;
	return f;
}

static int
ctlopen(struct inode *ip, struct file *fp)
{
	int e;

	kfopen(fp, 1, &e);
	return e;
}

static int
aggsopen(struct inode *ip, struct file *fp)
{
	int e;

	kfopen(fp, 0, &e);
	return e;
}

/* traceclone: a new session, this open its ctl (and its holder) */
static int
cloneopen(struct inode *ip, struct file *fp)
{
	Kf *f;
	int n;

	if ((f = kvzalloc(sizeof *f, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	if ((n = kclone(openeruid(), task_tgid_nr(current), &f->serial)) < 0) {
		kvfree(f);
		return n;
	}
	f->sess = n;
	f->hold = 1;
	fp->private_data = f;
	return 0;
}

/* its session's number, as /net/tcp/clone gives a connection's */
static ssize_t
cloneread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	Kf *f = fp->private_data;
	char num[16];

	return simple_read_from_buffer(ub, n, off, num, scnprintf(num, sizeof num, "%u\n", f->sess));
}

/* an ended session's state: none, end of file */
static ssize_t
ctlread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	Kf *f = fp->private_data;
	Dev *d;

	if (*off == 0 || f->state == NULL) {
		if (f->state == NULL && (f->state = kvmalloc(Statemax, GFP_KERNEL)) == NULL)
			return -ENOMEM;
		mutex_lock(&kctl);
		hookscount();
		f->nstate = (d = klevel(f->sess, f->serial)) ? devstate(d, f->state, Statemax) : 0;
		mutex_unlock(&kctl);
	}
	return simple_read_from_buffer(ub, n, off, f->state, f->nstate);
}

/*
 * traceaggs, traceaggraw: the text a read from 0 makes, under kctl (the
 * device merges the writers' tables into the work area it is lent),
 * grown until it fits; later reads take the rest of it.  The device
 * lists the keys it may name, their names are looked up in ksym (which
 * changes under kctl: a module's functions come and go), and the text
 * is made from that table, in one hold of kctl.
 */
static size_t
kaggs(Kf *f, void *work, Aggkey *keys, size_t *nkeys, size_t cap, int form)
{
	size_t nk, i, got = 0;
	Dev *d;

	mutex_lock(&kctl);
	nk = (d = klevel(f->sess, f->serial)) ? devaggkeys(d, work, keys, *nkeys, form) : 0;
	if (nk <= *nkeys) {
		for (i = 0; i < nk; i++)
			keys[i].text = keys[i].word == Aggfunc ? symname(keys[i].v) : NULL;
		got = d ? devaggs(d, work, f->state, cap, form, keys, nk) : 0;
	}
	mutex_unlock(&kctl);
	*nkeys = nk;
	return got;
}

static ssize_t
aggread(struct file *fp, char __user *ub, size_t n, loff_t *off, int form)
{
	Kf *f = fp->private_data;
	size_t cap = 64 * 1024, kcap = 256, nk, got;
	Aggkey *keys = NULL;
	void *work;

	if (*off == 0 || f->state == NULL) {
		kvfree(f->state);
		f->state = NULL;
		if ((work = kvmalloc(devaggwork(), GFP_KERNEL)) == NULL)
			return -ENOMEM;
		for (;;) {
			if ((keys == NULL && (keys = kvmalloc_array(kcap, sizeof *keys, GFP_KERNEL)) == NULL) ||
			    (f->state == NULL && (f->state = kvmalloc(cap, GFP_KERNEL)) == NULL)) {
				kvfree(keys);
				kvfree(work);
				return -ENOMEM;
			}
			nk = kcap;
			got = kaggs(f, work, keys, &nk, cap, form);
			if (nk > kcap) {
				kvfree(keys);
				keys = NULL;
				kcap = nk;
				continue;
			}
			if (got < cap)
				break;
			kvfree(f->state);
			f->state = NULL;
			cap = got + got / 2 + 1;	/* results grew between the calls: room to spare */
		}
		kvfree(keys);
		kvfree(work);
		f->nstate = got;
	}
	return simple_read_from_buffer(ub, n, off, f->state, f->nstate);
}

static ssize_t
aggsread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	return aggread(fp, ub, n, off, Aprinta);
}

static ssize_t
aggrawread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	return aggread(fp, ub, n, off, Amachine);
}

static ssize_t
ctlwrite(struct file *fp, const char __user *ub, size_t n, loff_t *off)
{
	Kf *f = fp->private_data;
	char *buf;
	int e;

	if (n > Chunk)
		n = Chunk;
	if ((buf = kvmalloc(n + 1, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	if (copy_from_user(buf, ub, n)) {
		kvfree(buf);
		return -EFAULT;
	}
	e = kctlwrite(f->sess, f->serial, &f->ctl, buf, n, task_tgid_nr(current));
	kvfree(buf);
	return e ? -e : (ssize_t)n;	/* the error table's errno, as the FUSE server's (cmd/fs.c) */
}

/* a close: the unfinished line runs now, and close() returns its refusal (as user space's flush) */
static int
ctlflush(struct file *fp, fl_owner_t id)
{
	Kf *f = fp->private_data;
	int e = 0;

	if (fp->f_mode & FMODE_WRITE)
		e = kctlclose(f->sess, f->serial, &f->ctl);
	return -e;
}

/* the last close of a file (a killed holder's too: the kernel closes its files) */
static int
kfrelease(struct inode *ip, struct file *fp)
{
	Kf *f = fp->private_data;
	Dev *d;

	if (f->pid) {
		mutex_lock(&kctl);
		if ((d = klevel(f->sess, f->serial)) != NULL)
			devreader(d, f->pid, 0);
		mutex_unlock(&kctl);
	}
	if (f->hold)
		ksessclose(f->sess, f->serial);
	kvfree(f->state);
	kvfree(f);
	return 0;
}

static int
traceopen(struct inode *ip, struct file *fp)
{
	Kf *f;
	Dev *d;
	int e;

	if ((fp->f_flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	if ((f = kfopen(fp, 0, &e)) == NULL)
		return e;
	f->pid = task_tgid_nr(current);
	mutex_lock(&kctl);
	e = (d = klevel(f->sess, f->serial)) ? devreader(d, f->pid, 1) : ENXIO;
	mutex_unlock(&kctl);
	if (e) {
		kvfree(f);
		return -e;
	}
	return stream_open(ip, fp);
}

/* records there are; wait: a record is being written (a few µs) or, follow, until some come */
static ssize_t
records(struct file *fp, char __user *ub, size_t n, int follow)
{
	Kf *f = fp->private_data;
	size_t got = 0;
	char *buf;
	int tries, gen;
	long w;
	Dev *d;

	if (n > Chunk)
		n = Chunk;
	if ((buf = kvmalloc(n, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	for (tries = 0;; tries++) {
		gen = atomic_read(&kpipegen);
		mutex_lock(&kctl);
		d = klevel(f->sess, f->serial);
		got = d ? devread(d, &f->r, buf, n) : 0;
		mutex_unlock(&kctl);
		if (got > 0 || d == NULL)
			break;	/* an ended session's: end of file */
		if (f->r.wait && tries < 1000) {
			usleep_range(20, 100);
			continue;
		}
		if (!follow)
			break;
		if (fp->f_flags & O_NONBLOCK) {
			kvfree(buf);
			return -EAGAIN;
		}
		atomic_inc(&kpipewaiters);
		w = wait_event_interruptible_timeout(kpipe, atomic_read(&kpipegen) != gen, msecs_to_jiffies(Waitms));
		atomic_dec(&kpipewaiters);
		if (w < 0) {
			kvfree(buf);
			return -ERESTARTSYS;
		}
		tries = 0;
	}
	if (got > 0 && copy_to_user(ub, buf, got))
		got = -EFAULT;
	kvfree(buf);
	return got;
}

static ssize_t
traceread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	return records(fp, ub, n, 0);
}

static ssize_t
piperead(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	return records(fp, ub, n, 1);
}

static ssize_t
symsread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	const char *t;
	size_t len;
	ssize_t r;

	mutex_lock(&kctl);	/* a module's coming or going remakes the text (mods.c) */
	t = symstext(&len);
	r = simple_read_from_buffer(ub, n, off, t, len);
	mutex_unlock(&kctl);
	return r;
}

/* tracesigs: the signature file (sigs.c), made from the kernel's BTF at each open */
static int
sigsopen(struct inode *ip, struct file *fp)
{
	Kf *f;
	int e;

	if ((f = kfopen(fp, 0, &e)) == NULL)
		return e;
	if ((f->state = sigstext(&f->nstate, &e)) == NULL) {
		kvfree(f);
		return e;
	}
	return 0;
}

static ssize_t
sigsread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	Kf *f = fp->private_data;

	return simple_read_from_buffer(ub, n, off, f->state, f->nstate);
}

static const struct file_operations ctlfops = {
	.owner = THIS_MODULE,
	.open = ctlopen,
	.read = ctlread,
	.write = ctlwrite,
	.flush = ctlflush,
	.release = kfrelease,
	.llseek = default_llseek,
};

static const struct file_operations tracefops = {
	.owner = THIS_MODULE,
	.open = traceopen,
	.read = traceread,
	.release = kfrelease,
};

static const struct file_operations pipefops = {
	.owner = THIS_MODULE,
	.open = traceopen,
	.read = piperead,
	.release = kfrelease,
};

static const struct file_operations aggsfops = {
	.owner = THIS_MODULE,
	.open = aggsopen,
	.read = aggsread,
	.release = kfrelease,
	.llseek = default_llseek,
};

static const struct file_operations aggrawfops = {
	.owner = THIS_MODULE,
	.open = aggsopen,
	.read = aggrawread,
	.release = kfrelease,
	.llseek = default_llseek,
};

static const struct file_operations symsfops = {
	.owner = THIS_MODULE,
	.read = symsread,
	.llseek = default_llseek,
};

static const struct file_operations *const fops[Nfile] = {
	[Filectl] = &ctlfops,
	[Filetrace] = &tracefops,
	[Filepipe] = &pipefops,
	[Filesyms] = &symsfops,
	[Fileaggs] = &aggsfops,
	[Fileaggraw] = &aggrawfops,
};

static const struct file_operations sigsfops = {
	.owner = THIS_MODULE,
	.open = sigsopen,
	.read = sigsread,
	.release = kfrelease,
	.llseek = default_llseek,
};

static const struct file_operations clonefops = {
	.owner = THIS_MODULE,
	.open = cloneopen,
	.read = cloneread,
	.write = ctlwrite,
	.flush = ctlflush,
	.release = kfrelease,
	.llseek = default_llseek,
};

static struct miscdevice files[Nfile];

static struct miscdevice clonefile = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "traceclone",
	.fops = &clonefops,
};

/* the kernel's alone, beside the device's: what BTF says, as readable as /sys/kernel/btf/vmlinux */
static struct miscdevice sigsfile = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tracesigs",
	.mode = 0444,
	.fops = &sigsfops,
};
static int sigson, cloneon;

/* every session's files, /dev/tracesess/N/NAME, moded as the top level's of the same job */
static int
sessfilesinit(void)
{
	Sessfile *f;
	uint32_t n;
	int i, e;

	if (ksess == 0)
		return 0;
	if ((sessfiles = kcalloc(ksess * Nsessfile, sizeof *sessfiles, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	for (n = 1; n <= ksess; n++)
		for (i = 0; i < Nsessfile; i++) {
			f = &sessfiles[(n - 1) * Nsessfile + i];
			f->sess = n;
			f->file = sessnames[i].file;
			snprintf(f->name, sizeof f->name, "tracesess%u.%s", n, sessnames[i].name);
			snprintf(f->node, sizeof f->node, "tracesess/%u/%s", n, sessnames[i].name);
			f->m.minor = MISC_DYNAMIC_MINOR;
			f->m.name = f->name;
			f->m.nodename = f->node;
			f->m.mode = devfiles[f->file].mode;
			f->m.fops = fops[f->file];
			if ((e = misc_register(&f->m)) != 0)
				return e;
			nsessfiles++;
		}
	return 0;
}

int
filesinit(void)
{
	int i, e;

	for (i = 0; i < Nfile; i++) {
		files[i].minor = MISC_DYNAMIC_MINOR;
		files[i].name = devfiles[i].kname;
		files[i].mode = devfiles[i].mode;
		files[i].fops = fops[i];
	}
	for (i = 0; i < Nfile; i++)
		if ((e = misc_register(&files[i])) != 0) {
			while (--i >= 0)
				misc_deregister(&files[i]);
			return e;
		}
	if ((e = misc_register(&sigsfile)) != 0) {
		filesexit();
		return e;
	}
	sigson = 1;
	clonefile.mode = devfiles[Filectl].mode;
	if ((e = misc_register(&clonefile)) != 0) {
		filesexit();
		return e;
	}
	cloneon = 1;
	if ((e = sessfilesinit()) != 0) {
		filesexit();
		return e;
	}
	return 0;
}

void
filesexit(void)
{
	int i;

	for (i = 0; i < Nfile; i++)
		misc_deregister(&files[i]);
	if (sigson)
		misc_deregister(&sigsfile);
	sigson = 0;
	if (cloneon)
		misc_deregister(&clonefile);
	cloneon = 0;
	while (nsessfiles > 0)
		misc_deregister(&sessfiles[--nsessfiles].m);
	kfree(sessfiles);
	sessfiles = NULL;
}
