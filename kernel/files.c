/*
 * files.c: the device's files, misc devices named and moded by the
 * device's table (dev/devtrace.h: devfiles; 0600, a udev rule can give
 * them to a group: README).  tracectl reads the state and takes
 * commands; trace gives the records there are and ends; tracepipe waits
 * for more (the follow file, woken by wake.c); tracesyms is the symbol
 * file; tracesigs, the kernel's alone, the signature file (sigs.c).  An open trace or tracepipe makes its process a reader, who is
 * not traced.
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
	char *state;
	size_t nstate;
};

static Kf *
kfnew(struct file *fp)
{
	Kf *f = kvzalloc(sizeof *f, GFP_KERNEL);

	if (f)
		fp->private_data = f;
	return f;
}

static int
ctlopen(struct inode *ip, struct file *fp)
{
	return kfnew(fp) ? 0 : -ENOMEM;
}

static ssize_t
ctlread(struct file *fp, char __user *ub, size_t n, loff_t *off)
{
	Kf *f = fp->private_data;

	if (*off == 0 || f->state == NULL) {
		if (f->state == NULL && (f->state = kvmalloc(Statemax, GFP_KERNEL)) == NULL)
			return -ENOMEM;
		mutex_lock(&kctl);
		hookscount();
		f->nstate = devstate(kdev, f->state, Statemax);
		mutex_unlock(&kctl);
	}
	return simple_read_from_buffer(ub, n, off, f->state, f->nstate);
}

/*
 * traceaggs, traceaggraw: the text a read from 0 makes, under kctl (the
 * device merges the writers' tables into the work area it is lent),
 * grown until it fits; later reads take the rest of it.
 */
static ssize_t
aggread(struct file *fp, char __user *ub, size_t n, loff_t *off, int form)
{
	Kf *f = fp->private_data;
	size_t cap = 64 * 1024, got;
	void *work;

	if (*off == 0 || f->state == NULL) {
		kvfree(f->state);
		f->state = NULL;
		if ((work = kvmalloc(devaggwork(), GFP_KERNEL)) == NULL)
			return -ENOMEM;
		for (;;) {
			if ((f->state = kvmalloc(cap, GFP_KERNEL)) == NULL) {
				kvfree(work);
				return -ENOMEM;
			}
			mutex_lock(&kctl);
			got = devaggs(kdev, work, f->state, cap, form, symname, NULL);
			mutex_unlock(&kctl);
			if (got < cap)
				break;
			kvfree(f->state);
			cap = got + got / 2 + 1;	/* results grew between the calls: room to spare */
		}
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
	e = kctlwrite(&f->ctl, buf, n, task_tgid_nr(current));
	kvfree(buf);
	return e ? -e : (ssize_t)n;
}

/* a close: the unfinished line runs now, and close() returns its refusal (as user space's flush) */
static int
ctlflush(struct file *fp, fl_owner_t id)
{
	Kf *f = fp->private_data;
	int e = 0;

	if (fp->f_mode & FMODE_WRITE)
		e = kctlclose(&f->ctl);
	return -e;
}

static int
kfrelease(struct inode *ip, struct file *fp)
{
	Kf *f = fp->private_data;

	if (f->pid) {
		mutex_lock(&kctl);
		devreader(kdev, f->pid, 0);
		mutex_unlock(&kctl);
	}
	kvfree(f->state);
	kvfree(f);
	return 0;
}

static int
traceopen(struct inode *ip, struct file *fp)
{
	Kf *f;
	int e;

	if ((fp->f_flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	if ((f = kfnew(fp)) == NULL)
		return -ENOMEM;
	f->pid = task_tgid_nr(current);
	mutex_lock(&kctl);
	e = devreader(kdev, f->pid, 1);
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

	if (n > Chunk)
		n = Chunk;
	if ((buf = kvmalloc(n, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	for (tries = 0;; tries++) {
		gen = atomic_read(&kpipegen);
		mutex_lock(&kctl);
		got = devread(kdev, &f->r, buf, n);
		mutex_unlock(&kctl);
		if (got > 0)
			break;
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

	if ((f = kfnew(fp)) == NULL)
		return -ENOMEM;
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
	.open = ctlopen,
	.read = aggsread,
	.release = kfrelease,
	.llseek = default_llseek,
};

static const struct file_operations aggrawfops = {
	.owner = THIS_MODULE,
	.open = ctlopen,
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

static struct miscdevice files[Nfile];

/* the kernel's alone, beside the device's: what BTF says, as readable as /sys/kernel/btf/vmlinux */
static struct miscdevice sigsfile = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tracesigs",
	.mode = 0444,
	.fops = &sigsfops,
};
static int sigson;

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
}
