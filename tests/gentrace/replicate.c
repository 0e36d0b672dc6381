/* See LICENSE file for copyright and license details. */
/*
 * tl-gentrace -r: a real trace made longer, as a longer profiling
 * window would have recorded it.  The events of the trace are written
 * again and again, each copy shifted in time past the one before, its
 * ids (correlation, External id, flow ids, Python ids, sequence
 * numbers ...) moved to a range of their own and its ProfilerStep
 * numbers continued; the metadata events (ph "M") come once.  Every
 * byte outside the events array is the real trace's own.
 *
 * The trace is read once to survey it (time span, largest id, step
 * numbers, where the events array lies), then once per copy: memory
 * holds one event, whatever the size asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "gentrace.h"
#include "jscan.h"
#include "tl.h"

#define CHUNK (1 << 20)		/* bytes read at a time */
#define MAXSEP 256		/* longest separator kept between events */

/* Keys of args whose integer values are ids, fresh in each copy. */
static const char *const idargs[] = {
	"correlation", "External id", "Sequence number", "Python id",
	"Python parent id", "Ev Idx", "cid", "wait_on_cuda_event_id",
	"wait_on_cuda_event_record_corr_id",
};

/* The replication of one trace.  Ownership: all owned but path. */
struct rep {
	const char *path;	/* the real trace */
	gzFile in;		/* it, open (plain or gzip) */
	char *buf;		/* CHUNK bytes read from it */
	struct jscan js;	/* its scanner */
	int survey;		/* 1: the first pass, 0: writing a copy */

	/* Found by the survey. */
	double tmin, tmax;	/* span of the non-metadata events, as read */
	int spanned;		/* some event had a ts */
	uint64_t idmax;		/* largest id value */
	long stepmin, stepmax;	/* ProfilerStep numbers seen */
	int steps;		/* some ProfilerStep was seen */
	uint64_t arrstart;	/* offset just past the events array's '[' */
	uint64_t evstart;	/* offset of the first event */
	uint64_t evend;		/* offset just past the last event */
	size_t len0;		/* length of the first event */
	char sep[MAXSEP];	/* ',' and the blanks before the first event */
	size_t seplen;		/* bytes of sep */

	/* The copy being written. */
	uint64_t copy;		/* its number, 0 first */
	uint64_t tshift;	/* microseconds added to each ts */
	uint64_t idshift;	/* added to each id */
	long stepshift;		/* added to each step number */
	int nout;		/* events written so far */
};

/* The members of one event that replication reads or changes. */
struct evkeys {
	int ph, ts, dur, name, id;	/* top-level members, or -1 */
	int args;		/* the args object member, or -1 */
};

static int
keyis(const char *ev, const struct jmember *m, const char *k)
{
	return m->keylen == strlen(k) && memcmp(ev + m->key, k, m->keylen) == 0;
}

static int
isidarg(const char *ev, const struct jmember *m)
{
	size_t i;

	for (i = 0; i < LEN(idargs); i++)
		if (keyis(ev, m, idargs[i]))
			return 1;
	return 0;
}

static void
findkeys(const char *ev, const struct jmember *m, size_t nm, struct evkeys *k)
{
	size_t i;

	k->ph = k->ts = k->dur = k->name = k->id = k->args = -1;
	for (i = 0; i < nm; i++) {
		if (m[i].parent >= 0)
			continue;
		if (keyis(ev, &m[i], "ph"))
			k->ph = (int)i;
		else if (keyis(ev, &m[i], "ts"))
			k->ts = (int)i;
		else if (keyis(ev, &m[i], "dur"))
			k->dur = (int)i;
		else if (keyis(ev, &m[i], "name"))
			k->name = (int)i;
		else if (keyis(ev, &m[i], "id"))
			k->id = (int)i;
		else if (keyis(ev, &m[i], "args") && m[i].type == '{')
			k->args = (int)i;
	}
}

/* A number member's value as a double, or NAN. */
static double
numval(const char *ev, const struct jmember *m, int i)
{
	char b[64];

	if (i < 0 || m[i].type != '0' || m[i].vallen >= sizeof(b))
		return NAN;
	memcpy(b, ev + m[i].val, m[i].vallen);
	b[m[i].vallen] = '\0';
	return strtod(b, NULL);
}

/* Is member i a whole number without sign, fraction or exponent? */
static int
isuint(const char *ev, const struct jmember *m, int i)
{
	uint32_t j;

	if (i < 0 || m[i].type != '0' || m[i].vallen > 18)
		return 0;
	for (j = 0; j < m[i].vallen; j++)
		if (ev[m[i].val + j] < '0' || ev[m[i].val + j] > '9')
			return 0;
	return 1;
}

static uint64_t
uintval(const char *ev, const struct jmember *m, int i)
{
	uint64_t v = 0;
	uint32_t j;

	for (j = 0; j < m[i].vallen; j++)
		v = v * 10 + (uint64_t)(ev[m[i].val + j] - '0');
	return v;
}

/* The N of a name "ProfilerStep#N", or -1. */
static long
stepno(const char *ev, const struct jmember *m, int i)
{
	static const char pre[] = "ProfilerStep#";
	const char *s;
	long v = 0;
	uint32_t j, n;

	if (i < 0 || m[i].type != '"' || m[i].esc)
		return -1;
	s = ev + m[i].val;
	n = m[i].vallen;
	if (n <= sizeof(pre) - 1 || n > sizeof(pre) - 1 + 9 ||
	    memcmp(s, pre, sizeof(pre) - 1) != 0)
		return -1;
	for (j = sizeof(pre) - 1; j < n; j++) {
		if (s[j] < '0' || s[j] > '9')
			return -1;
		v = v * 10 + (s[j] - '0');
	}
	return v;
}

static int
ismeta(const char *ev, const struct jmember *m, int ph)
{
	return ph >= 0 && m[ph].type == '"' && m[ph].vallen == 1 &&
	    ev[m[ph].val] == 'M';
}

static void
onsurvey(struct rep *r, const char *ev, size_t len, const struct jmember *m,
    size_t nm)
{
	struct evkeys k;
	double ts, dur;
	long n;
	size_t i;

	if (r->js.nevent == 0) {
		r->arrstart = r->js.lastend;
		r->len0 = len;
	} else if (r->js.nevent == 1) {
		r->evstart = r->js.lastend - r->len0;
	}
	findkeys(ev, m, nm, &k);
	if (!ismeta(ev, m, k.ph) && !isnan(ts = numval(ev, m, k.ts))) {
		dur = numval(ev, m, k.dur);
		if (isnan(dur) || dur < 0)
			dur = 0;
		if (!r->spanned || ts < r->tmin)
			r->tmin = ts;
		if (!r->spanned || ts + dur > r->tmax)
			r->tmax = ts + dur;
		r->spanned = 1;
	}
	if (isuint(ev, m, k.id))
		r->idmax = MAX(r->idmax, uintval(ev, m, k.id));
	for (i = 0; i < nm; i++)
		if (k.args >= 0 && m[i].parent == k.args &&
		    isidarg(ev, &m[i]) && isuint(ev, m, (int)i))
			r->idmax = MAX(r->idmax, uintval(ev, m, (int)i));
	if ((n = stepno(ev, m, k.name)) >= 0) {
		if (!r->steps || n < r->stepmin)
			r->stepmin = n;
		if (!r->steps || n > r->stepmax)
			r->stepmax = n;
		r->steps = 1;
	}
}

/* Write ts text s[0..n) plus shift microseconds. */
static void
putts(const char *s, size_t n, uint64_t shift)
{
	char b[64];
	size_t i;
	uint64_t v = 0;

	/* A plain decimal keeps its fraction's text: add to the integer. */
	for (i = 0; i < n && i < 18 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	if (i > 0 && (i == n || (s[i] == '.' && !memchr(s, 'e', n) &&
	    !memchr(s, 'E', n)))) {
		gt_put(b, (size_t)snprintf(b, sizeof(b), "%" PRIu64, v + shift));
		gt_put(s + i, n - i);
		return;
	}
	memcpy(b, s, MIN(n, sizeof(b) - 1));
	b[MIN(n, sizeof(b) - 1)] = '\0';
	gt_put(b, (size_t)snprintf(b, sizeof(b), "%.3f",
	    strtod(b, NULL) + (double)shift));
}

/* Write one event of the current copy, its times and ids moved. */
static void
oncopy(struct rep *r, const char *ev, size_t len, const struct jmember *m,
    size_t nm)
{
	struct evkeys k;
	char b[32];
	uint32_t pos = 0;
	size_t i;
	long n;

	findkeys(ev, m, nm, &k);
	if (r->copy > 0 && ismeta(ev, m, k.ph))
		return;
	if (r->nout++ > 0)
		gt_put(r->sep, r->seplen);
	for (i = 0; i < nm && r->copy > 0; i++) {
		/* Members come in text order: so do the changes. */
		if ((int)i == k.ts && m[i].type == '0') {
			gt_put(ev + pos, m[i].val - pos);
			putts(ev + m[i].val, m[i].vallen, r->tshift);
		} else if (((int)i == k.id || (k.args >= 0 &&
		    m[i].parent == k.args && isidarg(ev, &m[i]))) &&
		    isuint(ev, m, (int)i)) {
			gt_put(ev + pos, m[i].val - pos);
			gt_put(b, (size_t)snprintf(b, sizeof(b), "%" PRIu64,
			    uintval(ev, m, (int)i) + r->idshift));
		} else if ((int)i == k.name && (n = stepno(ev, m, k.name)) >= 0) {
			gt_put(ev + pos, m[i].val - pos);
			gt_put(b, (size_t)snprintf(b, sizeof(b),
			    "ProfilerStep#%ld", n + r->stepshift));
		} else {
			continue;
		}
		pos = m[i].val + m[i].vallen;
	}
	gt_put(ev + pos, len - pos);
}

static void
onevent(void *arg, const char *ev, size_t len, const struct jmember *m,
    size_t nm)
{
	struct rep *r = arg;

	if (r->survey)
		onsurvey(r, ev, len, m, nm);
	else
		oncopy(r, ev, len, m, nm);
}

/*
 * Read the trace from its start through the scanner.  Writing copy 0,
 * also write what precedes the first event, and keep the blanks
 * before it as the separator of events.
 */
static void
pass(struct rep *r)
{
	uint64_t off = 0;
	size_t lo, hi;
	int n;

	if (gzrewind(r->in) != 0)
		tl_die("%s: cannot rewind", r->path);
	jscan_init(&r->js, 0, onevent, r);
	while ((n = gzread(r->in, r->buf, CHUNK)) > 0) {
		if (!r->survey && r->copy == 0 && off < r->evstart) {
			hi = (size_t)MIN((uint64_t)n, r->evstart - off);
			gt_put(r->buf, hi);
			for (lo = 0; lo < hi; lo++)
				if (off + lo >= r->arrstart &&
				    r->seplen < MAXSEP)
					r->sep[r->seplen++] = r->buf[lo];
		}
		if (jscan_feed(&r->js, r->buf, (size_t)n) < 0)
			break;
		off += (uint64_t)n;
	}
	if (n < 0)
		tl_die("%s: read error", r->path);
	if (jscan_end(&r->js) < 0)
		tl_die("%s: byte %" PRIu64 ": %s", r->path, r->js.erroff,
		    r->js.err);
}

/* Write what follows the last event, to the end of the trace. */
static void
trailer(struct rep *r)
{
	int n;

	if (gzseek(r->in, (z_off_t)r->evend, SEEK_SET) < 0)
		tl_die("%s: cannot seek", r->path);
	while ((n = gzread(r->in, r->buf, CHUNK)) > 0)
		gt_put(r->buf, (size_t)n);
	if (n < 0)
		tl_die("%s: read error", r->path);
}

void
replicate(const char *path, int64_t copies, int64_t size)
{
	struct rep r;
	uint64_t span, idspan, last, sz;

	memset(&r, 0, sizeof(r));
	r.path = path;
	r.buf = tl_malloc(CHUNK);
	if ((r.in = gzopen(path, "rb")) == NULL)
		tl_die("%s: %s", path, strerror(errno ? errno : ENOMEM));
	gzbuffer(r.in, CHUNK);

	r.survey = 1;
	pass(&r);
	if (r.js.nevent == 0)
		tl_die("%s: no events to repeat", path);
	r.evend = r.js.lastend;
	if (r.js.nevent == 1)
		r.evstart = r.evend - r.len0;
	/* Each copy starts a whole microsecond after the last one ends. */
	span = r.spanned ? (uint64_t)ceil(r.tmax - r.tmin) + 1 : 0;
	/* Ids of a copy in a decade of their own: 18433 -> 118433. */
	for (idspan = 10; idspan <= r.idmax; idspan *= 10)
		;

	r.sep[r.seplen++] = ',';
	r.survey = 0;
	for (r.copy = 0;; r.copy++) {
		last = gt_written();
		r.tshift = r.copy * span;
		r.idshift = r.copy * idspan;
		r.stepshift = (long)r.copy * (r.stepmax - r.stepmin + 1);
		pass(&r);
		if (copies > 0 && r.copy + 1 >= (uint64_t)copies)
			break;
		if (size > 0) {
			/* Stop at the copy boundary nearest the target. */
			sz = gt_written();
			if (sz + (sz - last) / 2 >= (uint64_t)size)
				break;
		} else if (copies == 0 && r.copy + 1 >= 2) {
			break;
		}
	}
	trailer(&r);
	jscan_free(&r.js);
	gzclose(r.in);
	free(r.buf);
}
