/* See LICENSE file for copyright and license details. */
/*
 * tl-tree -m link: runtime, flow and GPU records by linking id -> which
 * launch each GPU event hangs under, the direct-kernel interval records
 * of its launcher, and (-r) the walk's launch records, by the launch's
 * pre-order number; and -m intervals: the interval records and the
 * walk's subtree records by op, each interval completed from its
 * event's line -> intervals.tsv, the GPU-event count of every op and
 * the ops with communication below.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"
#include "tree.h"

enum { E_UID = 1, E_PID, E_TID, E_NAME, E_LA, E_LANAME, E_CPU, E_CPUNAME,
    E_CPUREF, E_DEPTH, E_ROOT, E_PRE, E_NF };

enum { C_UID = 1, C_PID, C_TID, C_TS, C_COMM, C_REF, C_NF };

/* A GPU, other, runtime or host record of the current linking id. */
struct lrec {
	char role;	/* R_GPU, R_OTHER, R_RUN or R_HOST */
	long long uid;	/* its UID */
	size_t f;	/* its first field (the UID) in the arena */
	int claims;	/* R_GPU, R_OTHER: launches that took it */
	size_t fin;	/* and the last of them (TraceLens: last wins) */
	int hasts;	/* ts is valid */
	struct ttv ts;	/* R_GPU, R_OTHER: start, for interval keys */
};

/* The current linking id's records and what the mode counts. */
struct link {
	const struct opts *opt;	/* the options */
	struct arena a;		/* copied fields of held records */
	struct lrec *rec;	/* held records, in sorted order */
	size_t n;		/* records held */
	size_t cap;		/* records allocated */
	int start;		/* a flow start has this id */
	long long endu;		/* UID of the last flow end, or -1 */
	struct buf endpid;	/* that flow end's pid */
	struct buf endtid;	/* and tid */
	FILE *g;		/* GPU link records */
	FILE *w;		/* -r: the walk's launch records, or NULL */
	struct buf b;		/* record being built */
	long long unterm;	/* launches whose flow has no end */
	long long nowhere;	/* flow ends that point at no event */
	long long tohost;	/* flow ends that point at a host event */
	long long multi;	/* GPU events taken by several launches */
	int nolegacy;		/* ignore async_cpu_to_gpu and async flows */
};

static const char *
lf(const struct link *lk, const struct lrec *x, int col)
{
	return arena_get(&lk->a, x->f + (size_t)col - 1);
}

/*
 * The interval record (kind d) of launcher op for its direct kernel g,
 * launched by runtime event e: by op, kind, ts, then e's UID and g's
 * (TraceLens's gpu_events order, the launches' UID order, within a ts:
 * a stable sort by ts keeps it).  (The subtree's are the walk's.)
 */
static void
direct(struct link *lk, const char *op, const struct lrec *g,
    const struct lrec *e)
{
	struct buf *b = &lk->b;

	key_uid(b, atoid(op));
	buf_addc(b, 'd');
	key_time(lk->opt->exact, b, &g->ts);
	key_uid(b, e->uid);
	key_uid(b, g->uid);
	buf_tab(b), buf_adds(b, op);
	buf_adds(b, "\td");
	buf_tab(b), buf_adds(b, lf(lk, g, C_UID));
	buf_tab(b), buf_adds(b, lf(lk, g, C_REF));
	buf_tab(b), buf_num(b, e->uid);
	buf_emit(stdout, b);
}

/*
 * Runtime event e launches event g: the walk's launch record of g,
 * under e's pre-order number, kind s for a GPU event, n for another
 * (it counts in TraceLens's gpu_events but never in a busy time).  The
 * walk gives it to e and every event above e (walk.c).
 */
static void
claim(struct link *lk, struct lrec *g, size_t ei)
{
	const struct lrec *e = &lk->rec[ei];
	struct buf *b = &lk->b;

	if (!g->hasts)
		tl_die("UID %lld: launched event without a valid ts", g->uid);
	g->claims++;
	g->fin = ei;
	if (lk->w == NULL)
		return;
	key_pre(b, atoid(lf(lk, e, E_PRE)), 'b');
	key_uid(b, g->uid);
	buf_tab(b), buf_addc(b, g->role == R_GPU ? 's' : 'n');
	buf_tab(b), buf_adds(b, lf(lk, g, C_UID));
	buf_tab(b), buf_adds(b, lf(lk, g, C_REF));
	buf_tab(b), buf_num(b, e->uid);
	buf_emit(lk->w, b);
}

static void
link_group(struct link *lk)
{
	struct lrec *t = NULL;
	size_t i, j;

	if (lk->endu >= 0)
		for (i = 0; i < lk->n; i++) {
			struct lrec *x = &lk->rec[i];
			const char *pid = lf(lk, x, C_PID), *tid = lf(lk, x, C_TID);

			if (*pid == '\0' || *tid == '\0' ||
			    strcmp(pid, lk->endpid.s) != 0 ||
			    strcmp(tid, lk->endtid.s) != 0)
				continue;
			if (t == NULL || x->uid > t->uid)
				t = x;
		}
	for (i = 0; i < lk->n; i++) {
		struct lrec *e = &lk->rec[i];
		const char *name;

		if (e->role != R_RUN)
			continue;
		name = lf(lk, e, E_NAME);
		if (strcmp(name, "cudaGraphLaunch") == 0 ||
		    strcmp(name, "hipGraphLaunch") == 0) {
			for (j = 0; j < lk->n; j++)
				if (lk->rec[j].role == R_GPU)
					claim(lk, &lk->rec[j], i);
		} else if (!lk->start) {
			continue;
		} else if (lk->endu < 0) {
			lk->unterm++;
		} else if (t == NULL) {
			lk->nowhere++;
		} else if (t->role == R_RUN || t->role == R_HOST) {
			/* TraceLens would re-parent a host event (or loop) */
			lk->tohost++;
		} else {
			claim(lk, t, i);
		}
	}
	for (i = 0; i < lk->n; i++) {
		struct lrec *g = &lk->rec[i], *e;
		struct buf *b = &lk->b;

		if (g->claims == 0)
			continue;
		if (g->claims > 1)
			lk->multi++;
		e = &lk->rec[g->fin];
		key_uid(b, g->uid);
		buf_tab(b), buf_adds(b, lf(lk, e, E_UID));
		buf_tab(b), buf_adds(b, lf(lk, e, E_NAME));
		for (j = E_LA; j < E_DEPTH; j++)
			buf_tab(b), buf_adds(b, lf(lk, e, (int)j));
		/* one below its launch */
		buf_tab(b), buf_num(b, atoid(lf(lk, e, E_DEPTH)) + 1);
		buf_tab(b), buf_adds(b, lf(lk, e, E_ROOT));
		buf_emit(lk->g, b);
		if (g->role == R_GPU && *lf(lk, g, C_COMM) == '0')
			direct(lk, lf(lk, e, E_LA), g, e);
	}
	arena_reset(&lk->a);
	lk->n = 0;
	lk->start = 0;
	lk->endu = -1;
}

static void
link_read(struct link *lk, struct rec_reader *r)
{
	char role;
	struct lrec *x;
	size_t i, nf;

	if (r->f[0].len == 0) {
		/* split's control record: do older flows stand for ac2g? */
		want_nf(r, 3);
		if (strcmp(r->f[1].s, "legacy_flows") == 0)
			lk->nolegacy = strcmp(r->f[2].s, "0") == 0;
		return;
	}
	role = r->f[0].s[r->f[0].len - 1 - UIDW];
	switch (role) {
	case R_START:
	case R_END:
		want_nf(r, 5);
		if (lk->nolegacy && r->f[4].s[0] == '1')
			return;
		if (role == R_START) {
			lk->start = 1;
			return;
		}
		/* sorted by UID within the role: the last end wins */
		lk->endu = atoid(r->f[1].s);
		buf_reset(&lk->endpid);
		buf_add(&lk->endpid, r->f[2].s, r->f[2].len);
		buf_reset(&lk->endtid);
		buf_add(&lk->endtid, r->f[3].s, r->f[3].len);
		return;
	case R_GPU:
	case R_OTHER:
		nf = C_NF;
		break;
	case R_HOST:
		nf = 4;
		break;
	case R_RUN:
		nf = E_NF;
		break;
	default:
		tl_die("%s: line %zu: unknown record role '%c'", r->name,
		    r->lineno, role);
	}
	want_nf(r, nf);
	tl_grow((void **)&lk->rec, &lk->cap, lk->n + 1, sizeof(*lk->rec));
	x = &lk->rec[lk->n++];
	memset(x, 0, sizeof(*x));
	x->role = role;
	x->uid = atoid(r->f[1].s);
	x->f = lk->a.n;
	for (i = 1; i < nf; i++)
		arena_add(&lk->a, r->f[i].s, r->f[i].len);
	if (role == R_GPU || role == R_OTHER)
		x->hasts = tfield(lk->opt->exact, r, C_TS, &x->ts) == 0;
}

int
linkmode(const struct opts *opt, int argc, char *argv[])
{
	static char iob[3][TL_IOBUF];	/* stdio's, for g, w and the inputs */
	struct link lk;
	struct buf prev = {0}, group = {0};
	int status = 0, i;

	memset(&lk, 0, sizeof(lk));
	lk.opt = opt;
	lk.endu = -1;
	lk.nolegacy = !opt->legacy;	/* (until a control record says) */
	lk.g = io_open(opt->gpath, "w", iob[0]);
	lk.w = opt->rpath ? io_open(opt->rpath, "w", iob[2]) : NULL;
	for (i = 0; i < argc || (argc == 0 && i == 0); i++) {
		const char *path = argc ? argv[i] : "-";
		FILE *in = io_open(path, "r", iob[1]);	/* one at a time */
		struct rec_reader r;

		/* several inputs must each be sorted and follow each other */
		rec_open(&r, in, io_name(path));
		while (next(&r, &prev, 1)) {
			if (r.f[0].len == 0) {
				link_read(&lk, &r);
				continue;
			}
			if (!samegroup(&group, &r, 1 + UIDW)) {
				link_group(&lk);
				setgroup(&group, &r, 1 + UIDW);
			}
			link_read(&lk, &r);
		}
		rec_close(&r);
		if (in != stdin)
			fclose(in);
	}
	link_group(&lk);
	status |= tl_fshut(lk.g, opt->gpath);
	/*
	 * The interval records out before the launch records end: the walk
	 * then writes where they went (tl_tree_stage's x0), never at once.
	 */
	if (lk.w) {
		fflush(stdout);
		status |= tl_fshut(lk.w, opt->rpath);
	}
	if (opt->fpath) {
		FILE *ff = io_open(opt->fpath, "w", NULL);

		fact(ff, "flows_unterminated", lk.unterm);
		fact(ff, "flows_pointing_nowhere", lk.nowhere);
		fact(ff, "flows_to_host_events", lk.tohost);
		fact(ff, "gpu_events_multiply_linked", lk.multi);
		status |= tl_fshut(ff, opt->fpath);
	}
	arena_free(&lk.a);
	free(lk.rec);
	buf_free(&lk.endpid);
	buf_free(&lk.endtid);
	buf_free(&lk.b);
	buf_free(&prev);
	buf_free(&group);
	return status;
}

/* ==== intervals ==== */

/*
 * intervals.tsv from the sorted records of link and walk, by op: the
 * interval records (kind d), each completed from its event's line, op
 * kind ts dur gpu name stream cat ref launch; and each op's subtree
 * record (kind r: its busy time as dur, and where its kernels are in
 * walk.tsv, as ref and span), whose counts go to the standard output,
 * op count, and whose communication flag to -c.
 */
int
intervals(const struct opts *opt, const char *path)
{
	struct rec_reader r;
	struct xsrc ev, gv, *x;
	static char iob[2][TL_IOBUF];	/* stdio's, for in and out */
	FILE *in = io_open(path, "r", iob[0]);
	FILE *out = io_open(opt->opath, "w", iob[1]);
	FILE *cfp = opt->cpath ? io_open(opt->cpath, "w", NULL) : NULL;
	struct buf prev = {0};
	struct buf row = {0};
	int status, more, i;
	char kind;

	rec_open(&r, in, io_name(path));
	fputs("op\tkind\tts\tdur\tgpu\tname\tstream\tcat\tref\tlaunch\tspan\n",
	    out);
	/*
	 * The events only once the first record is here: split may still
	 * be writing them (tl_tree_stage with a trace), and the records
	 * come through a sort, which waits for split's end.
	 */
	memset(&ev, 0, sizeof(ev));
	memset(&gv, 0, sizeof(gv));
	if ((more = next(&r, &prev, 0)) != 0) {
		xsrc_open(&ev, opt->epath);
		if (opt->gvpath)
			xsrc_open(&gv, opt->gvpath);
	}
	for (; more; more = next(&r, &prev, 0)) {
		kind = r.nf > 2 ? r.f[2].s[0] : '?';
		if (kind == 'r') {
			/* key op r busy count comm offset span */
			want_nf(&r, 8);
			buf_add(&row, r.f[1].s, r.f[1].len);
			buf_adds(&row, "\tr\t\t");
			buf_add(&row, r.f[3].s, r.f[3].len);
			buf_adds(&row, "\t\t\t\t\t");
			buf_add(&row, r.f[6].s, r.f[6].len);
			buf_adds(&row, "\t\t");
			buf_add(&row, r.f[7].s, r.f[7].len);
			buf_emit(out, &row);
			printf("%s\t%s\n", r.f[1].s, r.f[4].s);
			if (cfp && r.f[5].s[0] == '1')
				fprintf(cfp, "%s\n", r.f[1].s);
			continue;
		}
		/* key op kind gpu offset (in -G for a GPU event) launch */
		want_nf(&r, 6);
		x = opt->gvpath ? &gv : &ev;
		fetch_line(&x->ft, atoid(r.f[4].s), atoid(r.f[3].s));
		buf_add(&row, r.f[1].s, r.f[1].len);
		buf_tab(&row);
		buf_add(&row, r.f[2].s, r.f[2].len);
		xsrc_put(&row, x, X_TS);
		xsrc_put(&row, x, X_DUR);
		buf_tab(&row);
		buf_add(&row, r.f[3].s, r.f[3].len);
		for (i = X_NAME; i < X_NF; i++)
			xsrc_put(&row, x, i);
		buf_tab(&row);
		buf_add(&row, r.f[4].s, r.f[4].len);
		buf_tab(&row);
		buf_add(&row, r.f[5].s, r.f[5].len);
		buf_tab(&row);
		buf_emit(out, &row);
	}
	status = tl_fshut(out, opt->opath);
	if (cfp)
		status |= tl_fshut(cfp, opt->cpath);
	if (ev.ft.fp)
		fetch_close(&ev.ft);
	if (gv.ft.fp)
		fetch_close(&gv.ft);
	buf_free(&row);
	buf_free(&prev);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return status;
}
