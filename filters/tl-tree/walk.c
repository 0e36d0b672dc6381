/* See LICENSE file for copyright and license details. */
/*
 * tl-tree -m walk: the range records of host and the launch records of
 * link, by pre-order number -> for every event of the tree with GPU
 * work below it, its subtree record: the number of launched events
 * below (TraceLens's gpu_events), whether a communication kernel is
 * among them, the busy time of the kernels among them (the union that
 * TraceLens sums), and where their lines are in walk.tsv (-o), the
 * launched events in pre-order, one line each.
 *
 * A subtree is a range of pre-order numbers, so one stack walks them
 * all: an event's kernels are those of the launches numbered inside
 * its range.  Its union is built bottom-up: each event's set of merged
 * intervals goes into its parent's when its range ends, the smaller
 * into the larger, so that an interval moves O(log n) times, and each
 * set keeps its exact total.  That total is TraceLens's sum of the
 * merged lengths in start order, in doubles, whenever that sum is
 * exact: when every endpoint is a multiple of one power of two q and
 * the total stays below 2^53 q (epoch microseconds are multiples of a
 * quarter).  Otherwise the set is summed again in start order, as
 * TraceLens sums it, at the cost of its size.  Memory: the sets of the
 * open events, one subtree's kernels.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"
#include "tree.h"

/* Where an interval comes in TraceLens's order: by ts, launch, GPU UID. */
struct okey {
	union tv ts;		/* its start */
	long long launch;	/* UID of the launching runtime event */
	long long gpu;		/* UID of the GPU event */
};

/* A run of merged intervals: one component of a union. */
struct comp {
	union tv s;		/* start */
	union tv e;		/* end */
	struct okey sk;		/* the interval that gave s: the first in order */
	struct okey ek;		/* that gave e: the first in order that ends there */
	int sint;		/* s is a Python int */
	int eint;		/* e is a Python int */
};

/* A node of a treap of components, by start. */
struct node {
	struct comp c;		/* the component */
	unsigned prio;		/* heap priority */
	struct node *l;		/* components that start before */
	struct node *r;		/* and after */
};

/* The union of the kernels of a subtree. */
struct set {
	struct node *root;	/* its components; nodes owned by the pool */
	size_t n;		/* their number */
	__int128 total;		/* exact sum of their lengths, in units */
	size_t nfloat;		/* components whose length Python makes a float */
	int kmin;		/* least exponent of an endpoint's lowest set bit */
	int inexact;		/* an endpoint has no exact value in units */
};

/* An open event of the walk. */
struct wframe {
	long long pre;		/* its pre-order number */
	long long uid;		/* its UID */
	long long last;		/* pre-order number of its last descendant */
	long long count;	/* launched events below it (s and n) */
	int comm;		/* a communication kernel is among them */
	long long off;		/* walk.tsv offset of its first kernel line */
	struct set set;		/* the union of the kernels below it */
};

/* The walk. */
struct walk {
	int exact;		/* -x: ns, not TraceLens's doubles */
	struct wframe *st;	/* the open events, outermost first */
	size_t n;		/* their number */
	size_t cap;		/* frames allocated */
	struct node *free;	/* recycled nodes, chained by r */
	unsigned rnd;		/* xorshift state for priorities */
	FILE *wf;		/* -o: walk.tsv, or NULL */
	long long off;		/* bytes of walk.tsv so far */
	struct buf b;		/* record being built */
	struct node **stk;	/* scratch for traversals: their nodes */
	size_t stkcap;		/* entries allocated */
	struct node **path;	/* scratch for traversals: the way down */
	size_t pcap;		/* entries allocated */
};

/* 2^-64 us: the unit of exact totals of doubles. */
enum { UNITEXP = 64 };

static int
okeycmp(int exact, const struct okey *a, const struct okey *b)
{
	int c = ival_cmp(exact, a->ts, b->ts);

	if (c != 0)
		return c;
	if (a->launch != b->launch)
		return a->launch < b->launch ? -1 : 1;
	return (a->gpu > b->gpu) - (a->gpu < b->gpu);
}

/*
 * t in units (ns with exact; else 2^-64 us) into *u, and the exponent
 * of its lowest set bit (in us) into *k; -1 when a double has no exact
 * value in units below 2^126.
 */
static int
units(int exact, union tv t, __int128 *u, int *k)
{
	double m;
	long long mant;
	int ex, sh, tz;

	if (exact) {
		*u = t.n;
		*k = 0;
		return 0;
	}
	if (t.d == 0) {
		*u = 0;
		*k = INT32_MAX;
		return 0;
	}
	if (!isfinite(t.d))
		return -1;
	m = frexp(t.d, &ex);	/* t = m 2^ex, 0.5 <= |m| < 1 */
	if (ex > 62)
		return -1;
	mant = (long long)ldexp(m, 53);	/* exact: 53 bits */
	tz = __builtin_ctzll((unsigned long long)llabs(mant));
	*k = ex - 53 + tz;
	sh = ex - 53 + UNITEXP;
	if (sh >= 0) {
		*u = (__int128)mant * ((__int128)1 << sh);
		return 0;
	}
	if (tz < -sh)
		return -1;
	*u = mant / (1LL << -sh);
	return 0;
}

/* The length of c in units; 0 with *bad set when it has none. */
static __int128
clen(int exact, const struct comp *c, int *bad)
{
	__int128 s, e;
	int k;

	if (units(exact, c->s, &s, &k) < 0 || units(exact, c->e, &e, &k) < 0) {
		*bad = 1;
		return 0;
	}
	return e - s;
}

static int
cfloat(const struct comp *c)
{
	return !c->sint || !c->eint;
}

static struct node *
node_new(struct walk *w, const struct comp *c)
{
	struct node *x = w->free;

	if (x != NULL)
		w->free = x->r;
	else
		x = tl_calloc(1, sizeof(*x));
	x->c = *c;
	w->rnd ^= w->rnd << 13;
	w->rnd ^= w->rnd >> 17;
	w->rnd ^= w->rnd << 5;
	x->prio = w->rnd;
	x->l = x->r = NULL;
	return x;
}

static void
node_free(struct walk *w, struct node *x)
{
	x->r = w->free;
	w->free = x;
}

/* Split t into the components that start before v (*a) and the rest (*b);
 * with incl, those that start at or before v. */
static void
tsplit(int exact, struct node *t, union tv v, int incl, struct node **a,
    struct node **b)
{
	int c;

	if (t == NULL) {
		*a = *b = NULL;
		return;
	}
	c = ival_cmp(exact, t->c.s, v);
	if (c < 0 || (incl && c == 0)) {
		tsplit(exact, t->r, v, incl, &t->r, b);
		*a = t;
	} else {
		tsplit(exact, t->l, v, incl, a, &t->l);
		*b = t;
	}
}

/* Every component of a before every one of b. */
static struct node *
tjoin(struct node *a, struct node *b)
{
	if (a == NULL)
		return b;
	if (b == NULL)
		return a;
	if (a->prio > b->prio) {
		a->r = tjoin(a->r, b);
		return a;
	}
	b->l = tjoin(a, b->l);
	return b;
}

/* Take out the last component of *t. */
static struct node *
take_last(struct node **t)
{
	struct node *x;

	while ((*t)->r != NULL)
		t = &(*t)->r;
	x = *t;
	*t = x->l;
	return x;
}

/* Merge y into x, as TraceLens's merge in start order would. */
static void
absorb(int exact, struct comp *x, const struct comp *y)
{
	int c;

	if (okeycmp(exact, &y->sk, &x->sk) < 0) {
		x->s = y->s;
		x->sk = y->sk;
		x->sint = y->sint;
	}
	c = ival_cmp(exact, y->e, x->e);
	if (c > 0 || (c == 0 && okeycmp(exact, &y->ek, &x->ek) < 0)) {
		x->e = y->e;
		x->ek = y->ek;
		x->eint = y->eint;
	}
}

/* The nodes of t, in order, onto w->stk from index base; their count. */
static size_t
flatten(struct walk *w, struct node *t, size_t base)
{
	size_t n = base, top = 0;

	/* (iterative: a treap is shallow, but not by contract) */
	while (t != NULL || top > 0) {
		while (t != NULL) {
			tl_grow((void **)&w->path, &w->pcap, top + 1,
			    sizeof(*w->path));
			w->path[top++] = t;
			t = t->l;
		}
		t = w->path[--top];
		tl_grow((void **)&w->stk, &w->stkcap, n + 1, sizeof(*w->stk));
		w->stk[n++] = t;
		t = t->r;
	}
	return n - base;
}

/* Take component c, just removed from s, out of s's counts. */
static void
set_less(struct walk *w, struct set *s, const struct comp *c)
{
	s->total -= clen(w->exact, c, &s->inexact);
	s->nfloat -= cfloat(c);
	s->n--;
}

/*
 * Add component c to s, merging what it touches; w->stk from base on
 * is its scratch.
 */
static void
set_add(struct walk *w, struct set *s, struct comp c, size_t base)
{
	struct node *a, *m, *rest, *x;
	size_t i, nm;
	__int128 u;
	int k;

	if (units(w->exact, c.s, &u, &k) < 0)
		s->inexact = 1;
	else if (k < s->kmin)
		s->kmin = k;
	if (units(w->exact, c.e, &u, &k) < 0)
		s->inexact = 1;
	else if (k < s->kmin)
		s->kmin = k;
	tsplit(w->exact, s->root, c.s, 0, &a, &rest);
	/* the one before may reach it (s <= its end: TraceLens merges) */
	if (a != NULL) {
		struct node *p = a;

		while (p->r != NULL)
			p = p->r;
		if (ival_cmp(w->exact, c.s, p->c.e) <= 0) {
			x = take_last(&a);
			absorb(w->exact, &c, &x->c);
			set_less(w, s, &x->c);
			node_free(w, x);
		}
	}
	/* and those that start inside it (at its end included) */
	tsplit(w->exact, rest, c.e, 1, &m, &rest);
	nm = flatten(w, m, base);
	for (i = 0; i < nm; i++) {
		x = w->stk[base + i];
		absorb(w->exact, &c, &x->c);
		set_less(w, s, &x->c);
		node_free(w, x);
	}
	s->root = tjoin(tjoin(a, node_new(w, &c)), rest);
	s->total += clen(w->exact, &c, &s->inexact);
	s->nfloat += cfloat(&c);
	s->n++;
}

/* Empty s, its nodes back to the pool. */
static void
set_clear(struct walk *w, struct set *s)
{
	size_t i, n = flatten(w, s->root, 0);

	for (i = 0; i < n; i++)
		node_free(w, w->stk[i]);
	memset(s, 0, sizeof(*s));
	s->kmin = INT32_MAX;
}

/* Move the components of from into to; from ends empty. */
static void
set_merge(struct walk *w, struct set *to, struct set *from)
{
	struct set t;
	struct comp c;
	size_t i, n;

	if (from->n > to->n) {
		t = *to;
		*to = *from;
		*from = t;
	}
	if (from->kmin < to->kmin)
		to->kmin = from->kmin;
	to->inexact |= from->inexact;
	n = flatten(w, from->root, 0);
	for (i = 0; i < n; i++) {
		c = w->stk[i]->c;
		node_free(w, w->stk[i]);
		/* (its scratch above ours) */
		set_add(w, to, c, n);
	}
	memset(from, 0, sizeof(*from));
	from->kmin = INT32_MAX;
}

/* Append TAB and s's busy time as TraceLens writes it (nothing if empty). */
static void
set_time(struct walk *w, struct buf *b, struct set *s)
{
	char t[64];
	union tv v;
	size_t i, n;
	long long lim;

	buf_tab(b);
	if (s->n == 0)
		return;
	if (w->exact) {
		v.n = (int64_t)s->total;
		buf_adds(b, ival_fmt(1, v, t, sizeof(t)));
		return;
	}
	/*
	 * (not inexact: every endpoint is a multiple of 2^kmin >= 2^-64,
	 * so the limit is 2^53 or more units)
	 */
	lim = 53LL + s->kmin + UNITEXP;
	if (!s->inexact && (lim >= 126 || s->total < (__int128)1 << lim)) {
		v.d = ldexp((double)s->total, -UNITEXP);
	} else {
		/* TraceLens's sum, in start order */
		n = flatten(w, s->root, 0);
		v.d = 0.0;
		for (i = 0; i < n; i++)
			v.d += w->stk[i]->c.e.d - w->stk[i]->c.s.d;
	}
	if (s->nfloat == 0)
		buf_adds(b, num_pyint(v.d, t, sizeof(t)));
	else
		buf_adds(b, num_pyrepr(v.d, t, sizeof(t)));
}

/* ---- the walk ---- */

/*
 * The top event's range has ended: its subtree record (when it has
 * launched events below), and its counts and kernels go to its parent.
 */
static void
finish(struct walk *w)
{
	struct wframe *f = &w->st[--w->n], *p;
	struct buf *b = &w->b;

	if (f->count > 0) {
		key_uid(b, f->uid);
		buf_addc(b, 'r');
		buf_tab(b), buf_num(b, f->uid);
		buf_adds(b, "\tr");
		set_time(w, b, &f->set);
		buf_tab(b), buf_num(b, f->count);
		buf_tab(b), buf_addc(b, f->comm ? '1' : '0');
		buf_tab(b), buf_num(b, f->off);
		buf_tab(b), buf_num(b, w->off - f->off);
		buf_emit(stdout, b);
	}
	if (w->n == 0) {
		set_clear(w, &f->set);
		return;
	}
	p = &w->st[w->n - 1];
	p->count += f->count;
	p->comm |= f->comm;
	set_merge(w, &p->set, &f->set);
}

/* A range record: pre uid last. */
static void
open_range(struct walk *w, const struct rec_reader *r, long long pre)
{
	struct wframe *f;
	size_t i;

	want_nf(r, 3);
	while (w->n > 0 && w->st[w->n - 1].last < pre)
		finish(w);
	if (w->n == w->cap) {
		i = w->cap;
		tl_grow((void **)&w->st, &w->cap, w->n + 1, sizeof(*w->st));
		memset(w->st + i, 0, (w->cap - i) * sizeof(*w->st));
		for (; i < w->cap; i++)
			w->st[i].set.kmin = INT32_MAX;
	}
	f = &w->st[w->n++];
	f->pre = pre;
	f->uid = atoid(r->f[1].s);
	f->last = atoid(r->f[2].s);
	if (f->last < pre)
		tl_die("%s: line %zu: range ends before it starts", r->name,
		    r->lineno);
	f->count = 0;
	f->comm = 0;
	f->off = w->off;
}

/* A launch record: pre kind gpu ref launch; the event's line is in x. */
static void
launched(struct walk *w, const struct rec_reader *r, long long pre,
    struct xsrc *x)
{
	struct wframe *f;
	struct buf *b = &w->b;
	struct comp c;
	union tv dur;
	const char *s;
	const char *t;
	size_t len, tlen, i;
	char kind;

	if (w->n == 0 || (f = &w->st[w->n - 1])->pre != pre)
		tl_die("%s: line %zu: launch of no event (pre-order %lld)",
		    r->name, r->lineno, pre);
	f->count++;
	fetch_line(&x->ft, atoid(r->f[3].s), atoid(r->f[2].s));
	kind = r->f[1].s[0];
	s = fetch_field(&x->ft, x->col[X_NAME], &len);
	if (kind == 's' && tl_iscomm(s, len))
		f->comm = 1;
	buf_addc(b, kind);
	buf_tab(b);
	s = fetch_field(&x->ft, x->col[X_TS], &len);
	buf_add(b, s, len);
	t = fetch_field(&x->ft, x->col[X_DUR], &tlen);
	buf_tab(b), buf_add(b, t, tlen);
	/* (an n record counts in gpu_events, never in a busy time) */
	if (kind == 's') {
		if (ival_parse(w->exact, s, len, &c.s) < 0)
			tl_die("%s: UID %s: ts is not a time: %.40s",
			    x->ft.hdr.name, r->f[2].s, s);
		if (ival_parse(w->exact, t, tlen, &dur) < 0)
			tl_die("%s: UID %s: dur is not a time: %.40s",
			    x->ft.hdr.name, r->f[2].s, t);
		c.e = ival_add(w->exact, c.s, dur);
		c.sint = num_isint(s, len);
		c.eint = c.sint && num_isint(t, tlen);
		c.sk.ts = c.s;
		c.sk.launch = atoid(r->f[4].s);
		c.sk.gpu = atoid(r->f[2].s);
		c.ek = c.sk;
		set_add(w, &f->set, c, 0);
	}
	/* walk.tsv: kind ts dur gpu stream cat ref launch */
	buf_tab(b), buf_add(b, r->f[2].s, r->f[2].len);
	for (i = X_STREAM; i < X_NF; i++)
		xsrc_put(b, x, i);
	buf_tab(b), buf_add(b, r->f[3].s, r->f[3].len);
	buf_tab(b), buf_add(b, r->f[4].s, r->f[4].len);
	buf_addc(b, '\n');
	w->off += (long long)b->len;
	if (w->wf != NULL)
		fwrite(b->s, 1, b->len, w->wf);
	buf_reset(b);
}

int
walk(const struct opts *opt, const char *path)
{
	static const char hdr[] =
	    "kind\tts\tdur\tgpu\tstream\tcat\tref\tlaunch\n";
	static char iob[2][TL_IOBUF];	/* stdio's, for in and -o */
	struct rec_reader r;
	struct walk w;
	struct xsrc ev, gv;
	struct buf prev = {0};
	FILE *in = io_open(path, "r", iob[0]);
	long long pre;
	int status = 0, more;
	char role;

	memset(&w, 0, sizeof(w));
	w.exact = opt->exact;
	w.rnd = 2463534242U;
	if (opt->opath) {
		w.wf = io_open(opt->opath, "w", iob[1]);
		fputs(hdr, w.wf);
	}
	w.off = (long long)sizeof(hdr) - 1;
	memset(&ev, 0, sizeof(ev));
	memset(&gv, 0, sizeof(gv));
	rec_open(&r, in, io_name(path));
	/*
	 * The events only once the first record is here: split may still
	 * be writing them, and the records come through a sort.
	 */
	if ((more = next(&r, &prev, 1)) != 0) {
		xsrc_open(&ev, opt->epath);
		if (opt->gvpath)
			xsrc_open(&gv, opt->gvpath);
	}
	for (; more; more = next(&r, &prev, 1)) {
		/* key: 16 hex digits of pre-order number, the role, ... */
		if (r.f[0].len < PREW + 1)
			tl_die("%s: line %zu: not a walk record", r.name,
			    r.lineno);
		pre = (long long)key_hexat(r.f[0].s, PREW);
		role = r.f[0].s[PREW];
		if (role == 'a') {
			open_range(&w, &r, pre);
		} else if (role == 'b') {
			want_nf(&r, 5);
			launched(&w, &r, pre,
			    opt->gvpath && r.f[1].s[0] != 'n' ? &gv : &ev);
		} else {
			tl_die("%s: line %zu: unknown walk record role '%c'",
			    r.name, r.lineno, role);
		}
	}
	while (w.n > 0)
		finish(&w);
	if (w.wf)
		status = tl_fshut(w.wf, opt->opath);
	if (ev.ft.fp)
		fetch_close(&ev.ft);
	if (gv.ft.fp)
		fetch_close(&gv.ft);
	while (w.free != NULL) {
		struct node *x = w.free;

		w.free = x->r;
		free(x);
	}
	free(w.st);
	free(w.stk);
	free(w.path);
	buf_free(&w.b);
	buf_free(&prev);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return status;
}
