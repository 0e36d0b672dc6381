/* See LICENSE file for copyright and license details. */
/*
 * tl-lca: read the merged tree that tl-diff writes and answer from it:
 * TraceLens's diff_stats rows (the lowest common ancestors of what
 * differs, with the GPU events under them), the merged tree as text,
 * the UID map between the traces, or the per-LCA totals a perf report
 * adds with a comparison trace.  One top-level merged subtree in memory.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

/* Options. */
static int mode;		/* -m: M_STATS, M_TREE, M_MAP, M_TOTALS, M_SUMMARY */
static int pruneflag;		/* -p: tree without roots off the GPU path */
static const char *treepath;	/* -t: where stats mode writes the tree too */
static const char *namespath;	/* -l: where it writes the LCAs' cpu_op names */
static const char *keyedpath;	/* -k: where it writes the rows, summary keys first */
static const char *renamepath;	/* -r: the renames -m summary appends */
static int sumkeyflag;		/* -s: -m summary's rows keyed by their sum */
static int qtrace;		/* -u: trace of the queried UID (1 or 2), 0 for none */
static long long quid;		/* -u: the queried UID */

enum { M_STATS, M_TREE, M_MAP, M_TOTALS, M_SUMMARY };

/* Per-side fields of a merged record, in input order after the prefix. */
enum { S_UID, S_CAT, S_NAME, S_GPU, S_NGPU, S_TS, S_DUR, S_RUNTIME, S_CPUOP,
	S_CPUOPNAME, S_DIMS, S_TYPES, S_STRIDES, S_CONCRETE, NS };
static const char *const sidecols[NS] = {
	"uid", "cat", "name", "gpu", "ngpu", "ts", "dur", "runtime", "cpu_op",
	"cpu_op_name", "dims", "types", "strides", "concrete"
};
enum { P_MID, P_PARENT, P_ROOT, P_TYPE, P_KEY1, P_KEY2, NP };
static const char *const precols[NP] = {
	"mid", "parent", "root", "type", "key1", "key2"
};

static const char *const statcols[] = {
	"name", "cpu_op_name", "cpu_op_uid", "source", "Input Dims",
	"Input Strides", "Input type", "Concrete Inputs", "kernel_time",
	"busy_time", "lowest_common_ancestor_name", "lowest_common_ancestor_id",
	"gpu_op_uid", "nn_module_stack", "nn_module_parent"
};
static const char *const totcols[] = {
	"gpu_op_uid", "lowest_common_ancestor_id", "lowest_common_ancestor_name",
	"lca_total_kernel_time_trace1_us", "lca_total_kernel_time_trace2_us",
	"lca_has_trace2"
};

/* diff_stats_unique_args_summary: the grouping columns of statcols, then the aggregates. */
static const char *const groupcols[] = {
	"name", "cpu_op_name", "cpu_op_uid", "source", "Input Dims",
	"Input Strides", "Input type", "Concrete Inputs", "busy_time",
	"lowest_common_ancestor_name", "nn_module_stack", "nn_module_parent"
};
enum { NGROUP = LEN(groupcols) };

/*
 * -k: the statcols in the order -m summary -c sorts and groups them:
 * its grouping columns, cpu_op_name first, then the others; after the
 * grouping columns, a column "row", the row's number.
 */
static const int keyedord[] = { 1, 0, 2, 3, 4, 5, 6, 7, 9, 10, 13, 14, 8, 11, 12 };
_Static_assert(LEN(keyedord) == LEN(statcols), "keyedord[] and statcols[] disagree");

/* One side of a merged node. */
struct half {
	int present;		/* the side has an event */
	long long uid;		/* its UID */
	char *f[NS];		/* fields (unescaped), in one block, f[0]'s,
				 * owned; NULL when absent */
	int gpuev;		/* kernel, gpu_memcpy or gpu_memset */
	int kernel;		/* kernel or gpu_memcpy (TraceLens's _is_kernel) */
	int gpupath;		/* on a GPU path */
	long long ngpu;		/* linked GPU events below (host events) */
	long long runtime;	/* runtime UID (GPU events) */
	double ts, dur;		/* as Python floats (GPU events) */
	int sint;		/* ts is a JSON integer (a Python int) */
	int eint;		/* so are ts and dur: ts + dur is an int */
	int side;		/* 0 or 1, for a linked event off the GPU path */
};

/* A merged node of the current root group. */
struct mnode {
	long long mid;		/* merged id */
	int par;		/* index of the parent in the group, -1 for the root */
	int type;		/* 0 combined, 1 trace1, 2 trace2 */
	char *key[2];		/* the pair TraceLens maps, owned ("" for None) */
	struct half h[2];	/* the two sides */
	int *kids;		/* children, owned */
	size_t nkids;		/* children used */
	size_t kcap;		/* children allocated */
	struct half *extra;	/* linked events off the GPU path (no mid), owned */
	size_t nextra;		/* extras used */
	size_t xcap;		/* extras allocated */
};

/* The reader and the current group. */
struct input {
	struct rec_reader r;	/* the reader */
	int col[NP + 2 * NS];	/* column indices */
	int pending;		/* r holds the first record of the next group */
	int eof;		/* no more records */
	long long nextmid;	/* merged id the next record must have */
	long long root;		/* root position of the current group */
	struct mnode *n;	/* nodes, owned */
	size_t nn;		/* nodes used */
	size_t cap;		/* nodes allocated */
};

/* A diff_stats row before it is written. */
struct row {
	const struct half *g;	/* the GPU event, not owned */
	int src;		/* 1 or 2 */
	double busy;		/* busy time of the LCA side, rounded */
	int whole;		/* busy is a Python int (merged ends were) */
	char *lcaname;		/* owned; NULL for None */
	long long lcaid;	/* -1 for None */
};

/* A list of rows. */
struct rows {
	struct row *v;		/* rows, owned */
	size_t n;		/* used */
	size_t cap;		/* allocated */
};

/* A list of GPU events. */
struct glist {
	const struct half **v;	/* events, not owned */
	size_t n;		/* used */
	size_t cap;		/* allocated */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-lca [-m stats [-k KEYED] [-l NAMES] [-t TREE [-p]] | -m tree [-p] |\n"
	    "              -m map |\n"
	    "              -m totals | -u TRACE:UID] [MERGED]\n"
	    "       tl-lca -m summary [-s] [-c [-r RENAMES]] [STATS]\n");
	exit(status);
}

static void
in_open(struct input *in, FILE *fp, const char *name)
{
	char c[32];
	size_t i;
	int s;

	memset(in, 0, sizeof(*in));
	rec_open(&in->r, fp, name);
	rec_read_header(&in->r);
	for (i = 0; i < NP; i++)
		in->col[i] = rec_need(&in->r, precols[i]);
	for (s = 0; s < 2; s++)
		for (i = 0; i < NS; i++) {
			snprintf(c, sizeof(c), "%s%d", sidecols[i], s + 1);
			in->col[NP + s * NS + i] = rec_need(&in->r, c);
		}
}

static void
in_freegroup(struct input *in)
{
	size_t i, i2;
	int s;

	for (i = 0; i < in->nn; i++) {
		struct mnode *m = &in->n[i];

		for (s = 0; s < 2; s++) {
			free(m->key[s]);
			free(m->h[s].f[0]);
		}
		free(m->kids);
		for (i2 = 0; i2 < m->nextra; i2++)
			free(m->extra[i2].f[0]);
		free(m->extra);
	}
	in->nn = 0;
}

static char *
field(struct rec_reader *r, int col, size_t *lenp)
{
	size_t len;
	char *f = (char *)rec_get(r, col, &len);

	len = rec_unescape(f, len);
	if (lenp != NULL)
		*lenp = len;
	return tl_strndup(f, len);
}

static long long
intfield(struct rec_reader *r, const char *s, const char *what)
{
	int64_t v;

	if (num_int64(s, strlen(s), &v) != 0)
		tl_die("%s: line %zu: bad %s '%s'", r->name, r->lineno, what, s);
	return v;
}

/* Side s of the current record into h. */
static void
readhalf(struct input *in, int s, struct half *h)
{
	struct rec_reader *r = &in->r;
	int64_t iv;

	rec_strs(r, &in->col[NP + s * NS], NS, h->f);
	h->present = h->f[S_UID][0] != '\0';
	if (!h->present)
		return;
	h->uid = intfield(r, h->f[S_UID], "uid");
	h->gpupath = strcmp(h->f[S_GPU], "1") == 0;
	h->gpuev = strcmp(h->f[S_CAT], "kernel") == 0 ||
	    strcmp(h->f[S_CAT], "gpu_memcpy") == 0 ||
	    strcmp(h->f[S_CAT], "gpu_memset") == 0;
	h->kernel = strcmp(h->f[S_CAT], "kernel") == 0 ||
	    strcmp(h->f[S_CAT], "gpu_memcpy") == 0;
	if (!h->gpuev && h->f[S_RUNTIME][0] == '\0') {
		h->ngpu = h->f[S_NGPU][0] ? intfield(r, h->f[S_NGPU], "ngpu") : 0;
		return;
	}
	/* a GPU event, or a linked event off the GPU path */
	if (h->f[S_RUNTIME][0])
		h->runtime = intfield(r, h->f[S_RUNTIME], "runtime");
	if (num_double(h->f[S_TS], strlen(h->f[S_TS]), &h->ts) != 0)
		tl_die("%s: line %zu: bad ts '%s'", r->name, r->lineno, h->f[S_TS]);
	h->sint = num_int64(h->f[S_TS], strlen(h->f[S_TS]), &iv) == 0;
	h->eint = h->sint && (h->f[S_DUR][0] == '\0' ||
	    num_int64(h->f[S_DUR], strlen(h->f[S_DUR]), &iv) == 0);
	h->dur = 0;
	if (h->f[S_DUR][0] && num_double(h->f[S_DUR], strlen(h->f[S_DUR]), &h->dur) != 0)
		tl_die("%s: line %zu: bad dur '%s'", r->name, r->lineno, h->f[S_DUR]);
}

/* A linked event off the GPU path: kept with its runtime's merged node. */
static void
takeextra(struct input *in)
{
	struct rec_reader *r = &in->r;
	struct mnode *p;
	char *t;
	long long par;
	int s;

	t = field(r, in->col[P_PARENT], NULL);
	par = intfield(r, t, "parent");
	free(t);
	if (in->nn == 0 || par < in->n[0].mid || par >= in->n[0].mid + (long long)in->nn)
		tl_die("%s: line %zu: parent %lld of a linked event is not a node of root %lld",
		    r->name, r->lineno, par, in->root);
	p = &in->n[par - in->n[0].mid];
	t = field(r, in->col[P_TYPE], NULL);
	s = strcmp(t, "trace2") == 0;
	if (!s && strcmp(t, "trace1") != 0)
		tl_die("%s: line %zu: bad type '%s'", r->name, r->lineno, t);
	free(t);
	tl_grow((void **)&p->extra, &p->xcap, p->nextra + 1, sizeof(*p->extra));
	memset(&p->extra[p->nextra], 0, sizeof(*p->extra));
	readhalf(in, s, &p->extra[p->nextra]);
	p->extra[p->nextra].side = s;
	if (!p->extra[p->nextra].present)
		tl_die("%s: line %zu: a linked event with no trace%d side", r->name,
		    r->lineno, s + 1);
	p->nextra++;
}

/* Copy the current record into the group. */
static void
take(struct input *in)
{
	struct rec_reader *r = &in->r;
	struct mnode *m;
	char *t;
	int s;
	long long par;

	t = field(r, in->col[P_MID], NULL);
	if (*t == '\0') {
		free(t);
		takeextra(in);
		return;
	}
	tl_grow((void **)&in->n, &in->cap, in->nn + 1, sizeof(*in->n));
	m = &in->n[in->nn++];
	memset(m, 0, sizeof(*m));
	m->mid = intfield(r, t, "mid");
	free(t);
	if (m->mid != in->nextmid)
		tl_die("%s: line %zu: merged id %lld where %lld was due: input not in tl-diff's order",
		    r->name, r->lineno, m->mid, in->nextmid);
	in->nextmid++;
	t = field(r, in->col[P_TYPE], NULL);
	if (strcmp(t, "combined") == 0)
		m->type = 0;
	else if (strcmp(t, "trace1") == 0)
		m->type = 1;
	else if (strcmp(t, "trace2") == 0)
		m->type = 2;
	else
		tl_die("%s: line %zu: bad type '%s'", r->name, r->lineno, t);
	free(t);
	m->key[0] = field(r, in->col[P_KEY1], NULL);
	m->key[1] = field(r, in->col[P_KEY2], NULL);
	t = field(r, in->col[P_PARENT], NULL);
	m->par = -1;
	if (*t != '\0') {
		par = intfield(r, t, "parent");
		if (in->nn == 1 || par < in->n[0].mid || par >= m->mid)
			tl_die("%s: line %zu: parent %lld is not an earlier node of root %lld",
			    r->name, r->lineno, par, in->root);
		m->par = (int)(par - in->n[0].mid);
		tl_grow((void **)&in->n[m->par].kids, &in->n[m->par].kcap,
		    in->n[m->par].nkids + 1, sizeof(int));
		in->n[m->par].kids[in->n[m->par].nkids++] = (int)(in->nn - 1);
	} else if (in->nn != 1) {
		tl_die("%s: line %zu: a second parentless node in root %lld",
		    r->name, r->lineno, in->root);
	}
	free(t);
	for (s = 0; s < 2; s++) {
		readhalf(in, s, &m->h[s]);
		if (m->h[s].present != (m->type == 0 || m->type == s + 1))
			tl_die("%s: line %zu: type and sides disagree", r->name, r->lineno);
	}
}

/* Read the next root group; 0 at the end. */
static int
in_next(struct input *in)
{
	struct rec_reader *r = &in->r;
	const char *f;
	size_t len;
	long long root;

	in_freegroup(in);
	if (in->eof)
		return 0;
	if (!in->pending && !rec_read(r)) {
		in->eof = 1;
		return 0;
	}
	in->pending = 0;
	rec_check_width(r);
	f = rec_get(r, in->col[P_ROOT], &len);
	in->root = intfield(r, f, "root");
	take(in);
	while (rec_read(r)) {
		rec_check_width(r);
		f = rec_get(r, in->col[P_ROOT], &len);
		root = intfield(r, f, "root");
		if (root != in->root) {
			if (root != in->root + 1)
				tl_die("%s: line %zu: root %lld after root %lld", r->name,
				    r->lineno, root, in->root);
			in->pending = 1;
			return 1;
		}
		take(in);
	}
	in->eof = 1;
	return 1;
}

/* TraceLens's _get_op_name: the name, or the UID when it is empty. */
static const char *
opname(const struct half *h)
{
	return h->f[S_NAME][0] ? h->f[S_NAME] : h->f[S_UID];
}

/* ---- the merged tree as text ---- */

static void
putline(FILE *fp, const struct mnode *m, const char *prefix, int last)
{
	fputs(prefix, fp);
	fputs(last ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 " : "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 ", fp);
	if (m->type == 0) {
		if (strcmp(opname(&m->h[0]), opname(&m->h[1])) == 0)
			fputs(opname(&m->h[0]), fp);
		else
			fprintf(fp, "combined: %s | %s", opname(&m->h[0]), opname(&m->h[1]));
	} else if (m->type == 1) {
		fprintf(fp, ">> trace1: %s", opname(&m->h[0]));
	} else {
		fprintf(fp, "<< trace2: %s", opname(&m->h[1]));
	}
	putc('\n', fp);
}

/* A node still to be written by text(): its index, depth and last flag. */
struct tnode {
	int k;		/* node index */
	int last;	/* the last child of its parent */
	size_t depth;	/* depth below the root written */
};

/*
 * The merged tree under node k as text, in pre-order: a stack, not
 * recursion, as a call tree can be as deep as its trace says.  plen[d]
 * is the length of the prefix of the lines at depth d.
 */
static void
text(FILE *fp, const struct input *in, int k, struct buf *prefix, int last)
{
	struct tnode *st = NULL, *kids = NULL;
	size_t n = 0, cap = 0, kcap = 0, *plen = NULL, pcap = 0, nk, i, d;
	int t;

	tl_grow((void **)&st, &cap, 1, sizeof(*st));
	st[n++] = (struct tnode){ k, last, 0 };
	tl_grow((void **)&plen, &pcap, 1, sizeof(*plen));
	plen[0] = prefix->len;
	while (n > 0) {
		struct tnode x = st[--n];
		const struct mnode *m = &in->n[x.k];

		d = x.depth;
		prefix->len = plen[d];
		if (prefix->s)
			prefix->s[plen[d]] = '\0';
		putline(fp, m, prefix->s ? prefix->s : "", x.last);
		buf_adds(prefix, x.last ? "    " : "\xe2\x94\x82   ");
		tl_grow((void **)&plen, &pcap, d + 2, sizeof(*plen));
		plen[d + 1] = prefix->len;
		/* children: combined first, then trace1, then trace2 */
		tl_grow((void **)&kids, &kcap, m->nkids, sizeof(*kids));
		nk = 0;
		for (t = 0; t < 3; t++)
			for (i = 0; i < m->nkids; i++)
				if (in->n[m->kids[i]].type == t) {
					kids[nk] = (struct tnode){ m->kids[i], 0, d + 1 };
					nk++;
					kids[nk - 1].last = nk == m->nkids;
				}
		tl_grow((void **)&st, &cap, n + nk, sizeof(*st));
		while (nk > 0)
			st[n++] = kids[--nk];
	}
	prefix->len = plen[0];
	prefix->s[plen[0]] = '\0';
	free(st);
	free(kids);
	free(plen);
}

/* The text of the top-level tree just read (-m tree, -t). */
static void
treegroup(FILE *fp, const struct input *in, struct buf *prefix)
{
	/* TraceLens marks the last root as last even when it prunes it */
	int last = !in->pending;

	if (pruneflag && !in->n[0].h[0].gpupath && !in->n[0].h[1].gpupath)
		return;
	buf_reset(prefix);
	buf_adds(prefix, "");
	text(fp, in, 0, prefix, last);
}

/* ---- diff_stats ---- */

static void
gpush(struct glist *l, const struct half *h)
{
	tl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = h;
}

/*
 * Append the GPU events of side s below node k, in pre-order: k's
 * extras, then for each child its own event and what is below it.  A
 * stack of nodes, not recursion.
 */
static void
below(const struct input *in, int k, int s, struct glist *l)
{
	int *st = NULL;
	size_t n = 0, cap = 0, i;

	tl_grow((void **)&st, &cap, 1, sizeof(*st));
	st[n++] = k;
	while (n > 0) {
		int x = st[--n];
		const struct mnode *m = &in->n[x];

		if (x != k && m->h[s].present && m->h[s].gpuev)
			gpush(l, &m->h[s]);
		for (i = 0; i < m->nextra; i++)
			if (m->extra[i].side == s)
				gpush(l, &m->extra[i]);
		tl_grow((void **)&st, &cap, n + m->nkids, sizeof(*st));
		for (i = m->nkids; i > 0; i--)
			st[n++] = m->kids[i - 1];
	}
	free(st);
}

static int
cmpgev(const void *a, const void *b)
{
	const struct half *x = *(const struct half *const *)a;
	const struct half *y = *(const struct half *const *)b;

	if (x->runtime != y->runtime)
		return x->runtime < y->runtime ? -1 : 1;
	return (x->uid > y->uid) - (x->uid < y->uid);
}

/*
 * Append TraceLens's gpu_events of side s of node k: the GPU events
 * below it, in the order tl-tree's runtime UIDs link them.
 */
static void
gpuevents(const struct input *in, int k, int s, struct glist *l)
{
	size_t n0 = l->n;
	const struct half *h = &in->n[k].h[s];

	if (h->gpuev)
		return;
	below(in, k, s, l);
	qsort(l->v + n0, l->n - n0, sizeof(*l->v), cmpgev);
	if ((long long)(l->n - n0) != h->ngpu)
		tl_die("%s: merged node %lld: %zu GPU events below UID %lld of trace%d, its ngpu says %lld",
		    in->r.name, in->n[k].mid, l->n - n0, h->uid, s + 1, h->ngpu);
}

/* A GPU event's interval, for the sort before the union. */
struct siv {
	double s, e;		/* start, end */
	int sint, eint;		/* they are Python ints */
	size_t k;		/* input position, for a stable sort */
};

static int
cmpiv(const void *a, const void *b)
{
	const struct siv *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* Union busy time as GPUEventAnalyser computes it, rounded as pandas' round(3). */
static double
busy(const struct glist *l, int *whole)
{
	struct siv *v;
	struct merger m = {0};
	union tv ts, te;
	double sum;
	size_t i, n;

	/* only kernels, memcpys and memsets count (GPUEventAnalyser) */
	v = tl_calloc(l->n + 1, sizeof(*v));
	for (i = n = 0; i < l->n; i++) {
		if (!l->v[i]->gpuev)
			continue;
		v[n].sint = l->v[i]->sint;
		v[n].eint = l->v[i]->eint;
		v[n].s = l->v[i]->ts;
		v[n].e = l->v[i]->ts + l->v[i]->dur;
		v[n].k = n;
		n++;
	}
	if (n == 0) {
		/* TraceLens fails here (IndexError) when there were events */
		free(v);
		*whole = l->n == 0;
		return 0;
	}
	qsort(v, n, sizeof(*v), cmpiv);
	mg_reset(&m);
	for (i = 0; i < n; i++) {
		ts.d = v[i].s;
		te.d = v[i].e;
		/* sorted: never out of order */
		(void)mg_add(&m, ts, te, v[i].sint, v[i].eint);
	}
	sum = mg_union(&m).d;
	*whole = !m.nonint;
	free(v);
	return rint(sum * 1000.0) / 1000.0;
}

/* re.sub(r"\(\d+\)", "", name); owned. */
static char *
stripnum(const char *s)
{
	struct buf b = {0};
	const char *q;

	buf_adds(&b, "");
	while (*s) {
		if (*s == '(' && s[1] >= '0' && s[1] <= '9') {
			for (q = s + 1; *q >= '0' && *q <= '9'; q++)
				;
			if (*q == ')') {
				s = q + 1;
				continue;
			}
		}
		buf_addc(&b, *s++);
	}
	return b.s;
}

static void
addrows(struct rows *rs, const struct glist *l, int src, const char *lcaname,
    long long lcaid)
{
	int whole;
	double bt = busy(l, &whole);
	size_t i;

	for (i = 0; i < l->n; i++) {
		/* GPU events with no cpu_op above are left out */
		if (l->v[i]->f[S_CPUOP][0] == '\0')
			continue;
		tl_grow((void **)&rs->v, &rs->cap, rs->n + 1, sizeof(*rs->v));
		rs->v[rs->n].g = l->v[i];
		rs->v[rs->n].src = src;
		rs->v[rs->n].busy = bt;
		rs->v[rs->n].whole = whole;
		rs->v[rs->n].lcaname = lcaname ? tl_strdup(lcaname) : NULL;
		rs->v[rs->n].lcaid = lcaid;
		rs->n++;
	}
}

/*
 * One node of TraceLens's generate_diff_stats traversal; returns 1 when
 * the traversal goes on into its children.
 */
static int
visit(const struct input *in, int k, int par, char *visited, struct rows *rs)
{
	const struct mnode *m = &in->n[k];
	struct glist l[2] = {{0}};
	size_t i;
	int s;

	if (visited[k])
		return 0;
	if (m->type == 0) {
		int lca = 0;

		if (m->h[0].gpupath && m->h[1].gpupath) {
			for (i = 0; i < m->nkids; i++) {
				const struct mnode *c = &in->n[m->kids[i]];

				if (c->type != 0 && c->h[c->type - 1].gpupath)
					lca = 1;
			}
			if (m->h[0].kernel && m->h[1].kernel)
				lca = 1;
		}
		if (lca) {
			char *n1 = stripnum(opname(&m->h[0]));
			char *n2 = stripnum(opname(&m->h[1]));
			struct buf nm = {0};

			if (strcmp(n1, n2) == 0) {
				buf_adds(&nm, n1);
			} else {
				buf_adds(&nm, n1);
				buf_adds(&nm, " | ");
				buf_adds(&nm, n2);
			}
			for (s = 0; s < 2; s++) {
				for (i = 0; i < m->nkids; i++) {
					int ck = m->kids[i];
					const struct mnode *c = &in->n[ck];

					if (c->type != s + 1 || !c->h[s].gpupath)
						continue;
					gpuevents(in, ck, s, &l[s]);
					if (c->h[s].kernel)
						gpush(&l[s], &c->h[s]);
					visited[ck] = 1;
				}
				if (m->h[s].kernel)
					gpush(&l[s], &m->h[s]);
			}
			addrows(rs, &l[0], 1, nm.s, m->mid);
			addrows(rs, &l[1], 2, nm.s, m->mid);
			visited[k] = 1;
			free(n1);
			free(n2);
			free(nm.s);
		}
	} else {
		s = m->type - 1;
		if (m->h[s].gpupath) {
			char *nm = NULL;
			long long id = -1;

			if (par >= 0) {
				nm = stripnum(opname(&in->n[par].h[s]));
				id = in->n[par].mid;
			}
			gpuevents(in, k, s, &l[0]);
			addrows(rs, &l[0], s + 1, nm, id);
			free(nm);
		}
		visited[k] = 1;
		free(l[0].v);
		return 0;
	}
	free(l[0].v);
	free(l[1].v);
	return m->h[0].gpupath || m->h[1].gpupath;
}

/*
 * TraceLens's generate_diff_stats traversal from the root, in pre-order:
 * a stack of (node, parent) pairs, not recursion.
 */
static void
traverse(const struct input *in, char *visited, struct rows *rs)
{
	int *st = NULL;
	size_t n = 0, cap = 0, i;

	tl_grow((void **)&st, &cap, 2, sizeof(*st));
	st[n++] = 0;
	st[n++] = -1;
	while (n > 0) {
		int par = st[--n], k = st[--n];
		const struct mnode *m = &in->n[k];

		if (!visit(in, k, par, visited, rs))
			continue;
		tl_grow((void **)&st, &cap, n + 2 * m->nkids, sizeof(*st));
		for (i = m->nkids; i > 0; i--) {
			st[n++] = m->kids[i - 1];
			st[n++] = k;
		}
	}
	free(st);
}

/* An argument value as Python prints it, into l; b is scratch. */
static void
putlit(struct buf *l, const char *json, struct buf *b)
{
	if (json[0] == '\0' || strcmp(json, "null") == 0)
		return;
	buf_reset(b);
	if (pylit(b, json, strlen(json), 1) != 0)
		tl_die("bad JSON argument value: %s", json);
	rec_bput(l, b->s, b->len);
}

/* One row's line, its newline too, made in l (-k writes it twice). */
static void
putrow(struct buf *l, const struct row *w, struct buf *b)
{
	const struct half *g = w->g;
	const char *op = g->f[S_CPUOPNAME][0] ? g->f[S_CPUOPNAME] : g->f[S_CPUOP];
	char num[64];
	int64_t iv;

	buf_reset(l);
	rec_bput(l, g->f[S_NAME], strlen(g->f[S_NAME]));
	buf_addc(l, '\t');
	rec_bput(l, op, strlen(op));
	buf_addc(l, '\t');
	buf_adds(l, g->f[S_CPUOP]);
	buf_adds(l, "\ttrace");
	buf_adds(l, num_lld(w->src, num + 32));
	buf_addc(l, '\t');
	putlit(l, g->f[S_DIMS], b);
	buf_addc(l, '\t');
	putlit(l, g->f[S_STRIDES], b);
	buf_addc(l, '\t');
	putlit(l, g->f[S_TYPES], b);
	buf_addc(l, '\t');
	putlit(l, g->f[S_CONCRETE], b);
	buf_addc(l, '\t');
	/* dur as Python holds it: an int, or a float written as repr() */
	if (g->f[S_DUR][0] == '\0')
		buf_addc(l, '0');
	else if (num_int64(g->f[S_DUR], strlen(g->f[S_DUR]), &iv) == 0)
		rec_bput(l, g->f[S_DUR], strlen(g->f[S_DUR]));
	else
		buf_adds(l, num_pyrepr(g->dur, num, sizeof(num)));
	buf_addc(l, '\t');
	if (w->whole)
		snprintf(num, sizeof(num), "%.0f", w->busy);
	else
		num_pyrepr(w->busy, num, sizeof(num));
	buf_adds(l, num);
	buf_addc(l, '\t');
	if (w->lcaname != NULL)
		rec_bput(l, w->lcaname, strlen(w->lcaname));
	buf_addc(l, '\t');
	if (w->lcaid >= 0)
		buf_adds(l, num_lld(w->lcaid, num + 32));
	buf_addc(l, '\t');
	buf_adds(l, num_lld(g->uid, num + 32));
	buf_adds(l, "\troot\troot\n");
}

/* A row's cpu_op name, as the rows' cpu_op_name column has it. */
static const char *
opnameof(const struct row *w)
{
	return w->g->f[S_CPUOPNAME][0] ? w->g->f[S_CPUOPNAME] : w->g->f[S_CPUOP];
}

/* A (LCA, side, cpu_op name) of a row, and the row's index. */
struct lname {
	long long lcaid;	/* the LCA's id */
	int src;		/* the row's side: 1 or 2 */
	const char *name;	/* its cpu_op name, not owned */
	size_t i;		/* the row's index */
};

static int
cmplname(const void *a, const void *b)
{
	const struct lname *x = a, *y = b;
	int c;

	if (x->lcaid != y->lcaid)
		return x->lcaid < y->lcaid ? -1 : 1;
	if (x->src != y->src)
		return x->src - y->src;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return (x->i > y->i) - (x->i < y->i);
}

static int
cmplplace(const void *a, const void *b)
{
	const struct lname *x = a, *y = b;

	if (x->lcaid != y->lcaid)
		return x->lcaid < y->lcaid ? -1 : 1;
	if (x->src != y->src)
		return x->src - y->src;
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * -l: for each LCA of one top-level tree's rows (all of its rows are
 * there) with rows on both sides, each side's distinct cpu_op names in
 * the order of their first row, as "name first side place": first is
 * the line number of the LCA's first row in the rows' output (the
 * header is line 1; base rows came before these), place the name's
 * place on its side.  What TraceLens's cpu_op rename pairs.
 */
static void
lcanames(FILE *fp, const struct rows *rs, long long base)
{
	struct lname *v = tl_calloc(rs->n + 1, sizeof(*v));
	size_t n = 0, m = 0, i, j, k, place = 0;

	for (i = 0; i < rs->n; i++)
		if (rs->v[i].lcaid >= 0)
			v[n++] = (struct lname){ rs->v[i].lcaid, rs->v[i].src,
			    opnameof(&rs->v[i]), i };
	/* each (LCA, side, name) once, at its first row */
	qsort(v, n, sizeof(*v), cmplname);
	for (i = 0; i < n; i++)
		if (m == 0 || v[i].lcaid != v[m - 1].lcaid ||
		    v[i].src != v[m - 1].src || strcmp(v[i].name, v[m - 1].name) != 0)
			v[m++] = v[i];
	qsort(v, m, sizeof(*v), cmplplace);
	for (i = 0; i < m; i = j) {
		size_t first = v[i].i;
		int both = 0;

		for (j = i; j < m && v[j].lcaid == v[i].lcaid; j++) {
			both |= v[j].src;
			if (v[j].i < first)
				first = v[j].i;
		}
		if (both != 3)
			continue;
		for (k = i; k < j; k++) {
			place = k == i || v[k].src != v[k - 1].src ? 1 : place + 1;
			rec_puts(fp, v[k].name);
			fprintf(fp, "\t%012lld\t%d\t%012zu\n",
			    base + 2 + (long long)first, v[k].src, place);
		}
	}
	free(v);
}

static int
cmplcaid(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;

	if (x->lcaid != y->lcaid)
		return x->lcaid < y->lcaid ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Per LCA (in id order), for each of its trace1 rows: the LCA totals of
 * TraceLens's --comparison_json_path (first busy_time of each side).
 */
static void
totals(FILE *fp, struct rows *rs)
{
	const struct row **o = tl_calloc(rs->n + 1, sizeof(*o));
	size_t i, j, k, n = 0;
	char a[64], b[64];

	for (i = 0; i < rs->n; i++)
		if (rs->v[i].lcaid >= 0)
			o[n++] = &rs->v[i];
	qsort(o, n, sizeof(*o), cmplcaid);
	for (i = 0; i < n; i = j) {
		const struct row *f1 = NULL, *f2 = NULL;

		for (j = i; j < n && o[j]->lcaid == o[i]->lcaid; j++) {
			if (o[j]->src == 1 && f1 == NULL)
				f1 = o[j];
			if (o[j]->src == 2 && f2 == NULL)
				f2 = o[j];
		}
		if (f1 == NULL)
			continue;
		num_pyrepr(f1->busy, a, sizeof(a));
		num_pyrepr(f2 ? f2->busy : 0.0, b, sizeof(b));
		for (k = i; k < j; k++) {
			if (o[k]->src != 1)
				continue;
			fprintf(fp, "%lld\t%lld\t", o[k]->g->uid, o[k]->lcaid);
			rec_puts(fp, f1->lcaname ? f1->lcaname : "");
			fprintf(fp, "\t%s\t%s\t%d\n", a, b, f2 != NULL);
		}
	}
	free(o);
}

/*
 * A row's line l (its newline included) on kfp, its fields in
 * keyedord order, row (12 digits) after the grouping columns, made in
 * k: the fields are escaped, so a TAB is a separator.
 */
static void
putkeyed(FILE *kfp, const struct buf *l, struct buf *k, long long row)
{
	char num[32];

	const char *f[LEN(statcols) + 1], *p, *end = l->s + l->len - 1;
	size_t i, n = 0;

	for (p = l->s; n < LEN(statcols); p++) {
		f[n++] = p;
		if ((p = memchr(p, '\t', (size_t)(end - p))) == NULL)
			break;
	}
	if (n != LEN(statcols) || p != NULL)
		tl_die("a row of %zu fields, not %zu", n, LEN(statcols));
	f[n] = end + 1;
	buf_reset(k);
	for (i = 0; i < n; i++) {
		buf_add(k, f[keyedord[i]],
		    (size_t)(f[keyedord[i] + 1] - f[keyedord[i]] - 1));
		buf_addc(k, i + 1 < n ? '\t' : '\n');
		if (i + 1 == NGROUP) {
			snprintf(num, sizeof(num), "%012lld\t", row);
			buf_adds(k, num);
		}
	}
	fwrite(k->s, 1, k->len, kfp);
}

static void
lca(struct input *in, FILE *fp, FILE *tfp, FILE *nfp, FILE *kfp)
{
	struct buf b = {0}, prefix = {0}, l = {0}, k = {0};
	struct rows rs = {0};
	const char *kcols[LEN(statcols) + 1];
	char *visited;
	size_t i;
	long long base = 0;

	if (mode == M_TOTALS)
		rec_write(fp, totcols, LEN(totcols));
	else
		rec_write(fp, statcols, LEN(statcols));
	if (kfp != NULL) {
		for (i = 0; i < LEN(statcols); i++)
			kcols[i + (i >= NGROUP)] = statcols[keyedord[i]];
		kcols[NGROUP] = "row";
		rec_write(kfp, kcols, LEN(kcols));
	}
	while (in_next(in)) {
		if (tfp != NULL)
			treegroup(tfp, in, &prefix);
		visited = tl_calloc(in->nn, 1);
		traverse(in, visited, &rs);
		free(visited);
		if (mode == M_TOTALS)
			totals(fp, &rs);
		else
			for (i = 0; i < rs.n; i++) {
				putrow(&l, &rs.v[i], &b);
				fwrite(l.s, 1, l.len, fp);
				if (kfp != NULL)
					putkeyed(kfp, &l, &k, base + (long long)i + 1);
			}
		if (nfp != NULL)
			lcanames(nfp, &rs, base);
		base += (long long)rs.n;
		for (i = 0; i < rs.n; i++)
			free(rs.v[i].lcaname);
		rs.n = 0;
	}
	free(l.s);
	free(k.s);
	free(rs.v);
	free(b.s);
	free(prefix.s);
}

/* -r: the renames, read as the summary's cpu_op names come. */
struct renames {
	FILE *fp;		/* RENAMES */
	char *line;		/* the current record, NUL at its first TAB */
	size_t cap;		/* allocated for line */
	size_t klen;		/* its name's length */
	const char *val;	/* its new name */
	int eof;		/* no record left */
	size_t lineno;		/* records read */
	struct buf op;		/* the cpu_op name last looked up */
	struct buf to;		/* what it is renamed to */
	int has;		/* op has a rename */
};

static void
rn_next(struct renames *rn)
{
	ssize_t n;
	char *t;

	if ((n = getline(&rn->line, &rn->cap, rn->fp)) <= 0) {
		if (ferror(rn->fp))
			tl_die("%s:", renamepath);
		rn->eof = 1;
		return;
	}
	rn->lineno++;
	if (rn->line[n - 1] == '\n')
		rn->line[--n] = '\0';
	/* NAME TAB 12 digits TAB NEW */
	if ((t = memchr(rn->line, '\t', (size_t)n)) == NULL ||
	    rn->line + n - t < 14 || t[13] != '\t')
		tl_die("%s: line %zu: not a rename record", renamepath, rn->lineno);
	*t = '\0';
	rn->klen = (size_t)(t - rn->line);
	rn->val = t + 14;
}

/* Compare a and b as bytes, each followed by a TAB (neither has one). */
static int
cmptab(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t m = alen < blen ? alen : blen;
	int c = memcmp(a, b, m);

	if (c != 0 || alen == blen)
		return c;
	return alen < blen ? '\t' - (unsigned char)b[m] : (unsigned char)a[m] - '\t';
}

/*
 * The name op (escaped, as read) has in the renames, the last of its
 * records (the one numbered last); op itself when it has none.  The ops
 * come in order, so do the renames: a merge, no table of the names.
 */
static const char *
renamed(struct renames *rn, const char *op)
{
	size_t len = strlen(op);

	if (rn->op.s != NULL && rn->op.len == len && memcmp(rn->op.s, op, len) == 0)
		return rn->has ? rn->to.s : op;
	buf_reset(&rn->op);
	buf_add(&rn->op, op, len);
	rn->has = 0;
	while (!rn->eof && cmptab(rn->line, rn->klen, op, len) < 0)
		rn_next(rn);
	while (!rn->eof && rn->klen == len && memcmp(rn->line, op, len) == 0) {
		buf_reset(&rn->to);
		buf_adds(&rn->to, rn->val);
		rn->has = 1;
		rn_next(rn);
	}
	return rn->has ? rn->to.s : op;
}

/*
 * -s: the key of a kernel_time_sum written as s: 21 hexadecimal digits
 * that sort as bytes as sort -g -r sorts s, by its value as strtold(3)
 * reads it (sort -g's own reading), descending.  Ascending, the key is
 * a class (NaN, -inf, negative, zero, positive, inf: sort -g puts NaNs
 * first), then the binary exponent and the 64 bits of the mantissa of
 * |value|, complemented for a negative one; descending, every digit
 * complemented.
 */
static void
sumkey(const char *s, char *out, size_t size)
{
	long double v;
	unsigned cls, ex = 0;
	unsigned long long mant = 0;
	char *end, *p;
	int e;

	v = strtold(s, &end);
	if (end == s || *end != '\0')
		tl_die("kernel_time_sum '%s': not a number", s);
	if (isnan(v))
		cls = 0;
	else if (isinf(v))
		cls = v < 0 ? 1 : 5;
	else if (v == 0)
		cls = 3;
	else {
		/* |v| = m 2^e, m in [0.5, 1): m 2^64 is whole, below 2^64 */
		mant = (unsigned long long)ldexpl(frexpl(fabsl(v), &e), 64);
		ex = (unsigned)(e + 0x8000) & 0xffff;
		cls = v < 0 ? 2 : 4;
		if (v < 0) {
			ex = ~ex & 0xffff;
			mant = ~mant;
		}
	}
	snprintf(out, size, "%x%04x%016llx", cls, ex, mant);
	for (p = out; *p != '\0'; p++)
		*p = "fedcba9876543210"[*p <= '9' ? *p - '0' : *p - 'a' + 10];
}

static void
putsum(FILE *fp, char **key, long long n, double sum, int isint, long long isum,
    struct renames *rn)
{
	char mbuf[64], tbuf[64], skey[32];
	const char *mean, *tot;
	int i;

	if (isint) {
		mean = num_pyrepr((double)isum / (double)n, mbuf, sizeof(mbuf));
		snprintf(tbuf, sizeof(tbuf), "%lld", isum);
		tot = tbuf;
	} else {
		mean = num_pyrepr(sum / (double)n, mbuf, sizeof(mbuf));
		tot = num_pyrepr(sum, tbuf, sizeof(tbuf));
	}
	if (sumkeyflag) {
		sumkey(tot, skey, sizeof(skey));
		fputs(skey, fp);
		putc('\t', fp);
	}
	for (i = 0; i < NGROUP; i++) {
		if (i == 1)
			fprintf(fp, "%lld\t", n);
		/* (the fields as read: still escaped) */
		fputs(key[i], fp);
		putc('\t', fp);
	}
	fprintf(fp, "%s\t%s", mean, tot);
	/* -r: the cpu_op name renamed, a field after the header's */
	if (rn != NULL) {
		putc('\t', fp);
		fputs(renamed(rn, key[1]), fp);
	}
	putc('\n', fp);
}

/*
 * diff_stats rows grouped on every column but kernel_time,
 * lowest_common_ancestor_id and gpu_op_uid (pandas' group-by sum and
 * mean, with its Kahan summation); the rows must come sorted on those
 * columns joined by TABs (opfirst: cpu_op_name first, then name, so
 * that the groups come by cpu_op, for its renaming).  The grouping
 * fields are kept and compared as read, escaped (escaping keeps
 * equality, and the sort compared the same bytes), and written back so.
 */
static void
summary(FILE *in, const char *name, FILE *fp, int opfirst, struct renames *rn)
{
	static const char *const agg[] = { "kernel_time_mean", "kernel_time_sum" };
	struct rec_reader r;
	struct buf prev = {0}, cur = {0};
	char *key[NGROUP] = {0};
	int col[NGROUP], kt, i, have = 0, isint = 1, rowint;
	long long n = 0, isum = 0;
	int64_t iv;
	double sum = 0, comp = 0, v, y, t;
	const char *f;
	size_t len;

	rec_open(&r, in, name);
	rec_read_header(&r);
	for (i = 0; i < NGROUP; i++)
		col[i] = rec_need(&r, groupcols[i]);
	kt = rec_need(&r, "kernel_time");
	for (i = 0; i < NGROUP; i++) {
		fputs(groupcols[i], fp);
		fputs(i == 0 ? "\toperation_count\t" : "\t", fp);
	}
	fprintf(fp, "%s\t%s\n", agg[0], agg[1]);
	while (rec_read(&r)) {
		rec_check_width(&r);
		buf_reset(&cur);
		for (i = 0; i < NGROUP; i++) {
			/* (-c: cpu_op_name, then name, then the rest) */
			f = rec_get(&r, col[opfirst && i < 2 ? 1 - i : i], &len);
			if (i > 0)
				buf_addc(&cur, '\t');
			buf_add(&cur, f, len);
		}
		if (have && strcmp(cur.s, prev.s) < 0)
			tl_die("%s: line %zu: rows not sorted on the grouping columns", name,
			    r.lineno);
		if (!have || strcmp(cur.s, prev.s) != 0) {
			if (have)
				putsum(fp, key, n, sum, isint, isum, rn);
			for (i = 0; i < NGROUP; i++) {
				free(key[i]);
				f = rec_get(&r, col[i], &len);
				key[i] = tl_strndup(f, len);
			}
			buf_reset(&prev);
			buf_add(&prev, cur.s, cur.len);
			have = 1;
			n = isum = 0;
			sum = comp = 0;
			isint = 1;
		}
		f = rec_get(&r, kt, &len);
		rowint = num_int64(f, len, &iv) == 0;
		if (num_double(f, len, &v) != 0)
			tl_die("%s: line %zu: bad kernel_time '%s'", name, r.lineno, f);
		if (rowint)
			isum += iv;
		isint &= rowint;
		y = v - comp;
		t = sum + y;
		comp = t - sum - y;
		sum = t;
		n++;
	}
	if (have)
		putsum(fp, key, n, sum, isint, isum, rn);
	for (i = 0; i < NGROUP; i++)
		free(key[i]);
	free(prev.s);
	free(cur.s);
	rec_close(&r);
}

static void
tree(struct input *in, FILE *fp)
{
	struct buf prefix = {0};

	while (in_next(in))
		treegroup(fp, in, &prefix);
	free(prefix.s);
}

static void
map(struct input *in, FILE *fp)
{
	static const char *const cols[] = { "trace", "uid", "other" };
	long long ans = -1;
	size_t i;
	int s;

	if (qtrace == 0)
		rec_write(fp, cols, LEN(cols));
	while (in_next(in))
		for (i = 0; i < in->nn; i++)
			for (s = 0; s < 2; s++) {
				const char *k = in->n[i].key[s], *o = in->n[i].key[1 - s];

				if (*k == '\0')
					continue;
				if (qtrace == 0) {
					fprintf(fp, "%d\t%s\t%s\n", s + 1, k, *o ? o : "-1");
					continue;
				}
				if (qtrace == s + 1 && intfield(&in->r, k, "key") == quid)
					ans = *o ? intfield(&in->r, o, "key") : -1;
			}
	if (qtrace != 0)
		fprintf(fp, "%lld\n", ans);
}

int
main(int argc, char *argv[])
{
	struct input in;
	struct renames rn;
	const char *path = "-";
	char *e;
	FILE *fp, *tfp, *nfp, *kfp;
	int ch, st = 0, opfirst = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "ck:l:m:pr:st:u:")) != -1) {
		switch (ch) {
		case 'c':
			opfirst = 1;
			break;
		case 'k':
			keyedpath = optarg;
			break;
		case 'r':
			renamepath = optarg;
			break;
		case 's':
			sumkeyflag = 1;
			break;
		case 'm':
			if (strcmp(optarg, "stats") == 0)
				mode = M_STATS;
			else if (strcmp(optarg, "tree") == 0)
				mode = M_TREE;
			else if (strcmp(optarg, "map") == 0)
				mode = M_MAP;
			else if (strcmp(optarg, "totals") == 0)
				mode = M_TOTALS;
			else if (strcmp(optarg, "summary") == 0)
				mode = M_SUMMARY;
			else
				tl_usage_die("-m: unknown mode '%s'", optarg);
			break;
		case 'p':
			pruneflag = 1;
			break;
		case 't':
			treepath = optarg;
			break;
		case 'l':
			namespath = optarg;
			break;
		case 'u':
			if ((optarg[0] != '1' && optarg[0] != '2') || optarg[1] != ':')
				tl_usage_die("-u: want 1:UID or 2:UID, not '%s'", optarg);
			qtrace = optarg[0] - '0';
			quid = strtoll(optarg + 2, &e, 10);
			if (optarg[2] == '\0' || *e != '\0' || quid < 0)
				tl_usage_die("-u: bad UID '%s'", optarg + 2);
			mode = M_MAP;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(TL_EUSAGE);
	if (argc == 1)
		path = argv[0];
	if (treepath != NULL && mode != M_STATS)
		tl_usage_die("-t goes with -m stats");
	if (namespath != NULL && mode != M_STATS)
		tl_usage_die("-l goes with -m stats");
	if (keyedpath != NULL && mode != M_STATS)
		tl_usage_die("-k goes with -m stats");
	if (pruneflag && mode != M_TREE && treepath == NULL)
		tl_usage_die("-p goes with -m tree or -t");
	if (opfirst && mode != M_SUMMARY)
		tl_usage_die("-c goes with -m summary");
	if (renamepath != NULL && !opfirst)
		tl_usage_die("-r goes with -m summary -c");
	if (sumkeyflag && mode != M_SUMMARY)
		tl_usage_die("-s goes with -m summary");
	fp = tl_fopen(path, "r");
	if (mode == M_SUMMARY) {
		if (renamepath != NULL) {
			memset(&rn, 0, sizeof(rn));
			rn.fp = tl_fopen(renamepath, "r");
			rn_next(&rn);
		}
		summary(fp, strcmp(path, "-") == 0 ? "<stdin>" : path, stdout, opfirst,
		    renamepath != NULL ? &rn : NULL);
		if (renamepath != NULL) {
			fclose(rn.fp);
			free(rn.line);
			buf_free(&rn.op);
			buf_free(&rn.to);
		}
		if (fp != stdin)
			fclose(fp);
		return tl_fshut(stdout, "<stdout>");
	}
	in_open(&in, fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	if (mode == M_TREE)
		tree(&in, stdout);
	else if (mode == M_MAP)
		map(&in, stdout);
	else {
		/* (-t: the tree beside the rows, from the one reading) */
		tfp = treepath != NULL ? tl_fopen(treepath, "w") : NULL;
		nfp = namespath != NULL ? tl_fopen(namespath, "w") : NULL;
		kfp = keyedpath != NULL ? tl_fopen(keyedpath, "w") : NULL;
		lca(&in, stdout, tfp, nfp, kfp);
		if (tfp != NULL && tl_fshut(tfp, treepath) != 0)
			st = 1;
		if (nfp != NULL && tl_fshut(nfp, namespath) != 0)
			st = 1;
		if (kfp != NULL && tl_fshut(kfp, keyedpath) != 0)
			st = 1;
	}
	if (tl_fshut(stdout, "<stdout>") != 0)
		st = 1;
	in_freegroup(&in);
	free(in.n);
	rec_close(&in.r);
	if (fp != stdin)
		fclose(fp);
	return st;
}
