/* See LICENSE file for copyright and license details. */
/*
 * tl-forest: the host-op trees of a tree folder's ops.tsv, one tree at
 * a time, and TraceLens's two walks over them that choose the ops of
 * the perf-model sheets.  Three modes:
 *   build    ops.tsv (UID order) -> the forest stream: one record per
 *            host op, keyed by its tree's root and its UID, with the
 *            flags the walks read (fwd target, communication below,
 *            perf model)
 *   pairs    the forest stream, sorted -> x TAB X for each fwd target
 *            x and each modelled fwd target X at or above it
 *            (get_subtree_bwd_events)
 *   collect  the forest stream, sorted -> UID type fwd: the ops of
 *            unified_perf_summary (collect_unified_perf_events)
 * build keeps one record; pairs and collect one tree.  tl-forest(1)
 * gives the formats.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

static const char *fwdtargets;	/* -a: build: UIDs some fwd link points to */
static const char *comm;	/* -c: build: UIDs with communication below */
static const char *modelled;	/* -k: build: UIDs with a perf model */
static const char *fwdkeys;	/* -w: build: out, fwd TAB KEY */
static const char *eligible;	/* -s: collect: keys whose fwd op is eligible */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-forest -m build [-a fwdtargets] [-c comm] [-k modelled]"
	    " [-w fwdkeys] [ops.tsv]\n"
	    "       tl-forest -m pairs [forest]\n"
	    "       tl-forest -m collect [-s eligible] [forest]\n");
	exit(status);
}

/*
 * The forest stream: every host op of ops.tsv as KEY UID cat name
 * parent ngpu fwd cpu_root own nc mod, KEY the tree's root and the
 * op's UID in hex (so that sort, comparing bytes, brings each tree
 * together in UID order); name only when ngpu > 0.  own, nc and mod
 * are 1 when the UID is in the -a, -c and -k lists: some op's fwd link
 * points to it, a communication kernel is below it, it has a perf
 * model.
 */
enum { FKEY, FUID, FCAT, FNAME, FPAR, FNGPU, FFWD, FCR, FOWN, FNC, FMOD, FNF };

/* A UID list (one decimal UID per line, ascending), read as a merge. */
struct ulist {
	struct uside s;	/* the list; s.uid is -1 at its end */
	int open;	/* a list was given */
};

static void
ulist_open(struct ulist *l, const char *path)
{
	l->open = path != NULL;
	if (l->open)
		uside_open(&l->s, path, 0, 0, NULL);	/* UID: the first field */
}

static void
ulist_close(struct ulist *l)
{
	if (l->open)
		uside_free(&l->s);
}

/* 1 when uid is in the list; calls come in ascending uid. */
static int
ulist_has(struct ulist *l, long long uid)
{
	return l->open && uside_seek(&l->s, uid);
}

/* ops.tsv -> the forest stream; with -w, fwd TAB KEY of the linked ops. */
static int
build(const char *path)
{
	static char iob[TL_IOBUF];	/* stdio's, for ops.tsv */
	struct rec_reader r;
	struct ulist own, nc, mod;
	struct buf b = {0};
	FILE *fp = io_open(path, "r", iob), *wfp = NULL;
	int c[8], st = TL_OK;
	long long uid, prev = -1;
	size_t i, flen;
	static const char *const names[] = {
		"UID", "cat", "name", "parent", "ngpu", "fwd", "cpu_root", "root"
	};

	rec_open(&r, fp, path);
	rec_read_header(&r);
	for (i = 0; i < LEN(names); i++)
		c[i] = rec_need(&r, names[i]);
	if (fwdkeys)
		wfp = io_open(fwdkeys, "w", NULL);
	ulist_open(&own, fwdtargets);
	ulist_open(&nc, comm);
	ulist_open(&mod, modelled);
	while (rec_read(&r)) {
		uid = atoid(rec_get(&r, c[0], NULL));
		if (uid <= prev)
			tl_die("%s: line %zu: out of order (UID %lld after %lld)",
			    path, r.lineno, uid, prev);
		prev = uid;
		buf_hex(&b, (unsigned long long)atoid(rec_get(&r, c[7], NULL)),
		    UIDW);
		buf_hex(&b, (unsigned long long)uid, UIDW);
		for (i = 0; i < 7; i++) {
			buf_tab(&b);
			/* (no pass reads the name of an op without GPU work) */
			if (i != 2 || atoid(rec_get(&r, c[4], NULL)) > 0)
				buf_field(&b, &r, c[i]);
		}
		buf_adds(&b, ulist_has(&own, uid) ? "\t1" : "\t0");
		buf_adds(&b, ulist_has(&nc, uid) ? "\t1" : "\t0");
		buf_adds(&b, ulist_has(&mod, uid) ? "\t1" : "\t0");
		if (wfp != NULL && rec_get(&r, c[5], &flen)[0] != '\0') {
			/* -w: fwd TAB KEY, the key being this record's first 16 bytes */
			fwrite(rec_get(&r, c[5], NULL), 1, flen, wfp);
			putc('\t', wfp);
			fwrite(b.s, 1, 2 * UIDW, wfp);
			putc('\n', wfp);
		}
		buf_emit(stdout, &b);
	}
	if (wfp != NULL)
		st = tl_fshut(wfp, fwdkeys);
	ulist_close(&own);
	ulist_close(&nc);
	ulist_close(&mod);
	buf_free(&b);
	rec_close(&r);
	fclose(fp);
	return st;
}

/* What an op of the tree is, by its cat. */
enum { FK_CPU, FK_RUNTIME, FK_DRIVER, FK_OTHER };

/* The FK_* of the cat s[0..len). */
static int
fkind(const char *s, size_t len)
{
	return fld_eq(s, len, "cpu_op") ? FK_CPU :
	    fld_eq(s, len, "cuda_runtime") ? FK_RUNTIME :
	    fld_eq(s, len, "cuda_driver") ? FK_DRIVER : FK_OTHER;
}

/* One op of the tree in memory. */
struct fop {
	long long uid;		/* its UID */
	long long par;		/* its parent's UID, -1 for none */
	int kind;		/* FK_*, from its cat */
	size_t name, fwd;	/* fields, as indexes into the arena */
	long long ngpu;		/* GPU events below it */
	int cr, own, nc, mod;	/* cpu_root is 1; the three flags */
	int gpu;		/* a cpu_op with GPU work: the walk sees it */
	int fok;		/* its key is in the -s list */
	int rk;			/* a runtime with GPU work hangs under it */
	int sd;			/* a modelled cpu_op with GPU work is below */
	long sc;		/* fcount() memo (0, 1 or 2), -1 unset */
	size_t kid0, nkid;	/* its children that the walk sees, in kids[] */
};

/* A tree of the forest stream, read whole. */
struct forest {
	struct rec_reader r;	/* the stream */
	struct buf key;		/* the key of the record read ahead */
	struct buf tree;	/* the tree's 8-byte root part */
	int ahead;		/* r holds a record of the next tree */
	struct fop *op;		/* the tree's ops, UID order */
	size_t n, cap;		/* ops used, allocated */
	struct arena a;		/* their fields */
	size_t *kids;		/* child lists, by parent (each in UID order) */
	size_t kcap;		/* kids allocated */
	size_t *stk;		/* fwalk's stack of op indexes (no recursion:
				   a tree may be as deep as the trace is long) */
	size_t scap;		/* stk allocated */
	size_t *cstk;		/* fcount's, which runs inside fwalk */
	size_t ccap;		/* cstk allocated */
	FILE *sfp;		/* -s: keys of ops whose fwd op is eligible */
	struct rec_reader s;	/* its reader */
	int shave;		/* s holds a line of the -s list */
	int seof;		/* the -s list is at its end */
	char iob[TL_IOBUF];	/* stdio's, for the stream */
};

static long long
num_or(const char *s, long long dflt)
{
	return *s ? atoid(s) : dflt;
}

/* Index of uid in the tree, or -1. */
static long
fidx(const struct forest *f, long long uid)
{
	size_t lo = 0, hi = f->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->op[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->op[lo].uid == uid ? (long)lo : -1;
}

static const char *
fstr(const struct forest *f, size_t i)
{
	return arena_get(&f->a, i);
}

/* key is in the -s list (calls come in ascending key order). */
static int
fok(struct forest *f, const char *key)
{
	int c;

	if (f->sfp == NULL)
		return 0;
	for (;;) {
		if (f->seof)
			return 0;
		if (f->shave && (c = strcmp(f->s.f[0].s, key)) >= 0)
			return c == 0;
		if (!rec_read(&f->s)) {
			f->seof = 1;
			return 0;
		}
		f->shave = 1;
	}
}

/* Read the next tree; 0 at the end of the stream. */
static int
ftree(struct forest *f, int walk)
{
	struct rec_reader *r = &f->r;
	struct fop *o;
	size_t i, j;
	long p;
	int cmp;

	f->n = 0;
	arena_reset(&f->a);
	if (!f->ahead && !rec_read(r))
		return 0;
	buf_reset(&f->tree);
	do {
		want_nf(r, FNF);
		if (r->f[FKEY].len != 2 * UIDW)
			tl_die("%s: line %zu: bad key", r->name, r->lineno);
		if (f->tree.len == 0)
			buf_add(&f->tree, r->f[FKEY].s, UIDW);
		else if (memcmp(r->f[FKEY].s, f->tree.s, UIDW) != 0)
			break;
		cmp = f->key.s ? strcmp(r->f[FKEY].s, f->key.s) : 1;
		if (cmp <= 0)
			tl_die("%s: line %zu: out of order (not sorted by its "
			    "first field)", r->name, r->lineno);
		buf_reset(&f->key);
		buf_add(&f->key, r->f[FKEY].s, r->f[FKEY].len);
		tl_grow((void **)&f->op, &f->cap, f->n + 1, sizeof(*f->op));
		o = &f->op[f->n++];
		memset(o, 0, sizeof(*o));
		o->uid = atoid(r->f[FUID].s);
		o->par = num_or(r->f[FPAR].s, -1);
		o->kind = fkind(r->f[FCAT].s, r->f[FCAT].len);
		o->name = arena_add(&f->a, r->f[FNAME].s, r->f[FNAME].len);
		o->fwd = arena_add(&f->a, r->f[FFWD].s, r->f[FFWD].len);
		o->ngpu = num_or(r->f[FNGPU].s, 0);
		o->cr = num_or(r->f[FCR].s, 0) == 1;
		o->own = r->f[FOWN].s[0] == '1';
		o->nc = r->f[FNC].s[0] == '1';
		o->mod = r->f[FMOD].s[0] == '1';
		o->sc = -1;
		if (walk && r->f[FFWD].len > 0)
			o->fok = fok(f, r->f[FKEY].s);
	} while ((f->ahead = rec_read(r)) != 0);
	if (!walk)
		return 1;
	/* the walk's view: cpu_ops with GPU work, and their children */
	for (i = 0; i < f->n; i++) {
		o = &f->op[i];
		if (o->ngpu <= 0)
			continue;
		if (o->kind == FK_RUNTIME) {
			if ((p = fidx(f, o->par)) >= 0)
				f->op[p].rk = 1;
		} else if (o->kind == FK_CPU)
			o->gpu = 1;
	}
	/* children lists: counted per parent, then filled in UID order */
	tl_grow((void **)&f->kids, &f->kcap, f->n + 1, sizeof(*f->kids));
	for (i = 0; i < f->n; i++)
		if (f->op[i].gpu && (p = fidx(f, f->op[i].par)) >= 0)
			f->op[p].nkid++;
	for (i = 0, j = 0; i < f->n; i++) {
		f->op[i].kid0 = j;
		j += f->op[i].nkid;
		f->op[i].nkid = 0;
	}
	for (i = 0; i < f->n; i++)
		if (f->op[i].gpu && (p = fidx(f, f->op[i].par)) >= 0)
			f->kids[f->op[p].kid0 + f->op[p].nkid++] = i;
	/* sd: marked from each modelled op up, until a marked ancestor */
	for (i = 0; i < f->n; i++) {
		if (!f->op[i].gpu || !f->op[i].mod)
			continue;
		for (p = fidx(f, f->op[i].par); p >= 0 && !f->op[p].sd;
		    p = f->op[p].gpu ? fidx(f, f->op[p].par) : -1)
			f->op[p].sd = 1;
	}
	return 1;
}

static void
forest_open(struct forest *f, const char *path, const char *keys, FILE **fp)
{
	memset(f, 0, sizeof(*f));
	*fp = io_open(path, "r", f->iob);
	rec_open(&f->r, *fp, path);
	if (keys) {
		f->sfp = io_open(keys, "r", NULL);
		rec_open(&f->s, f->sfp, keys);
	}
}

static void
forest_close(struct forest *f, FILE *fp)
{
	if (f->sfp) {
		rec_close(&f->s);
		fclose(f->sfp);
	}
	rec_close(&f->r);
	fclose(fp);
	buf_free(&f->key);
	buf_free(&f->tree);
	buf_free(&f->a.b);
	free(f->a.off);
	free(f->op);
	free(f->kids);
	free(f->stk);
	free(f->cstk);
}

/*
 * pairs: x TAB X for each fwd target x and each X at or above x (host
 * parents, runtimes and drivers left out) that has a model and is a
 * fwd target itself (TraceLens's get_subtree_bwd_events).
 */
static int
pairs(const char *path)
{
	struct forest f;
	struct buf b = {0};
	FILE *fp;
	size_t i;
	long a;

	forest_open(&f, path, NULL, &fp);
	while (ftree(&f, 0)) {
		for (i = 0; i < f.n; i++) {
			if (!f.op[i].own)
				continue;
			for (a = (long)i; a >= 0;) {
				if (f.op[a].mod && f.op[a].own) {
					buf_num(&b, f.op[i].uid);
					buf_tab(&b);
					buf_num(&b, f.op[a].uid);
					buf_emit(stdout, &b);
				}
				if (f.op[a].kind == FK_RUNTIME ||
				    f.op[a].kind == FK_DRIVER)
					break;
				a = fidx(&f, f.op[a].par);
			}
		}
	}
	buf_free(&b);
	forest_close(&f, fp);
	return TL_OK;
}

/* The walk's state: the tree, and the output record. */
struct walk {
	struct forest *f;	/* the tree */
	struct buf b;		/* the record being written */
};

/* Push the children of w that the walk sees on *stk, last first. */
static void
fpushkids(struct forest *f, size_t w, size_t **stk, size_t *cap, size_t *sp)
{
	size_t i;

	tl_grow((void **)stk, cap, *sp + f->op[w].nkid + 1, sizeof(**stk));
	for (i = f->op[w].nkid; i > 0; i--)
		(*stk)[(*sp)++] = f->kids[f->op[w].kid0 + i - 1];
}

/*
 * Descendants of w that the walk sees, named main ("" for all), up to 2:
 * fsole asks only whether there is one.
 */
static long
fcount(struct forest *f, size_t w, const char *main)
{
	long n = 0;
	size_t v, sp = 0;

	fpushkids(f, w, &f->cstk, &f->ccap, &sp);
	while (sp > 0 && n < 2) {
		v = f->cstk[--sp];
		if (*main == '\0' || strcmp(fstr(f, f->op[v].name), main) == 0)
			n++;
		fpushkids(f, v, &f->cstk, &f->ccap, &sp);
	}
	return n;
}

/*
 * The fwd op of u when u is the sole op below its fwd-linked ancestor
 * (up to 5 levels) that carries that ancestor's name, and the
 * ancestor's fwd op is eligible (-s); else NULL.
 */
static const char *
fsole(struct forest *f, size_t u)
{
	long p = f->op[u].gpu ? fidx(f, f->op[u].par) : -1, w = -1;
	const char *nm, *main;
	int i;

	for (i = 0; i < 5 && p >= 0 && f->op[p].gpu; i++) {
		if (*fstr(f, f->op[p].fwd) != '\0') {
			w = p;
			break;
		}
		p = fidx(f, f->op[p].par);
	}
	if (w < 0 || !f->op[w].fok)
		return NULL;
	nm = fstr(f, f->op[w].name);
	main = strstr(nm, ": ");
	main = main ? main + 2 : "";
	if (f->op[w].sc < 0)
		f->op[w].sc = fcount(f, (size_t)w, main);
	return f->op[w].sc == 1 ? fstr(f, f->op[w].fwd) : NULL;
}

static void
fput(struct walk *wk, size_t u, const char *type, const char *fwd)
{
	buf_num(&wk->b, wk->f->op[u].uid);
	buf_tab(&wk->b);
	buf_adds(&wk->b, type);
	buf_tab(&wk->b);
	buf_adds(&wk->b, fwd);
	buf_emit(stdout, &wk->b);
}

/*
 * TraceLens's collect_unified_perf_events from u down, depth first with
 * the children in UID order, as its recursion; the stack is f->stk
 * (fsole's fcount has its own).
 */
static void
fwalk(struct walk *wk, size_t root)
{
	struct forest *f = wk->f;
	struct fop *o;
	const char *fw;
	size_t i, u, n, sp = 0;

	tl_grow((void **)&f->stk, &f->scap, 1, sizeof(*f->stk));
	f->stk[sp++] = root;
	while (sp > 0) {
		u = f->stk[--sp];
		o = &f->op[u];
		if (!o->gpu)
			continue;
		if (o->mod) {
			fput(wk, u, "P", "");
			continue;
		}
		if ((fw = fsole(f, u)) != NULL && !o->sd) {
			fput(wk, u, "S", fw);
			continue;
		}
		if (!o->sd && o->rk) {
			/* only the modelled children; none: u itself */
			for (i = 0, n = 0; i < o->nkid; i++)
				n += f->op[f->kids[o->kid0 + i]].mod;
			if (n == 0 && !o->nc)
				fput(wk, u, "O", "");
			tl_grow((void **)&f->stk, &f->scap, sp + n + 1,
			    sizeof(*f->stk));
			for (i = o->nkid; i > 0; i--)
				if (f->op[f->kids[o->kid0 + i - 1]].mod)
					f->stk[sp++] = f->kids[o->kid0 + i - 1];
			continue;
		}
		fpushkids(f, u, &f->stk, &f->scap, &sp);
	}
}

/* collect: the ops of unified_perf_summary, as UID TAB type TAB fwd. */
static int
collect(const char *path)
{
	struct forest f;
	struct walk wk = {0};
	FILE *fp;
	size_t i;

	forest_open(&f, path, eligible, &fp);
	wk.f = &f;
	while (ftree(&f, 1))
		for (i = 0; i < f.n; i++)
			if (f.op[i].gpu && f.op[i].cr)
				fwalk(&wk, i);
	buf_free(&wk.b);
	forest_close(&f, fp);
	return TL_OK;
}

int
main(int argc, char *argv[])
{
	const char *mode = NULL, *in;
	int ch, st;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "a:c:k:m:s:w:")) != -1) {
		switch (ch) {
		case 'a': fwdtargets = optarg; break;
		case 'c': comm = optarg; break;
		case 'k': modelled = optarg; break;
		case 'm': mode = optarg; break;
		case 's': eligible = optarg; break;
		case 'w': fwdkeys = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (mode == NULL || argc > 1)
		usage(TL_EUSAGE);
	in = argc ? argv[0] : "-";
	if (strcmp(mode, "build") == 0 && !eligible)
		st = build(in);
	else if (strcmp(mode, "pairs") == 0 && !fwdtargets && !comm &&
	    !modelled && !fwdkeys && !eligible)
		st = pairs(in);
	else if (strcmp(mode, "collect") == 0 && !fwdtargets && !comm &&
	    !modelled && !fwdkeys)
		st = collect(in);
	else
		usage(TL_EUSAGE);
	return st | tl_fshut(stdout, "<stdout>");
}
