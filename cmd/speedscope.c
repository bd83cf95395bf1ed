/*
 * speedscope.c: devtrace dump --speedscope FILE, a recording as
 * speedscope's evented JSON: one profile a thread, its calls (dump.h's
 * walk) as open and close events; a profile's events go together, so
 * each is a pass over the file (mmapped), after a first that finds the
 * threads and the frames' order.
 */
#include <stdio.h>
#include "cmd/capfile.h"
#include "cmd/dump.h"

static void
jstr(FILE *o, const char *s)
{
	putc('"', o);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(o, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(o, "\\u%04x", (unsigned char)*s);
		else
			putc(*s, o);
	}
	putc('"', o);
}

/* the event of each kind of step (calls.h): 'O'pen, 'C'lose; 0: none (a probe's hit, an exit with no call) */
static const char sstype[] = { [Centry] = 'O', [Cexit] = 'C', [Cnoexit] = 'C' };

static void
ssevent(Dump *d, int type, Fn *f, uint64_t ticks)
{
	fprintf(d->out, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%llu}", d->emitted++ ? "," : "",
		type, f->id - 1, (unsigned long long)ns(d, ticks));
}

/* the file's calls of thread tid alone if only, as events if out: else only numbered (the first pass) */
static int
sswalk(Dump *d, int only, uint32_t tid, int out)
{
	Step s;
	int rc;

	if (walkopen(d) != 0)
		return 1;
	while ((rc = walknext(d, &s, only, tid)) > 0)
		if (out && s.kind < (int)sizeof sstype && sstype[s.kind] != 0)
			ssevent(d, sstype[s.kind], s.f, s.kind == Centry ? s.r->ticks : s.end);
	return walkclose(d, rc);
}

int
speedscopedump(Dump *d)
{
	Capfile *f;
	size_t i;
	int rc;

	if ((f = capopen(d->path, "devtrace dump")) == NULL)
		return 1;
	d->hz = caphz(f);
	capclose(f);
	if (d->hz == 0) {
		fprintf(stderr, "devtrace dump: %s: no #hz in the recording: its ticks cannot be made ns\n", d->path);
		return 1;
	}
	if ((rc = sswalk(d, 0, 0, 0)) != 0)
		return rc;
	/* ns since the first record: the first thread's, unless another's waits before its first call put that earlier (calls.h) */
	d->t0 = d->nthr > 0 ? d->thr[0].first : 0;
	for (i = 1; i < d->nthr; i++)
		if (d->thr[i].first < d->t0)
			d->t0 = d->thr[i].first;
	d->ns0 = 0;
	d->out = stdout;
	fprintf(d->out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"devtrace dump\",\"name\":");
	jstr(d->out, d->path);
	fprintf(d->out, ",\"activeProfileIndex\":0,\"profiles\":[");
	for (i = 0; i < d->nthr && rc == 0; i++) {
		fprintf(d->out, "%s{\"type\":\"evented\",\"name\":\"tid %u\",\"unit\":\"nanoseconds\",\"events\":[", i ? "," : "", d->thr[i].tid);
		d->emitted = 0;
		rc = sswalk(d, 1, d->thr[i].tid, 1);
		fprintf(d->out, "],\"startValue\":%llu,\"endValue\":%llu}",
			(unsigned long long)ns(d, d->thr[i].first), (unsigned long long)ns(d, d->thr[i].last));
	}
	fprintf(d->out, "],\"shared\":{\"frames\":[");
	for (i = 0; i < d->nname; i++) {
		fprintf(d->out, "%s{\"name\":", i ? "," : "");
		jstr(d->out, d->name[i]);
		putc('}', d->out);
	}
	fprintf(d->out, "]}}\n");
	if (fflush(d->out) != 0 || ferror(d->out)) {
		perror("devtrace dump: standard output");
		return 1;
	}
	return rc;
}

