/* See LICENSE file for copyright and license details. */
/*
 * tl-coll -m: the ranks of each collective side by side -> the long
 * table, the implicit-sync and all_to_allv rows, the heatmap's pairs
 * and the health counts; values computed as numpy computes them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "stages.h"

/* The names of the cell columns (C_*), for messages. */
static const char *const colname[NCOL] = {
	"ts", "dur", "Process Group Name", "Process Group Ranks",
	"Collective name", "Group size", "dtype", "In msg nelems",
	"Out msg nelems", "In split size", "Out split size", "stream",
	"In msg size (MB)", "Out msg size (MB)"
};

/* ---- numbers as numpy computes them ---- */

static struct cnum
nadd(struct cnum a, struct cnum b)
{
	struct cnum r;

	r.isint = a.isint && b.isint;
	r.i = r.isint ? a.i + b.i : 0;
	r.d = r.isint ? (double)r.i : a.d + b.d;
	return r;
}

static struct cnum
nsub(struct cnum a, struct cnum b)
{
	struct cnum r;

	r.isint = a.isint && b.isint;
	r.i = r.isint ? a.i - b.i : 0;
	r.d = r.isint ? (double)r.i : a.d - b.d;
	return r;
}

/* a < b, as numpy compares them (an integer exactly). */
static int
nlt(struct cnum a, struct cnum b)
{
	return a.isint && b.isint ? a.i < b.i : a.d < b.d;
}

static struct cnum
nfloat(double d)
{
	struct cnum r = { 0, 0, d };

	return r;
}

/* A cell in a column of class k, as numpy holds it: an int64 becomes a
 * double in a float64 column. */
static int
cellnum(const char *cell, size_t len, int k, struct cnum *v)
{
	if (len == 0 || cell[0] == 'z') {
		if (k != K_FLOAT)
			return -1;
		*v = nfloat(NAN);
		return 0;
	}
	if (coll_num(cell, len, v) < 0)
		return -1;
	if (k == K_FLOAT && v->isint)
		*v = nfloat(v->d);
	return 0;
}

/* Append a number as a cell (tag i or f). */
static void
numcell(struct buf *b, struct cnum v)
{
	buf_addc(b, v.isint ? 'i' : 'f');
	if (!v.isint && v.d != v.d)
		buf_adds(b, "nan");
	else
		coll_putnum(b, &v);
}

/* ---- the collectives ---- */

/* One rank's record of a collective. */
struct member {
	long rank;		/* its rank */
	int64_t uid;		/* its event's UID */
	size_t off[NCOL];	/* its cells in the group's data */
	size_t len[NCOL];	/* their lengths */
};

/* The records of one collective: one (process group, index) pair. */
struct group {
	struct buf pg;		/* the process group (escaped) */
	int64_t idx;		/* the index in it */
	struct buf data;	/* every member's cells, owned */
	struct member *m;	/* the members, by rank */
	size_t n, cap;		/* members, allocated */
};

/* What the cross-rank stage counts for the health sheet. */
struct health {
	int64_t colls;		/* collectives */
	int64_t missing;	/* collectives on fewer ranks than their group */
	int64_t unreported;	/* collectives in no per-collective sheet */
	int64_t mismatch;	/* collectives whose ranks disagree (-S) */
	int64_t heatskip;	/* all_to_allv events the heatmap skips */
};

struct merge {
	const struct opts *opt;	/* the options */
	int klass[NCOL];	/* how each cell column prints (K_*) */
	int simplified;		/* TraceLens's stream-order matching */
	FILE *lng, *isy, *a2a, *heat;	/* the outputs */
	struct health h;	/* counts */
	struct buf t, u, v;	/* scratch */
	int64_t *ranks;		/* scratch for Process Group Ranks */
	size_t rcap;		/* entries allocated in ranks */
	int64_t *spl;		/* scratch for split sizes */
	size_t scap;		/* entries allocated in spl */
};

#define CELL(g, mb, c) ((g)->data.s + (mb)->off[c])

/* A cell of member mb as numpy holds it. */
static struct cnum
mnum(const struct merge *M, const struct group *g, const struct member *mb,
    int c)
{
	struct cnum v;

	if (cellnum(CELL(g, mb, c), mb->len[c], M->klass[c], &v) < 0)
		tl_die("collective %s_%lld: rank %ld: %s is not a number "
		    "(TraceLens fails on it)", g->pg.s, (long long)g->idx,
		    mb->rank, colname[c]);
	return v;
}

/* Append cell c of member mb as pandas prints it. */
static void
mrender(const struct merge *M, struct buf *b, const struct group *g,
    const struct member *mb, int c)
{
	coll_render(b, CELL(g, mb, c), mb->len[c], M->klass[c]);
}

/* Append cell c as numpy hands it to a new table: as its column held it. */
static void
mconv(const struct merge *M, struct buf *b, const struct group *g,
    const struct member *mb, int c)
{
	struct cnum v;
	const char *s = CELL(g, mb, c);

	if (M->klass[c] == K_FLOAT && cellnum(s, mb->len[c], K_FLOAT, &v) == 0)
		numcell(b, v);
	else if (M->klass[c] == K_FLOAT)
		buf_addc(b, 'z');
	else
		buf_add(b, s, mb->len[c]);
}

/* node_span of a Process Group Ranks cell. */
static const char *
nodespan(struct merge *M, const char *cell, size_t len)
{
	size_t n = coll_pgranks(cell, len, &M->ranks, &M->rcap), i;
	int64_t node, first = 0;

	if (n == 0)
		return "unknown";
	for (i = 0; i < n; i++) {
		/* Python's //: toward minus infinity */
		node = M->ranks[i] / M->opt->gpn -
		    (M->ranks[i] % M->opt->gpn < 0);
		if (i == 0)
			first = node;
		else if (node != first)
			return "inter_node";
	}
	return "intra_node";
}

/* The collective's name for messages: its collective_id. */
static void
cid(const struct merge *M, const struct group *g, struct buf *b)
{
	char tmp[32];

	buf_reset(b);
	if (!M->simplified) {
		buf_add(b, g->pg.s, g->pg.len);
		buf_addc(b, '_');
	}
	snprintf(tmp, sizeof(tmp), "%lld", (long long)g->idx);
	buf_adds(b, tmp);
}

/* TraceLens's metadata check: every rank agrees on each field. */
static void
samemeta(struct merge *M, const struct group *g, const int *cols, int ncols,
    const char *id, int *counted)
{
	const struct member *a = &g->m[0], *b;
	size_t i;
	int k;

	for (k = 0; k < ncols; k++) {
		buf_reset(&M->t);
		mrender(M, &M->t, g, a, cols[k]);
		for (i = 1; i < g->n; i++) {
			b = &g->m[i];
			buf_reset(&M->u);
			mrender(M, &M->u, g, b, cols[k]);
			if (M->t.len == M->u.len &&
			    memcmp(M->t.s, M->u.s, M->t.len) == 0)
				continue;
			buf_addc(&M->t, '\0');
			buf_addc(&M->u, '\0');
			if (!M->opt->lenient)
				tl_die("collective %s: Metadata mismatch in '%s': "
				    "rank %ld has '%s', rank %ld '%s' (TraceLens "
				    "stops here)", id, colname[cols[k]], a->rank,
				    M->t.s, b->rank, M->u.s);
			tl_warn("collective %s: Metadata mismatch in '%s': rank "
			    "%ld has '%s', rank %ld '%s'", id, colname[cols[k]],
			    a->rank, M->t.s, b->rank, M->u.s);
			if (!*counted) {
				M->h.mismatch++;
				*counted = 1;
			}
			return;
		}
	}
}

/* Append "%010ld.%020lld": a byte-sortable (rank, UID) key. */
static void
firstkey(struct buf *b, const struct member *mb)
{
	char tmp[48];

	snprintf(tmp, sizeof(tmp), "%010ld.%020lld", mb->rank,
	    (long long)mb->uid);
	buf_adds(b, tmp);
}

static void
putbuf(FILE *fp, const struct buf *b, int last)
{
	put(fp, b->s ? b->s : "", b->len, last);
}

/* Append number v as a rendered cell (an empty one for NaN). */
static void
putnum(struct buf *b, struct cnum v)
{
	coll_putnum(b, &v);
}

/* A row of nccl_implicit_sync (build_df_nccl_implicit_sync_cat). */
static void
isyncrow(struct merge *M, const struct group *g, int type, const char *id,
    const char *pgdisp)
{
	static const int meta[] = {
		C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_OUTNEL, C_INMB,
		C_OUTMB
	};
	const struct member *mb;
	struct cnum ls, ee, le, lat, w, mw, sum, ts, dur, full, gs;
	struct buf *b = &M->v;
	double algo = NAN, bus = NAN, f;
	size_t i;
	long ear = 0;
	int counted = 0, c, haveg;

	if (!M->simplified)
		samemeta(M, g, meta, (int)LEN(meta), id, &counted);
	/* latest start, earliest and latest end, the fastest rank's time */
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		ts = mnum(M, g, mb, C_TS);
		dur = mnum(M, g, mb, C_DUR);
		if (i == 0 || nlt(ls, ts))
			ls = ts;
		if (i == 0 || nlt(nadd(ts, dur), ee))
			ee = nadd(ts, dur);
		if (i == 0 || nlt(le, nadd(ts, dur)))
			le = nadd(ts, dur);
		if (i == 0 || nlt(dur, lat))
			lat = dur;
	}
	/* waits: the largest, ties to the higher rank; their mean */
	sum.isint = 1;
	sum.i = 0;
	sum.d = 0;
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		w = nsub(ls, mnum(M, g, mb, C_TS));
		if (i == 0 || !nlt(w, mw)) {
			mw = w;
			ear = mb->rank;
		}
		sum = nadd(sum, w);
	}
	/* the message and the bandwidths, when the metadata allow */
	full = nfloat(NAN);
	mb = &g->m[0];
	c = type == T_ALLGATHER ? C_OUTMB : C_INMB;
	/* (None only in an all-None column; NaN goes on as NaN) */
	if (type >= 0 && M->klass[C_INMB] == K_FLOAT &&
	    M->klass[C_OUTMB] == K_FLOAT) {
		if (cellnum(CELL(g, mb, c), mb->len[c], K_FLOAT, &full) < 0)
			full = nfloat(NAN);
		algo = lat.d > 0 ? (full.d / 1024) / (lat.d / 1e6) : NAN;
		haveg = M->klass[C_GSIZE] == K_FLOAT ||
		    (mb->len[C_GSIZE] && CELL(g, mb, C_GSIZE)[0] != 'z');
		if (haveg && type != T_ALLTOALLV) {
			if (cellnum(CELL(g, mb, C_GSIZE), mb->len[C_GSIZE],
			    M->klass[C_GSIZE], &gs) < 0)
				tl_die("collective %s: Group size is not a number "
				    "(TraceLens fails on it)", id);
			f = type == T_ALLREDUCE ? (gs.isint ?
			    (double)(2 * (gs.i - 1)) / (double)gs.i :
			    2 * (gs.d - 1) / gs.d) : (gs.isint ?
			    (double)(gs.i - 1) / (double)gs.i : (gs.d - 1) / gs.d);
			bus = algo * f;
		}
	}

	buf_reset(b);
	firstkey(b, &g->m[0]);
	putbuf(M->isy, b, 0);
	/* the summary's group key, None as "Unknown" */
	buf_reset(b);
	for (i = 0; i < 3; i++) {
		c = i == 0 ? C_COLL : i == 1 ? C_DTYPE : C_INNEL;
		buf_reset(&M->t);
		if (mb->len[c] == 0 || CELL(g, mb, c)[0] == 'z')
			buf_adds(&M->t, "sUnknown");
		else
			mconv(M, &M->t, g, mb, c);
		coll_sortkey(b, M->t.s, M->t.len);
	}
	buf_reset(&M->u);
	rec_bput(&M->u, b->s, b->len);
	putbuf(M->isy, &M->u, 0);
	puts_(M->isy, id, 0);
	puts_(M->isy, pgdisp, 0);
	for (i = 0; i < LEN(meta); i++) {
		buf_reset(b);
		mrender(M, b, g, mb, meta[i]);
		putbuf(M->isy, b, 0);
	}
	buf_reset(b);
	putnum(b, full);
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, lat);
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, mw);
	putbuf(M->isy, b, 0);
	fprintf(M->isy, "%ld\t", ear);
	buf_reset(b);
	putnum(b, nfloat(sum.d / (double)g->n));
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, nsub(le, ee));
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, nfloat(algo));
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, nfloat(bus));
	putbuf(M->isy, b, 0);
	if (M->opt->gpn > 0)
		puts_(M->isy, nodespan(M, CELL(g, mb, C_PGR), mb->len[C_PGR]), 0);
	fprintf(M->isy, "%zu", g->n);
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		buf_reset(b);
		fprintf(M->isy, "\t%ld\t", mb->rank);
		mconv(M, b, g, mb, C_TS);
		buf_addc(b, '\t');
		mconv(M, b, g, mb, C_DUR);
		buf_addc(b, '\t');
		numcell(b, nsub(ls, mnum(M, g, mb, C_TS)));
		fwrite(b->s, 1, b->len, M->isy);
	}
	putc('\n', M->isy);
}

/* A row of nccl_all2allv (build_df_nccl_all2allv). */
static void
a2arow(struct merge *M, const struct group *g, const char *id,
    const char *pgdisp)
{
	static const int meta[] = { C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_STREAM };
	const struct member *mb = &g->m[0];
	struct cnum es, ls, ee, le, ts, dur, end, nel, tnel, mx, mn, dsum;
	struct buf *b = &M->v;
	double tsize = 0, sz, rt, rmax = NAN, rmin = NAN, smax = 0, wall, thr;
	size_t i;
	int counted = 0, c, nrt = 0;

	samemeta(M, g, meta, (int)LEN(meta), id, &counted);
	if (M->klass[C_INMB] == K_NONE || M->klass[C_INNEL] == K_NONE)
		tl_die("collective %s: all_to_allv without message sizes "
		    "(TraceLens fails on it)", id);
	tnel.isint = 1;
	tnel.i = 0;
	tnel.d = 0;
	dsum = tnel;
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		ts = mnum(M, g, mb, C_TS);
		dur = mnum(M, g, mb, C_DUR);
		end = nadd(ts, dur);
		if (i == 0 || nlt(ts, es))
			es = ts;
		if (i == 0 || nlt(ls, ts))
			ls = ts;
		if (i == 0 || nlt(end, ee))
			ee = end;
		if (i == 0 || nlt(le, end))
			le = end;
		if (i == 0 || nlt(mx, dur))
			mx = dur;
		if (i == 0 || nlt(dur, mn))
			mn = dur;
		dsum = nadd(dsum, dur);
		sz = mnum(M, g, mb, C_INMB).d;
		tsize += sz;
		if (i == 0 || smax < sz)
			smax = sz;
		nel = mnum(M, g, mb, C_INNEL);
		tnel = nadd(tnel, nel);
		if (sz > 0 && dur.d > 0) {
			rt = (sz / 1024) / (dur.d / 1e6);
			if (nrt++ == 0 || rmax < rt)
				rmax = rt;
			if (nrt == 1 || rt < rmin)
				rmin = rt;
		}
	}
	wall = nsub(le, es).d;
	thr = wall > 0 ? (tsize / 1024) / (wall / 1e6) : NAN;
	mb = &g->m[0];

	buf_reset(b);
	firstkey(b, mb);
	putbuf(M->a2a, b, 0);
	/* the summary's group key, and whether it has a None */
	buf_reset(b);
	buf_reset(&M->t);
	buf_addc(&M->t, 's');
	buf_adds(&M->t, pgdisp);
	coll_sortkey(b, M->t.s, M->t.len);
	buf_reset(&M->t);
	mconv(M, &M->t, g, mb, C_DTYPE);
	coll_sortkey(b, M->t.s, M->t.len);
	buf_reset(&M->u);
	rec_bput(&M->u, b->s, b->len);
	putbuf(M->a2a, &M->u, 0);
	fprintf(M->a2a, "%d\t", M->t.s[0] == 'z');
	buf_reset(b);
	putnum(b, nfloat(tsize));
	putbuf(M->a2a, b, 0);
	puts_(M->a2a, id, 0);
	puts_(M->a2a, pgdisp, 0);
	for (i = 0; i < LEN(meta); i++) {
		buf_reset(b);
		mrender(M, b, g, mb, meta[i]);
		putbuf(M->a2a, b, 0);
	}
	buf_reset(b);
	putnum(b, nfloat(tsize));
	buf_addc(b, '\t');
	putnum(b, tnel);
	buf_addc(b, '\t');
	putnum(b, nsub(le, es));
	buf_addc(b, '\t');
	putnum(b, mx);
	buf_addc(b, '\t');
	putnum(b, mn);
	buf_addc(b, '\t');
	putnum(b, nfloat(dsum.d / (double)g->n));
	buf_addc(b, '\t');
	putnum(b, nfloat(thr));
	buf_addc(b, '\t');
	putnum(b, nfloat(rmax));
	buf_addc(b, '\t');
	putnum(b, nfloat(rmin));
	buf_addc(b, '\t');
	putnum(b, nfloat(tsize / (double)g->n > 0 ?
	    smax / (tsize / (double)g->n) : NAN));
	buf_addc(b, '\t');
	putnum(b, nsub(ls, es));
	buf_addc(b, '\t');
	putnum(b, nsub(le, ee));
	putbuf(M->a2a, b, 0);
	if (M->opt->gpn > 0)
		puts_(M->a2a, nodespan(M, CELL(g, mb, C_PGR), mb->len[C_PGR]), 0);
	fprintf(M->a2a, "%zu", g->n);
	for (i = 0; i < g->n; i++) {
		static const int per[] = {
			C_TS, C_DUR, C_INNEL, C_OUTNEL, C_INMB, C_OUTMB,
			C_INSPLIT, C_OUTSPLIT
		};

		mb = &g->m[i];
		buf_reset(b);
		for (c = 0; c < (int)LEN(per); c++) {
			buf_addc(b, '\t');
			mconv(M, b, g, mb, per[c]);
		}
		ts = mnum(M, g, mb, C_TS);
		buf_addc(b, '\t');
		numcell(b, nsub(ts, es));
		buf_addc(b, '\t');
		numcell(b, nsub(le, nadd(ts, mnum(M, g, mb, C_DUR))));
		fprintf(M->a2a, "\t%ld", mb->rank);
		fwrite(b->s, 1, b->len, M->a2a);
	}
	putc('\n', M->a2a);
}

/* The heatmap's pairs of one all_to_allv event (build_df_all2allv_heatmap). */
static void
heatpairs(struct merge *M, const struct group *g, const struct member *mb)
{
	struct cnum gs;
	long n, j;
	int bytes;

	n = coll_splits(CELL(g, mb, C_INSPLIT), mb->len[C_INSPLIT], &M->spl,
	    &M->scap);
	if (n < 0) {
		M->h.heatskip++;
		return;
	}
	/* a None group size is not checked; NaN never equals */
	if (cellnum(CELL(g, mb, C_GSIZE), mb->len[C_GSIZE], M->klass[C_GSIZE],
	    &gs) == 0 && (gs.isint ? gs.i != n : gs.d != (double)n)) {
		M->h.heatskip++;
		return;
	}
	if (M->klass[C_GSIZE] == K_OBJ && mb->len[C_GSIZE] &&
	    CELL(g, mb, C_GSIZE)[0] != 'z' && CELL(g, mb, C_GSIZE)[0] != 'i' &&
	    CELL(g, mb, C_GSIZE)[0] != 'f') {
		M->h.heatskip++;
		return;
	}
	if ((bytes = dtypebytes(CELL(g, mb, C_DTYPE), mb->len[C_DTYPE])) == 0) {
		M->h.heatskip++;
		return;
	}
	for (j = 0; j < n; j++)
		fprintf(M->heat, "%ld\t%ld\t%lld\n", mb->rank, j,
		    (long long)(M->spl[j] * bytes));
}

static void
flush(struct merge *M, struct group *g)
{
	static const int keys[] = {
		C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_OUTNEL, C_INSPLIT,
		C_OUTSPLIT, C_STREAM
	};
	static const int longcols[] = {
		C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_INMB, C_OUTNEL,
		C_OUTMB, C_INSPLIT, C_OUTSPLIT, C_STREAM, C_TS, C_DUR
	};
	struct buf id = {0}, pgd = {0}, *b = &M->v;
	const struct member *mb;
	size_t i, k, np;
	int type, implicit, keyna;
	char tmp[48];
	int64_t want;
	struct cnum gs;

	if (g->n == 0)
		return;
	cid(M, g, &id);
	buf_addc(&id, '\0');
	id.len--;
	if (M->simplified)
		buf_adds(&pgd, "all");
	else
		buf_add(&pgd, g->pg.s, g->pg.len);
	buf_addc(&pgd, '\0');
	pgd.len--;
	/* the long table: each record as pandas prints it */
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		fprintf(M->lng, "%ld\t%lld\t", mb->rank, (long long)mb->uid);
		buf_reset(b);
		snprintf(tmp, sizeof(tmp), "i%ld", mb->rank);
		coll_sortkey(b, tmp, strlen(tmp));
		buf_reset(&M->t);
		buf_addc(&M->t, 's');
		buf_add(&M->t, pgd.s, pgd.len);
		coll_sortkey(b, M->t.s, M->t.len);
		keyna = 0;
		for (k = 0; k < LEN(keys); k++) {
			buf_reset(&M->t);
			mconv(M, &M->t, g, mb, keys[k]);
			coll_sortkey(b, M->t.s, M->t.len);
			/* groupby drops None and, in a float column, NaN */
			keyna |= M->t.s[0] == 'z' || (M->t.len == 4 &&
			    memcmp(M->t.s, "fnan", 4) == 0);
		}
		buf_reset(&M->u);
		rec_bput(&M->u, b->s, b->len);
		putbuf(M->lng, &M->u, 0);
		fprintf(M->lng, "%d\t%s\t%lld\t%ld\t%s", keyna, id.s,
		    (long long)g->idx, mb->rank, pgd.s);
		for (k = 0; k < LEN(longcols); k++) {
			buf_reset(b);
			mrender(M, b, g, mb, longcols[k]);
			putc('\t', M->lng);
			fwrite(b->s, 1, b->len, M->lng);
		}
		if (M->opt->gpn > 0)
			fprintf(M->lng, "\t%ld\t%s", mb->rank / M->opt->gpn,
			    nodespan(M, CELL(g, mb, C_PGR), mb->len[C_PGR]));
		putc('\n', M->lng);
	}

	mb = &g->m[0];
	type = colltype(CELL(g, mb, C_COLL), mb->len[C_COLL]);
	if (M->simplified)
		implicit = CELL(g, mb, C_COLL)[0] != 's' || type < 0 ||
		    type != T_ALLTOALLV;
	else
		implicit = type >= 0 && type != T_ALLTOALLV;
	if (implicit)
		isyncrow(M, g, type, id.s, pgd.s);
	if (type == T_ALLTOALLV)
		a2arow(M, g, id.s, pgd.s);
	for (i = 0; M->opt->heat && i < g->n; i++)
		if (colltype(CELL(g, &g->m[i], C_COLL), g->m[i].len[C_COLL]) ==
		    T_ALLTOALLV)
			heatpairs(M, g, &g->m[i]);

	/* health: a collective some ranks of its group lack */
	M->h.colls++;
	if (!implicit && type != T_ALLTOALLV)
		M->h.unreported++;
	np = coll_pgranks(CELL(g, mb, C_PGR), mb->len[C_PGR], &M->ranks,
	    &M->rcap);
	want = M->opt->world;
	if (np > 0) {
		for (want = 0, k = 0; k < np; k++)
			want += M->ranks[k] >= 0 && M->ranks[k] < M->opt->world;
	} else if (cellnum(CELL(g, mb, C_GSIZE), mb->len[C_GSIZE], K_INT,
	    &gs) == 0 && gs.isint && gs.i > 0)
		want = gs.i;
	if ((int64_t)g->n < want)
		M->h.missing++;
	buf_free(&id);
	buf_free(&pgd);
}

/* Read the ranks' facts (-F): the column classes and the matching mode. */
static void
readfacts(struct merge *M)
{
	struct rec_reader r;
	unsigned col[NCOL] = {0};
	const char *s;
	size_t len, i;
	int pgset = 0, multi = 0, c;
	FILE *fp;

	if ((fp = fopen(M->opt->facts, "r")) == NULL)
		tl_die("%s:", M->opt->facts);
	rec_open(&r, fp, M->opt->facts);
	while (rec_read(&r)) {
		if (r.nf != 4 + NCOL)
			tl_die("%s: line %zu: %zu fields, not a facts record",
			    M->opt->facts, r.lineno, r.nf);
		s = rec_get(&r, 2, &len);
		pgset |= len == 1 && s[0] == '1';
		s = rec_get(&r, 3, &len);
		/* (a rank without collectives has no say) */
		multi |= len == 1 && s[0] == '2';
		for (c = 0; c < NCOL; c++) {
			s = rec_get(&r, 4 + c, &len);
			for (i = 0; i < len; i++)
				col[c] |= s[i] == 'z' ? F_Z : s[i] == 'i' ? F_I :
				    s[i] == 'f' ? F_F : s[i] == 's' ? F_S : F_X;
		}
	}
	rec_close(&r);
	fclose(fp);
	M->simplified = !pgset && !multi;
	for (c = 0; c < NCOL; c++)
		M->klass[c] = coll_class(col[c]);
}

void
merge(const struct opts *opt)
{
	static const char *const longhdr[] = {
		"#rank", "#uid", "#skey", "#keyna", "collective_id",
		"index_in_group", "rank", "Process Group Name",
		"Process Group Ranks", "Collective name", "Group size", "dtype",
		"In msg nelems", "In msg size (MB)", "Out msg nelems",
		"Out msg size (MB)", "In split size", "Out split size", "stream",
		"ts", "dur", "node_id", "node_span"
	};
	static const char *const isyhdr[] = {
		"fkey", "skey", "collective_id", "Process Group Name",
		"Process Group Ranks", "Collective name", "Group size", "dtype",
		"In msg nelems", "Out msg nelems", "In msg size (MB)",
		"Out msg size (MB)", "Full msg size (MB)", "comm_latency",
		"skew in start time", "earliest arrival rank", "avg_wait_time",
		"skew in end time", "algo bw (GB/s)", "bus bw (GB/s)", "node_span"
	};
	static const char *const a2ahdr[] = {
		"fkey", "skey", "keyna", "total", "collective_id",
		"Process Group Name", "Process Group Ranks", "Collective name",
		"Group size", "dtype", "stream", "total data communicated (MB)",
		"total nelems communicated", "wall_time (us)",
		"max_rank_dur (us)", "min_rank_dur (us)", "avg_rank_dur (us)",
		"throughput (GB/s)", "max_rank_throughput (GB/s)",
		"min_rank_throughput (GB/s)", "size_imbalance",
		"skew in start time", "skew in end time", "node_span"
	};
	struct merge M;
	struct group g;
	struct rec_reader r;
	struct member *mb;
	const char *s;
	size_t len, k;
	int64_t idx;
	long rank;
	int c, nk;
	FILE *fp;

	memset(&M, 0, sizeof(M));
	memset(&g, 0, sizeof(g));
	M.opt = opt;
	readfacts(&M);
	M.lng = xfopen(opt->dir, "long.tsv", "w");
	M.isy = xfopen(opt->dir, "isync.tsv", "w");
	M.a2a = xfopen(opt->dir, "a2a.tsv", "w");
	M.heat = opt->heat ? xfopen(opt->dir, "heat.tsv", "w") : NULL;
	nk = opt->gpn > 0 ? 0 : 2;
	rec_write(M.lng, longhdr, LEN(longhdr) - (size_t)nk);
	rec_write(M.isy, isyhdr, LEN(isyhdr) - (opt->gpn > 0 ? 0 : 1));
	rec_write(M.a2a, a2ahdr, LEN(a2ahdr) - (opt->gpn > 0 ? 0 : 1));
	if (M.heat != NULL)
		fputs("src_rank\tdst_rank\tbytes\n", M.heat);

	rec_open(&r, stdin, "<stdin>");
	while (rec_read(&r)) {
		if (r.nf != NKEY + NCOL)
			tl_die("<stdin>: line %zu: %zu fields, not a collective "
			    "record", r.lineno, r.nf);
		s = rec_get(&r, 1, &len);
		if (num_int64(s, len, &idx) < 0 || idx < 0)
			tl_die("<stdin>: line %zu: bad index", r.lineno);
		s = rec_get(&r, 2, &len);
		rank = fieldlong(s, len, "rank", "<stdin>", r.lineno);
		if (rank >= opt->world)
			tl_die("<stdin>: line %zu: rank %ld of a job of %ld",
			    r.lineno, rank, opt->world);
		s = rec_get(&r, 0, &len);
		c = g.n == 0 ? 1 : 0;
		if (!c) {
			c = bytecmp(s, len, g.pg.s, g.pg.len);
			if (c == 0)
				c = idx < g.idx ? -1 : idx > g.idx;
			if (c == 0)
				c = rank <= g.m[g.n - 1].rank ? -1 : 0;
			if (c < 0)
				tl_die("<stdin>: line %zu: not sorted by process "
				    "group, index and rank", r.lineno);
		}
		if (c) {
			flush(&M, &g);
			g.n = 0;
			buf_reset(&g.data);
			buf_reset(&g.pg);
			buf_add(&g.pg, s, len);
			buf_addc(&g.pg, '\0');
			g.pg.len--;
			g.idx = idx;
		}
		tl_grow((void **)&g.m, &g.cap, g.n + 1, sizeof(*g.m));
		mb = &g.m[g.n++];
		mb->rank = rank;
		s = rec_get(&r, 3, &len);
		if (num_int64(s, len, &mb->uid) < 0)
			tl_die("<stdin>: line %zu: bad UID", r.lineno);
		for (k = 0; k < NCOL; k++) {
			s = rec_get(&r, NKEY + (int)k, &len);
			if (len == 0 || strchr("zifsblo", s[0]) == NULL)
				tl_die("<stdin>: line %zu: %s: not a typed cell",
				    r.lineno, colname[k]);
			mb->off[k] = g.data.len;
			mb->len[k] = len;
			buf_add(&g.data, s, len);
		}
		buf_addc(&g.data, '\0');
	}
	flush(&M, &g);
	rec_close(&r);

	fp = xfopen(opt->dir, "health.tsv", "w");
	fprintf(fp, "collectives\t%lld\n", (long long)M.h.colls);
	fprintf(fp, "collectives_missing_ranks\t%lld\n", (long long)M.h.missing);
	fprintf(fp, "collectives_not_reported\t%lld\n",
	    (long long)M.h.unreported);
	fprintf(fp, "metadata_mismatches\t%lld\n", (long long)M.h.mismatch);
	fprintf(fp, "matching_by_stream_order\t%d\n", M.simplified);
	if (opt->heat)
		fprintf(fp, "heatmap_events_skipped\t%lld\n",
		    (long long)M.h.heatskip);
	xclose(fp, "health.tsv");
	/* how ts and dur print: the sums over them follow */
	fp = xfopen(opt->dir, "classes.tsv", "w");
	for (k = 0; k < NCOL; k++)
		fprintf(fp, "%s\t%s\n", colname[k], (const char *[]){
		    "none", "int", "float", "object" }[M.klass[k]]);
	xclose(fp, "classes.tsv");
	xclose(M.lng, "long.tsv");
	xclose(M.isy, "isync.tsv");
	xclose(M.a2a, "a2a.tsv");
	if (M.heat != NULL)
		xclose(M.heat, "heat.tsv");
	buf_free(&g.data);
	buf_free(&g.pg);
	free(g.m);
	buf_free(&M.t);
	buf_free(&M.u);
	buf_free(&M.v);
	free(M.ranks);
	free(M.spl);
}
