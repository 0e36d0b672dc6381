/* See LICENSE file for copyright and license details. */
/*
 * ivin.c: intervals.tsv, as the tree stage writes it (tl(7)), read
 * record by record in op order; and the kernels of an op folded into
 * TraceLens's busy time and kernel list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

/* The header of in's file; gv: the GPU events' reader, or NULL. */
static void
ivin_header(struct ivin *in, struct fetch *gv)
{
	static const char *const names[INCOL] = {
		"op", "kind", "ts", "dur", "name", "stream", "gpu", "ref",
		"launch", "span"
	};
	size_t i;

	rec_read_header(&in->r);
	in->gvp = gv;
	for (i = 0; i < INCOL; i++)
		in->c[i] = (i == IREF && gv == NULL) || i >= ILAUNCH ?
		    rec_col(&in->r, names[i]) : rec_need(&in->r, names[i]);
	in->op = -1;
}

void
ivin_open(struct ivin *in, const char *path, const char *gvpath)
{
	in->fp = io_open(path, "r", in->iob);
	rec_open(&in->r, in->fp, io_name(path));
	in->owngv = gvpath != NULL;
	if (gvpath != NULL) {
		fetch_open(&in->gv, gvpath);
		in->gvname = rec_need(&in->gv.hdr, "name");
	}
	ivin_header(in, gvpath != NULL ? &in->gv : NULL);
}

void
ivin_close(struct ivin *in)
{
	rec_close(&in->r);
	fclose(in->fp);
	if (in->owngv)
		fetch_close(&in->gv);
}

/* ---- a subtree record's kernels, from walk.tsv ---- */

/* The least walkin reads at a time (see ivin_expand). */
#define IVWIN 4096

void
walkin_open(struct walkin *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	w->fp = tl_fopen(path, "r");
	w->path = path;
	w->wstart = -1;
	/* the records it makes: op kind ts dur gpu name stream cat ref launch */
	w->sub.c[IOP] = 0;
	w->sub.c[IKIND] = 1;
	w->sub.c[ITS] = 2;
	w->sub.c[IDUR] = 3;
	w->sub.c[IGPU] = 4;
	w->sub.c[INAME] = 5;
	w->sub.c[ISTREAM] = 6;
	w->sub.c[IREF] = 8;
	w->sub.c[ILAUNCH] = 9;
	w->sub.c[ISPAN] = -1;
	w->sub.r.name = path;
}

void
walkin_close(struct walkin *w)
{
	fclose(w->fp);
	free(w->ent);
	free(w->sub.r.f);
	buf_free(&w->b);
	buf_free(&w->line);
}

/* By ts (as the arithmetic sees it), launch, GPU UID, then line. */
static int
wentcmp(const void *a, const void *b)
{
	const struct went *x = a, *y = b;
	int c = ival_cmp(x->exact, x->ts, y->ts);

	if (c != 0)
		return c;
	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	return (x->off > y->off) - (x->off < y->off);
}

size_t
ivin_expand(struct ivin *in, struct walkin *w, int exact)
{
	const struct rec_reader *r = &in->r;
	long long ref, span;
	char *p, *e, *t;
	struct went *x;
	size_t n = 0, want;
	ssize_t got;

	if (in->c[ISPAN] < 0)
		tl_die("%s: no span column (not the tree stage's "
		    "intervals.tsv of this version)", r->name);
	ref = atoid(rec_get(r, in->c[IREF], NULL));
	span = atoid(rec_get(r, in->c[ISPAN], NULL));
	/*
	 * One read a range, or none: the ranges of ops in UID order jump
	 * about, but three in four lie within 4 KiB of one read before
	 * (tl-pick on a 450 MB trace: 180,000 reads of about 400 bytes
	 * without the window, 33,000 of 4 KiB with it).
	 */
	if (span > 0 && (w->wstart < 0 || ref < w->wstart ||
	    ref + span > w->wstart + (long long)w->b.len)) {
		want = span > IVWIN ? (size_t)span : IVWIN;
		tl_grow((void **)&w->b.s, &w->b.cap, want + 1, 1);
		got = pread(fileno(w->fp), w->b.s, want, (off_t)ref);
		if (got < (ssize_t)span)
			tl_die("%s: cannot read bytes %lld to %lld (op %lld)",
			    w->path, ref, ref + span, in->op);
		w->wstart = ref;
		w->b.len = (size_t)got;
	}
	/* lines: kind ts dur gpu stream cat ref launch */
	for (p = w->b.s + (span > 0 ? ref - w->wstart : 0), e = p + span; p < e;
	    p = t + 1) {
		char *f[8];
		size_t k;

		if ((t = memchr(p, '\n', (size_t)(e - p))) == NULL)
			tl_die("%s: byte %lld: not a line", w->path,
			    w->wstart + (long long)(p - w->b.s));
		f[0] = p;
		for (k = 1; k < 8; k++) {
			f[k] = memchr(f[k - 1], '\t', (size_t)(t - f[k - 1]));
			if (f[k] == NULL)
				tl_die("%s: byte %lld: not a walk line", w->path,
				    w->wstart + (long long)(p - w->b.s));
			f[k]++;
		}
		tl_grow((void **)&w->ent, &w->entcap, n + 1, sizeof(*w->ent));
		x = &w->ent[n++];
		x->exact = exact;
		if (ival_parse(exact, f[1], (size_t)(f[2] - 1 - f[1]), &x->ts) < 0)
			tl_die("%s: byte %lld: ts is not a time", w->path,
			    w->wstart + (long long)(p - w->b.s));
		x->gpu = atoid(f[3]);
		x->launch = atoid(f[7]);
		x->off = (size_t)(p - w->b.s);
		x->len = (size_t)(t - p);
		x->gpuf = (size_t)(f[4] - p);
	}
	qsort(w->ent, n, sizeof(*w->ent), wentcmp);
	w->sub.gvp = in->gvp;
	w->sub.gvname = in->gvname;
	w->sub.op = in->op;
	return n;
}

struct ivin *
ivin_expanded(struct walkin *w, size_t i)
{
	const struct went *x = &w->ent[i];
	const char *l = w->b.s + x->off;
	struct buf *b = &w->line;

	/* op kind ts dur gpu, an empty name, then stream cat ref launch */
	buf_reset(b);
	buf_num(b, w->sub.op);
	buf_tab(b);
	buf_add(b, l, x->gpuf);
	buf_tab(b);
	buf_add(b, l + x->gpuf, x->len - x->gpuf);
	w->sub.r.cur = b->s;
	w->sub.r.curlen = b->len;
	w->sub.r.lineno = i + 1;
	rec_split(&w->sub.r);
	return &w->sub;
}

const char *
ivin_gvname(struct ivin *in, size_t *len)
{
	const struct rec_reader *r = &in->r;

	fetch_line(in->gvp, atoid(rec_get(r, in->c[IREF], NULL)),
	    atoid(rec_get(r, in->c[IGPU], NULL)));
	return fetch_field(in->gvp, in->gvname, len);
}

void
ivin_disorder(const struct ivin *in, long long op)
{
	tl_die("%s: line %zu: out of order (op %lld after %lld)",
	    in->r.name, in->r.lineno, op, in->op);
}

/* ---- the kernels of an op ---- */

void
kacc_add(struct kacc *k, struct ivin *in)
{
	const struct rec_reader *r = &in->r;
	const char *s;
	size_t len;
	union tv ts, dur;
	long long g;
	int exact = k->m.exact, sint, dint;

	s = rec_get(r, in->c[ITS], &len);
	if (ival_parse(exact, s, len, &ts) < 0)
		tl_die("%s: line %zu: ts is not a time: %.40s", r->name,
		    r->lineno, s);
	sint = num_isint(s, len);
	s = rec_get(r, in->c[IDUR], &len);
	if (ival_parse(exact, s, len, &dur) < 0)
		tl_die("%s: line %zu: dur is not a time: %.40s", r->name,
		    r->lineno, s);
	dint = num_isint(s, len);
	if (mg_add(&k->m, ts, ival_add(exact, ts, dur), sint, sint && dint) < 0)
		tl_die("%s: line %zu: ts decreases within op %lld", r->name,
		    r->lineno, in->op);
	g = atoid(rec_get(r, in->c[IGPU], NULL));
	if (k->n++ == 0 || g < k->g1)
		k->g1 = g;
	s = ivin_name(in, &len);
	if (k->k1.len == 0)
		buf_add(&k->k1, s, len);
	if (!k->list)
		return;
	if (k->launch) {
		struct kent *e;

		if (in->c[ILAUNCH] < 0)
			tl_die("%s: no launch column (not the tree stage's "
			    "intervals.tsv of this version)", r->name);
		tl_grow((void **)&k->ent, &k->entcap, k->n, sizeof(*k->ent));
		e = &k->ent[k->n - 1];
		e->launch = atoid(rec_get(r, in->c[ILAUNCH], NULL));
		e->gpu = g;
		e->off = k->kd.len;
		buf_adds(&k->kd, "{\"name\":");
	} else
		buf_adds(&k->kd, k->n > 1 ? ",{\"name\":" : "[{\"name\":");
	json_val(&k->kd, s, len);
	buf_adds(&k->kd, ",\"dur\":");
	s = rec_get(r, in->c[IDUR], &len);
	json_val(&k->kd, s, len);
	buf_adds(&k->kd, ",\"stream\":");
	s = rec_get(r, in->c[ISTREAM], &len);
	json_val(&k->kd, s, len);
	if (k->launch && k->cs != NULL) {
		/* (TraceLens's call_stack; a launch without one: none known) */
		buf_adds(&k->kd, ",\"call_stack\":");
		if (cslook_get(k->cs, k->ent[k->n - 1].launch) == 0)
			buf_add(&k->kd, k->cs->chain.s, k->cs->chain.len);
		else
			buf_adds(&k->kd, "[]");
	}
	buf_addc(&k->kd, '}');
	if (k->launch)
		k->ent[k->n - 1].len = k->kd.len - k->ent[k->n - 1].off;
}

/* Launch UID, then GPU UID, then the order added (a stable sort). */
static int
kentcmp(const void *a, const void *b)
{
	const struct kent *x = a, *y = b;

	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

void
kacc_time(struct buf *b, struct kacc *k)
{
	char t[64];

	buf_tab(b);
	if (k->n > 0)
		buf_adds(b, mg_fmt(&k->m, mg_union(&k->m), t, sizeof(t)));
}

void
kacc_list(struct buf *b, struct kacc *k)
{
	size_t i;

	buf_tab(b);
	if (k->n == 0)
		return;
	if (k->launch) {
		qsort(k->ent, k->n, sizeof(*k->ent), kentcmp);
		buf_reset(&k->tmp);
		for (i = 0; i < k->n; i++) {
			buf_addc(&k->tmp, i > 0 ? ',' : '[');
			buf_add(&k->tmp, k->kd.s + k->ent[i].off, k->ent[i].len);
		}
		buf_addc(&k->tmp, ']');
		rec_bput(b, k->tmp.s, k->tmp.len);
		return;
	}
	buf_addc(&k->kd, ']');
	/* (the names were unescaped into JSON: escape its text again) */
	rec_bput(b, k->kd.s, k->kd.len);
}

void
kacc_free(struct kacc *k)
{
	buf_free(&k->k1);
	buf_free(&k->kd);
	buf_free(&k->tmp);
	free(k->ent);
}

/* ---- the launches' call stacks ---- */

void
cslook_open(struct cslook *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->fp = tl_fopen(path, "r");
	c->name = path;
	if (fseeko(c->fp, 0, SEEK_END) < 0 || (c->size = ftello(c->fp)) < 0)
		tl_die("%s: not a seekable file", path);
	c->last = -1;
}

void
cslook_close(struct cslook *c)
{
	fclose(c->fp);
	buf_free(&c->chain);
}

/* The offset of the first line that starts at pos or after. */
static long long
cs_linestart(struct cslook *c, long long pos)
{
	int ch;

	if (pos == 0)
		return 0;
	if (fseeko(c->fp, pos - 1, SEEK_SET) < 0)
		tl_die("%s: cannot seek", c->name);
	for (pos--; (ch = getc(c->fp)) != EOF; pos++)
		if (ch == '\n')
			return pos + 1;
	return c->size;
}

/* The UID of the line at off; with chain, its list into c->chain. */
static long long
cs_line(struct cslook *c, long long off, int chain)
{
	long long u = 0;
	int ch, nd = 0;

	if (fseeko(c->fp, off, SEEK_SET) < 0)
		tl_die("%s: cannot seek", c->name);
	while ((ch = getc(c->fp)) >= '0' && ch <= '9')
		u = u * 10 + (ch - '0'), nd++;
	if (ch != '\t' || nd == 0)
		tl_die("%s: offset %lld: not UID TAB call stack", c->name, off);
	if (!chain)
		return u;
	buf_reset(&c->chain);
	while ((ch = getc(c->fp)) != EOF && ch != '\n')
		buf_addc(&c->chain, (char)ch);
	c->chain.len = rec_unescape(c->chain.s, c->chain.len);
	return u;
}

int
cslook_get(struct cslook *c, long long uid)
{
	long long lo = 0, hi = c->size, mid, s, u;

	/* (a launch's kernels come together) */
	if (uid == c->last)
		return c->found ? 0 : -1;
	c->last = uid;
	c->found = 0;
	/* the line of uid starts in [lo, hi), if anywhere */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = cs_linestart(c, mid);
		if (s >= hi) {
			hi = mid;
			continue;
		}
		u = cs_line(c, s, 0);
		if (u == uid) {
			cs_line(c, s, 1);
			c->found = 1;
			return 0;
		}
		if (u < uid)
			lo = s + 1;
		else
			hi = mid;
	}
	return -1;
}
