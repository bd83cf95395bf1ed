/*
 * ctlfile.c: writes to the control file, cut into lines.  Users pipe
 * generated commands into it, and the writes fall where they fall: dd
 * bs=7, stdio's 8 KiB buffer ending mid-line, the kernel splitting a
 * write above FUSE's max_write.  So a host passes each write of an open
 * file with that file's Ctlfile: a line runs whole when its newline
 * comes, and the line left unfinished runs when the file is closed
 * (last close), as echo -n start > tracectl has always worked.
 * devctl is a whole text on its own: one write, then the close.
 *
 * A write is checked before any of its lines runs (length, characters),
 * so one refused by that check changes nothing; then its lines run in
 * order (blank lines and # lines are no-ops) and the first refused
 * stops it.  A refused write ends the line the file kept: that line is
 * dropped, and if the write itself ended inside a line, so is the rest
 * of that line, up to its newline in the writes that follow, rather
 * than glued to what comes next.  A line too long is thus refused
 * whole, however it was split.
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"

/* printable ASCII and tab */
static int
isbadchar(char c)
{
	return ((unsigned char)c < ' ' && c != '\t') || (unsigned char)c >= 0x7f;
}

/* the lines a write finishes and the one it leaves, after what f keeps: length and characters */
static int
check(const Ctlfile *f, const char *buf, size_t n)
{
	size_t i, len = f->n;

	if (len > Linemax)
		return Errlinelong;
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			len = 0;
			continue;
		}
		if (len >= Linemax)
			return Errlinelong;
		if (isbadchar(buf[i]))
			return Errbadchar;
		len++;
	}
	return Errnone;
}

/* a refused write: the kept line goes, and the rest of a line the write left unfinished */
static void
drop(Ctlfile *f, const char *buf, size_t n, int eof)
{
	f->n = 0;
	f->skip = !eof && n > 0 && buf[n - 1] != '\n';
}

/* the line in f, now whole */
static int
run(Dev *d, Ctlfile *f, uint32_t pid)
{
	f->line[f->n] = 0;
	f->n = 0;
	return ctlrun(d, f->line, pid, f->sigs, f->syms);
}

/* eof: the end of buf ends the file's line too */
static int
ctlwrite(Dev *d, Ctlfile *f, const char *buf, size_t n, uint32_t pid, int eof)
{
	const char *p, *nl, *e = buf + n;
	int err;

	if (f->skip) {
		for (p = buf; p < e && *p != '\n'; p++)
			;
		f->skip = p == e && !eof;
		if (p == e)
			return 0;
		buf = p + 1;
	}
	if ((err = check(f, buf, e - buf)) != Errnone) {
		drop(f, buf, e - buf, eof);
		return errrefuse(d, 0, err);
	}
	for (p = buf; p < e; p = nl + 1) {
		for (nl = p; nl < e && *nl != '\n'; nl++)
			;
		__builtin_memcpy(f->line + f->n, p, nl - p);	/* check kept it within Linemax */
		f->n += nl - p;
		f->pid = pid;
		if (nl == e)
			break;
		if ((err = run(d, f, pid)) != 0) {
			drop(f, buf, e - buf, eof);
			return err;
		}
	}
	if (eof && f->n > 0)
		return run(d, f, f->pid);
	return 0;
}

int
devctlwrite(Dev *d, Ctlfile *f, const char *buf, size_t n, uint32_t pid)
{
	if (n == 0)
		return errrefuse(d, 0, Errempty);
	return ctlwrite(d, f, buf, n, pid, 0);
}

int
devctlclose(Dev *d, Ctlfile *f)
{
	int err;

	err = ctlwrite(d, f, "", 0, f->pid, 1);
	__builtin_memset(f, 0, sizeof *f);
	return err;
}

int
devctlpending(const Ctlfile *f)
{
	return f->n > 0 || f->skip;
}

int
devctlsigs(Dev *d, const char *buf, size_t n, uint32_t pid, const Devsigs *s)
{
	Ctlfile f;

	if (n == 0)
		return errrefuse(d, 0, Errempty);
	f.n = 0;
	f.skip = 0;
	f.pid = pid;
	f.sigs = s;
	f.syms = 0;
	return ctlwrite(d, &f, buf, n, pid, 1);
}

int
devctl(Dev *d, const char *buf, size_t n, uint32_t pid)
{
	return devctlsigs(d, buf, n, pid, 0);
}
