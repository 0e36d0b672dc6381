/* See LICENSE file for copyright and license details. */
/*
 * tl-diff: merge the call trees of two traces the way TraceLens's
 * TraceDiff does (root pairing, name normalisation, Wagner-Fischer
 * alignment of children with its disambiguation and repair passes) and
 * write the merged tree as records, one per merged node, in pre-order.
 *
 * Each input is a stream of node records grouped by top-level root, the
 * groups in root order (tl(7) NODE RECORDS).  Groups are paired by
 * position, so memory is one pair of top-level subtrees.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

/* Text fields of a node, copied from its record (unescaped). */
enum { T_CAT, T_NAME, T_TS, T_DUR, T_NGPU, T_CPUOP, T_CPUOPNAME, T_DIMS,
	T_TYPES, T_STRIDES, T_CONCRETE, NTXT };

/* Input columns: rank, UID, parent, then the text fields in T_ order. */
static const char *const incols[] = {
	"rank", "UID", "parent", "cat", "name", "ts", "dur", "ngpu", "cpu_op",
	"cpu_op_name", "Input Dims", "Input type", "Input Strides",
	"Concrete Inputs"
};
enum { NIN = LEN(incols) };

/* One host or GPU event of a root group. */
struct node {
	long long uid;		/* UID in its trace */
	long long parent;	/* parent UID (the runtime for GPU events) */
	int hasparent;		/* parent is set */
	int par;		/* index of the parent in the group, -1 for none */
	double ts;		/* ts as Python's float() reads it */
	char *t[NTXT];		/* text fields, in one block, t[0]'s, owned */
	char *norm;		/* normalised name, owned; NULL for an empty name */
	int gpuev;		/* a GPU event (kernel, gpu_memcpy, gpu_memset) */
	int gpupath;		/* on a GPU path (not TraceLens's non_gpu_path) */
	int dispatch;		/* cuda_runtime/cuda_driver, not a graph launch */
	int cpuop;		/* cat is cpu_op */
	int extra;		/* linked to a runtime but off the GPU path (cuda_sync ...) */
	int *kids;		/* children indices, owned */
	size_t nkids;		/* children used */
	size_t kcap;		/* children allocated */
};

/* One input: its reader and the current root group. */
struct side {
	struct rec_reader r;	/* the reader */
	FILE *fp;		/* the stream, owned unless stdin */
	int col[NIN];		/* column index of each incols[] entry */
	int pending;		/* r holds a record of the next group */
	int eof;		/* no more records */
	char *rank;		/* rank of the current group, owned */
	char *prevrank;		/* rank of the previous group, owned */
	struct node *n;		/* nodes of the group, owned */
	size_t nn;		/* nodes used */
	size_t cap;		/* nodes allocated */
	int *byuid;		/* node indices sorted by UID, owned */
	int root;		/* index of the node the merge starts at */
};

/* An alignment step: match (i, j), delete i or insert j. */
struct op {
	char t;			/* 'm', 'd' or 'i' */
	int i;			/* index in list 1, -1 for an insert */
	int j;			/* index in list 2, -1 for a delete */
};

/* A list of node indices. */
struct ilist {
	int *v;			/* indices, owned */
	size_t n;		/* used */
	size_t cap;		/* allocated */
};

/* A list of ops. */
struct oplist {
	struct op *v;		/* ops, owned */
	size_t n;		/* used */
	size_t cap;		/* allocated */
};

/* The merge of one pair of root groups. */
/*
 * One merged node whose children are still to be merged: TraceLens's
 * traverse_and_merge recurses here, tl-diff keeps a stack of these, so
 * that the depth of a call tree is bounded by memory, not by the C stack.
 */
struct frame {
	struct oplist ops;	/* the children's alignment, owned */
	struct ilist c1, c2;	/* the children of each side, owned */
	long long id;		/* the merged node's id, the children's parent */
	size_t next;		/* the next step of ops to merge */
};

struct merge {
	struct side *s[2];	/* the two groups, not owned */
	long long nextid;	/* next merged id (over all roots) */
	long long rootidx;	/* position of the root pair */
	long long *seen;	/* hash set of (index1+1, index2+1) pairs merged, 0 = free; owned */
	size_t nseen;		/* pairs in the set */
	size_t seencap;		/* slots, a power of two */
	size_t *used;		/* slots filled since unmark(), owned */
	size_t usedcap;		/* allocated size of used */
	FILE *out;		/* merged records */
	struct frame *stack;	/* merge's stack of open nodes, owned */
	size_t stackcap;	/* frames allocated */
};

static const char *const outhdr[] = {
	"mid", "parent", "root", "type", "key1", "key2",
	"uid1", "cat1", "name1", "gpu1", "ngpu1", "ts1", "dur1", "runtime1",
	"cpu_op1", "cpu_op_name1", "dims1", "types1", "strides1", "concrete1",
	"uid2", "cat2", "name2", "gpu2", "ngpu2", "ts2", "dur2", "runtime2",
	"cpu_op2", "cpu_op_name2", "dims2", "types2", "strides2", "concrete2"
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-diff NODES1 NODES2\n");
	exit(status);
}

static void
ipush(struct ilist *l, int v)
{
	tl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = v;
}

static void
opush(struct oplist *l, char t, int i, int j)
{
	tl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n].t = t;
	l->v[l->n].i = i;
	l->v[l->n].j = j;
	l->n++;
}

/* Python's re \s, for the ASCII range and the common Unicode spaces. */
static size_t
pyspace(const unsigned char *s)
{
	if (*s == ' ' || (*s >= '\t' && *s <= '\r') || (*s >= 0x1c && *s <= 0x1f))
		return 1;
	if (s[0] == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
		return 2;
	if (s[0] == 0xe2 && s[1] == 0x80 && ((s[2] >= 0x80 && s[2] <= 0x8a) ||
	    s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f)
		return 3;
	if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80)
		return 3;
	if (s[0] == 0xe1 && s[1] == 0x9a && s[2] == 0x80)
		return 3;
	return 0;
}

static int
ishex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * TraceLens's _normalize_name_for_comparison: hex addresses and .py line
 * numbers masked; with strip, a trailing ": word" and a path before a
 * .py file name dropped; two launch APIs made equal.  Returns owned text.
 */
static char *
normalize(const char *name, int strip)
{
	struct buf b = {0};
	const char *p, *q;
	size_t k;

	for (p = name; *p;) {
		/* (the bytes that start no pattern, in one copy: the names
		 * are most of tl-diff's work) */
		if ((k = strcspn(p, "0.")) > 0) {
			buf_add(&b, p, k);
			p += k;
			continue;
		}
		if (p[0] == '0' && p[1] == 'x' && ishex((unsigned char)p[2])) {
			buf_adds(&b, "0xXXXX");
			for (p += 2; ishex((unsigned char)*p); p++)
				;
			continue;
		}
		if (strncmp(p, ".py(", 4) == 0 && p[4] >= '0' && p[4] <= '9') {
			for (q = p + 4; *q >= '0' && *q <= '9'; q++)
				;
			if (q[0] == ')' && q[1] == ':') {
				buf_adds(&b, ".py:");
				p = q + 2;
				continue;
			}
		}
		buf_addc(&b, *p++);
	}
	buf_adds(&b, "");
	if (strip) {
		/* :\s+\S+$ at the leftmost ':' where it matches */
		for (k = 0; k < b.len; k++) {
			size_t w, m = k + 1, n;
			int ws = 0, nws = 0;

			if (b.s[k] != ':')
				continue;
			while (m < b.len && (w = pyspace((unsigned char *)b.s + m)) > 0) {
				m += w;
				ws = 1;
			}
			for (n = m; n < b.len && pyspace((unsigned char *)b.s + n) == 0; n++)
				nws = 1;
			if (ws && nws && n == b.len) {
				b.s[k] = '\0';
				b.len = k;
				break;
			}
		}
		/* ^.*\/([^/]+\.py)$ -> \1 (. does not match a newline) */
		if ((q = strrchr(b.s, '/')) != NULL && strlen(q + 1) >= 4 &&
		    strcmp(q + 1 + strlen(q + 1) - 3, ".py") == 0 &&
		    memchr(b.s, '\n', (size_t)(q - b.s)) == NULL) {
			char *t = tl_strdup(q + 1);

			free(b.s);
			return t;
		}
	}
	if (strcmp(b.s, "hipModuleLaunchKernel") == 0 ||
	    strcmp(b.s, "cuLaunchKernel") == 0) {
		free(b.s);
		return tl_strdup("__kernel_launch__");
	}
	return b.s;
}

/* Names compared as TraceLens compares them: None equals only None. */
static int
nameeq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static int
isgraphlaunch(const char *name)
{
	return strcmp(name, "hipGraphLaunch") == 0 ||
	    strcmp(name, "cudaGraphLaunch") == 0;
}

/* ---- reading root groups ---- */

static void
side_open(struct side *s, const char *path)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->fp = tl_fopen(path, "r");
	rec_open(&s->r, s->fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	rec_read_header(&s->r);
	for (i = 0; i < NIN; i++)
		s->col[i] = rec_need(&s->r, incols[i]);
}

static void
side_free_group(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nn; i++) {
		free(s->n[i].t[0]);
		free(s->n[i].norm);
		free(s->n[i].kids);
	}
	s->nn = 0;
	free(s->byuid);
	s->byuid = NULL;
}

/* A node's sort keys, so that qsort needs no context. */
struct skey {
	long long uid;		/* UID */
	double ts;		/* ts */
	int gpuev;		/* GPU event: after host events */
	int idx;		/* index of the node in the group */
};

static int
cmpuid(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;

	return (x->uid > y->uid) - (x->uid < y->uid);
}

/* Host events in (ts, UID) order, as TraceLens builds the stack; then GPU events by UID. */
static int
cmpbuild(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;

	if (x->gpuev != y->gpuev)
		return x->gpuev - y->gpuev;
	if (!x->gpuev && x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->uid > y->uid) - (x->uid < y->uid);
}

static int
find(struct side *s, long long uid)
{
	size_t lo = 0, hi = s->nn;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		long long u = s->n[s->byuid[mid]].uid;

		if (u == uid)
			return s->byuid[mid];
		if (u < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void
addkid(struct node *p, int k)
{
	tl_grow((void **)&p->kids, &p->kcap, p->nkids + 1, sizeof(*p->kids));
	p->kids[p->nkids++] = k;
}

/* Copy the current record into a new node of the group. */
static void
side_take(struct side *s)
{
	struct rec_reader *r = &s->r;
	struct node *nd;
	size_t len;
	char *f;
	int64_t v;

	tl_grow((void **)&s->n, &s->cap, s->nn + 1, sizeof(*s->n));
	nd = &s->n[s->nn++];
	memset(nd, 0, sizeof(*nd));
	rec_strs(r, &s->col[3], NTXT, nd->t);
	f = (char *)rec_get(r, s->col[1], &len);
	if (num_int64(f, len, &v) != 0)
		tl_die("%s: line %zu: bad UID '%s'", r->name, r->lineno, f);
	nd->uid = v;
	f = (char *)rec_get(r, s->col[2], &len);
	if (len > 0) {
		if (num_int64(f, len, &v) != 0)
			tl_die("%s: line %zu: bad parent '%s'", r->name, r->lineno, f);
		nd->parent = v;
		nd->hasparent = 1;
	}
	if (num_double(nd->t[T_TS], strlen(nd->t[T_TS]), &nd->ts) != 0)
		tl_die("%s: line %zu: bad ts '%s'", r->name, r->lineno, nd->t[T_TS]);
	nd->gpuev = strcmp(nd->t[T_CAT], "kernel") == 0 ||
	    strcmp(nd->t[T_CAT], "gpu_memcpy") == 0 ||
	    strcmp(nd->t[T_CAT], "gpu_memset") == 0;
	nd->cpuop = strcmp(nd->t[T_CAT], "cpu_op") == 0;
	nd->dispatch = (strcmp(nd->t[T_CAT], "cuda_runtime") == 0 ||
	    strcmp(nd->t[T_CAT], "cuda_driver") == 0) && !isgraphlaunch(nd->t[T_NAME]);
	if (nd->gpuev)
		nd->gpupath = 1;
	else
		nd->gpupath = nd->t[T_NGPU][0] != '\0' && strcmp(nd->t[T_NGPU], "0") != 0;
	nd->norm = nd->t[T_NAME][0] ? normalize(nd->t[T_NAME], 0) : NULL;
	nd->par = -1;
}

/*
 * Read the next root group into s; 0 when the input has no more.  Dies
 * when groups are not contiguous, have no single root, or name a parent
 * outside the group.
 */
static int
side_next(struct side *s)
{
	struct rec_reader *r = &s->r;
	size_t len, i;
	const char *rk;
	struct skey *keys;
	int *ord, nroots = 0, c, d;

	side_free_group(s);
	free(s->prevrank);
	s->prevrank = s->rank;
	s->rank = NULL;
	if (s->eof)
		return 0;
	if (!s->pending && !rec_read(r)) {
		s->eof = 1;
		return 0;
	}
	s->pending = 0;
	rec_check_width(r);
	rk = rec_get(r, s->col[0], &len);
	if (s->prevrank != NULL && strcmp(rk, s->prevrank) <= 0)
		tl_die("%s: line %zu: rank '%s' after '%s': input not grouped by root in rank order",
		    r->name, r->lineno, rk, s->prevrank);
	s->rank = tl_strdup(rk);
	side_take(s);
	while (rec_read(r)) {
		rec_check_width(r);
		rk = rec_get(r, s->col[0], &len);
		if (strcmp(rk, s->rank) != 0) {
			s->pending = 1;
			break;
		}
		side_take(s);
	}
	if (!s->pending)
		s->eof = 1;

	keys = tl_calloc(s->nn + 1, sizeof(*keys));
	for (i = 0; i < s->nn; i++) {
		keys[i].uid = s->n[i].uid;
		keys[i].ts = s->n[i].ts;
		keys[i].gpuev = s->n[i].gpuev;
		keys[i].idx = (int)i;
	}
	qsort(keys, s->nn, sizeof(*keys), cmpuid);
	s->byuid = tl_calloc(s->nn + 1, sizeof(int));
	for (i = 0; i < s->nn; i++)
		s->byuid[i] = keys[i].idx;
	for (i = 1; i < s->nn; i++)
		if (s->n[s->byuid[i]].uid == s->n[s->byuid[i - 1]].uid)
			tl_die("%s: rank %s: UID %lld listed twice", r->name,
			    s->rank, s->n[s->byuid[i]].uid);
	qsort(keys, s->nn, sizeof(*keys), cmpbuild);
	ord = tl_calloc(s->nn + 1, sizeof(int));
	for (i = 0; i < s->nn; i++)
		ord[i] = keys[i].idx;
	free(keys);
	s->root = -1;
	for (i = 0; i < s->nn; i++) {
		struct node *nd = &s->n[ord[i]];

		if (!nd->hasparent) {
			nroots++;
			s->root = ord[i];
			continue;
		}
		if ((nd->par = find(s, nd->parent)) < 0)
			tl_die("%s: rank %s: parent %lld of UID %lld is not in the group",
			    r->name, s->rank, nd->parent, nd->uid);
		addkid(&s->n[nd->par], ord[i]);
	}
	free(ord);
	/*
	 * Events other than kernels, memcpys and memsets that TraceLens links
	 * to a runtime event (Stream Sync ...) count among the gpu_events of
	 * their ancestors, but are off the GPU path and so out of the merge.
	 */
	for (i = 0; i < s->nn; i++) {
		struct node *nd = &s->n[i];
		const char *pc;

		if (nd->gpuev || nd->cpuop || nd->par < 0)
			continue;
		pc = s->n[nd->par].t[T_CAT];
		if (strcmp(nd->t[T_CAT], "cuda_runtime") != 0 &&
		    strcmp(nd->t[T_CAT], "cuda_driver") != 0 &&
		    strcmp(nd->t[T_CAT], "python_function") != 0 &&
		    (strcmp(pc, "cuda_runtime") == 0 || strcmp(pc, "cuda_driver") == 0))
			nd->extra = 1;
	}
	if (nroots != 1)
		tl_die("%s: rank %s: %d parentless events in one root group",
		    r->name, s->rank, nroots);

	/* TraceLens starts below single non-op children and rewires the root. */
	c = s->root;
	while (s->n[c].nkids == 1) {
		d = s->n[c].kids[0];
		if (s->n[d].cpuop || s->n[d].dispatch)
			break;
		c = d;
	}
	if (c != s->root) {
		/* the top-level event adopts the children of the one reached */
		struct node *rt = &s->n[s->root];

		rt->nkids = 0;
		for (i = 0; i < s->n[c].nkids; i++) {
			addkid(rt, s->n[c].kids[i]);
			s->n[s->n[c].kids[i]].par = s->root;
		}
		s->root = c;
	}
	return 1;
}

/* ---- alignment ---- */

/* Stable sort of node indices by ts (TraceLens's _sort_by_ts). */
static void
sortts(struct side *s, int *v, size_t n)
{
	size_t i, j;
	int x;

	/* insertion sort: stable, and children lists are short */
	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && s->n[v[j - 1]].ts > s->n[x].ts; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* GPU-path children of node k, in tree order. */
static void
gpukids(struct side *s, int k, struct ilist *out)
{
	size_t i;

	out->n = 0;
	if (k < 0)
		return;
	for (i = 0; i < s->n[k].nkids; i++)
		if (s->n[s->n[k].kids[i]].gpupath)
			ipush(out, s->n[k].kids[i]);
}

/* Name used by Wagner-Fischer: the name, or the UID when empty; owned. */
static char *
wfname(struct side *s, int k, int strip)
{
	char u[32];

	if (s->n[k].t[T_NAME][0] == '\0') {
		snprintf(u, sizeof(u), "%lld", s->n[k].uid);
		return normalize(u, strip);
	}
	return normalize(s->n[k].t[T_NAME], strip);
}

static void
wf(struct merge *m, const int *a, size_t na, const int *b, size_t nb,
    int strip, struct oplist *ops)
{
	char **n1 = tl_calloc(na + 1, sizeof(char *));
	char **n2 = tl_calloc(nb + 1, sizeof(char *));
	int *dp = tl_calloc((na + 1) * (nb + 1), sizeof(int));
	size_t i, j, w = nb + 1, k;
	int c, x;

	for (i = 0; i < na; i++)
		n1[i] = wfname(m->s[0], a[i], strip);
	for (j = 0; j < nb; j++)
		n2[j] = wfname(m->s[1], b[j], strip);
	for (i = 0; i <= na; i++)
		dp[i * w] = (int)i;
	for (j = 0; j <= nb; j++)
		dp[j] = (int)j;
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++) {
			c = strcmp(n1[i - 1], n2[j - 1]) != 0;
			x = dp[(i - 1) * w + j] + 1;
			if (dp[i * w + j - 1] + 1 < x)
				x = dp[i * w + j - 1] + 1;
			if (dp[(i - 1) * w + j - 1] + c < x)
				x = dp[(i - 1) * w + j - 1] + c;
			dp[i * w + j] = x;
		}
	ops->n = 0;
	i = na;
	j = nb;
	while (i > 0 || j > 0) {
		if (i > 0 && j > 0 && strcmp(n1[i - 1], n2[j - 1]) == 0) {
			opush(ops, 'm', (int)i - 1, (int)j - 1);
			i--;
			j--;
		} else if (i > 0 && (j == 0 || dp[i * w + j] == dp[(i - 1) * w + j] + 1)) {
			opush(ops, 'd', (int)i - 1, -1);
			i--;
		} else {
			opush(ops, 'i', -1, (int)j - 1);
			j--;
		}
	}
	for (k = 0; k < ops->n / 2; k++) {
		struct op t = ops->v[k];

		ops->v[k] = ops->v[ops->n - 1 - k];
		ops->v[ops->n - 1 - k] = t;
	}
	for (i = 0; i < na; i++)
		free(n1[i]);
	for (j = 0; j < nb; j++)
		free(n2[j]);
	free(n1);
	free(n2);
	free(dp);
}

/* BFS levels 1..4 of sorted normalised GPU-path child names. */
struct levels {
	const char **name[4];	/* names per level, sorted; strings not owned */
	size_t n[4];		/* names per level */
	int depth;		/* levels present */
};

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
getlevels(struct side *s, int k, struct levels *lv)
{
	struct ilist cur = {0}, nxt = {0};
	size_t i, j, cap;
	int d;

	memset(lv, 0, sizeof(*lv));
	ipush(&cur, k);
	for (d = 0; d < 4; d++) {
		nxt.n = 0;
		cap = 0;
		for (i = 0; i < cur.n; i++) {
			struct node *nd = &s->n[cur.v[i]];

			for (j = 0; j < nd->nkids; j++) {
				struct node *c = &s->n[nd->kids[j]];

				if (!c->gpupath)
					continue;
				ipush(&nxt, nd->kids[j]);
				tl_grow((void **)&lv->name[d], &cap, lv->n[d] + 1,
				    sizeof(char *));
				lv->name[d][lv->n[d]++] = c->norm ? c->norm : "";
			}
		}
		if (lv->n[d] > 1)
			qsort(lv->name[d], lv->n[d], sizeof(char *), cmpstr);
		lv->depth = d + 1;
		if (nxt.n == 0)
			break;
		cur.n = 0;
		for (i = 0; i < nxt.n; i++)
			ipush(&cur, nxt.v[i]);
	}
	free(cur.v);
	free(nxt.v);
}

static void
freelevels(struct levels *lv)
{
	int d;

	for (d = 0; d < 4; d++)
		free(lv->name[d]);
}

/* (levels equal before the first divergence, multiset overlap there) */
static void
matchdepth(const struct levels *a, const struct levels *b, int *d, int *ov)
{
	int max = a->depth > b->depth ? a->depth : b->depth, k;
	size_t i, j, na, nb;
	const char **x, **y;

	for (k = 0; k < max; k++) {
		na = k < a->depth ? a->n[k] : 0;
		nb = k < b->depth ? b->n[k] : 0;
		x = a->name[k];
		y = b->name[k];
		if (na == nb) {
			for (i = 0; i < na && strcmp(x[i], y[i]) == 0; i++)
				;
			if (i == na)
				continue;
		}
		*d = k;
		*ov = 0;
		for (i = j = 0; i < na && j < nb;) {
			int c = strcmp(x[i], y[j]);

			if (c == 0) {
				(*ov)++;
				i++;
				j++;
			} else if (c < 0) {
				i++;
			} else {
				j++;
			}
		}
		return;
	}
	*d = max;
	*ov = 0;
}

/* A scored candidate pair of the disambiguation pass. */
struct cand {
	int d;			/* levels equal */
	int ov;			/* overlap at the divergence */
	int wf;			/* the pair was a Wagner-Fischer match */
	int i, j;		/* the pair */
};

static int
cmpcand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->d != y->d)
		return y->d - x->d;
	if (x->ov != y->ov)
		return y->ov - x->ov;
	if (x->wf != y->wf)
		return y->wf - x->wf;
	if (x->i != y->i)
		return x->i - y->i;
	return x->j - y->j;
}

/* An (name, index, side) entry, to group children by name. */
struct nent {
	const char *name;	/* normalised name or NULL, not owned */
	int idx;		/* index in its list */
	int side;		/* 0 or 1 */
	int matched;		/* appears in a match op */
};

static int
cmpnent(const void *a, const void *b)
{
	const struct nent *x = a, *y = b;
	int c;

	if (x->name == NULL || y->name == NULL)
		c = (x->name != NULL) - (y->name != NULL);
	else
		c = strcmp(x->name, y->name);
	if (c != 0)
		return c;
	if (x->side != y->side)
		return x->side - y->side;
	return x->idx - y->idx;
}

/*
 * CPython 3.11's hash of the tuple (i, j) of small non-negative ints,
 * and the slot order of a set built by adding pairs one by one: the
 * disambiguation pass appends its new matches in set iteration order.
 */
static uint64_t
pyhashpair(int i, int j)
{
	const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL;
	const uint64_t p5 = 2870177450012600261ULL;
	uint64_t acc = p5, lane[2];
	int k;

	lane[0] = (uint64_t)i;
	lane[1] = (uint64_t)j;
	for (k = 0; k < 2; k++) {
		acc += lane[k] * p2;
		acc = (acc << 31) | (acc >> 33);
		acc *= p1;
	}
	acc += 2 ^ (p5 ^ 3527539ULL);
	if (acc == (uint64_t)-1)
		return 1546275796;
	return acc;
}

static void
setinsert(int *tab, uint64_t *hash, size_t mask, int v, uint64_t h)
{
	size_t i = h & mask, j;
	uint64_t perturb = h;

	for (;;) {
		if (tab[i] < 0)
			goto found;
		if (i + 9 <= mask)
			for (j = 0; j < 9; j++)
				if (tab[++i] < 0)
					goto found;
		perturb >>= 5;
		i = (i * 5 + 1 + perturb) & mask;
	}
found:
	tab[i] = v;
	hash[i] = h;
}

/* Reorder c[0..n) into the iteration order of a CPython set built from it. */
static void
pysetorder(struct cand *c, size_t n)
{
	size_t size = 8, used = 0, fill, k, newsize;
	int *tab, *nt;
	uint64_t *hs, *nh;
	struct cand *tmp;

	tab = tl_malloc(size * sizeof(int));
	hs = tl_calloc(size, sizeof(uint64_t));
	memset(tab, 0xff, size * sizeof(int));
	for (k = 0; k < n; k++) {
		setinsert(tab, hs, size - 1, (int)k, pyhashpair(c[k].i, c[k].j));
		used++;
		fill = used;
		if (fill * 5 < (size - 1) * 3)
			continue;
		for (newsize = 8; newsize <= (used > 50000 ? used * 2 : used * 4);)
			newsize <<= 1;
		nt = tl_malloc(newsize * sizeof(int));
		nh = tl_calloc(newsize, sizeof(uint64_t));
		memset(nt, 0xff, newsize * sizeof(int));
		for (size_t q = 0; q < size; q++)
			if (tab[q] >= 0)
				setinsert(nt, nh, newsize - 1, tab[q], hs[q]);
		free(tab);
		free(hs);
		tab = nt;
		hs = nh;
		size = newsize;
	}
	tmp = tl_calloc(n ? n : 1, sizeof(*tmp));
	for (k = 0, fill = 0; k < size; k++)
		if (tab[k] >= 0)
			tmp[fill++] = c[tab[k]];
	memcpy(c, tmp, n * sizeof(*c));
	free(tmp);
	free(tab);
	free(hs);
}

/* TraceLens's _disambiguate_same_name_candidates, on ops over a and b. */
static void
disambiguate(struct merge *m, const int *a, size_t na, const int *b, size_t nb,
    struct oplist *ops)
{
	struct side *s1 = m->s[0], *s2 = m->s[1];
	struct nent *e;
	size_t ne = 0, k, g, h, q, nnew = 0, newcap = 0;
	struct cand *news = NULL;
	char *h1 = tl_calloc(na + 1, 1), *h2 = tl_calloc(nb + 1, 1);
	char *as1 = tl_calloc(na + 1, 1), *as2 = tl_calloc(nb + 1, 1);
	char *wfm;
	struct oplist out = {0};
	int any = 0;

	e = tl_calloc(2 * ops->n + 1, sizeof(*e));
	for (k = 0; k < ops->n; k++) {
		struct op *o = &ops->v[k];

		if (o->i >= 0) {
			e[ne].name = s1->n[a[o->i]].norm;
			e[ne].idx = o->i;
			e[ne].side = 0;
			e[ne++].matched = o->t == 'm';
		}
		if (o->j >= 0) {
			e[ne].name = s2->n[b[o->j]].norm;
			e[ne].idx = o->j;
			e[ne].side = 1;
			e[ne++].matched = o->t == 'm';
		}
	}
	qsort(e, ne, sizeof(*e), cmpnent);
	/* pairs of the WF matches, as a flag matrix row per i (lists are short) */
	wfm = tl_calloc((na + 1) * (nb + 1), 1);
	for (k = 0; k < ops->n; k++)
		if (ops->v[k].t == 'm')
			wfm[ops->v[k].i * (nb + 1) + ops->v[k].j] = 1;
	for (g = 0; g < ne; g = h) {
		size_t c1 = 0, c2 = 0, nc = 0, ni, nj, i, j, done = 0, nmatch;
		int matched = 0;
		int *i1, *i2;
		struct levels *l1, *l2;
		struct cand *cs;

		for (h = g; h < ne && nameeq(e[h].name, e[g].name); h++) {
			if (e[h].side == 0)
				c1++;
			else
				c2++;
			matched |= e[h].matched;
		}
		if (c1 == 0 || c2 == 0 || !matched || (c1 < 2 && c2 < 2))
			continue;
		any = 1;
		i1 = tl_calloc(c1, sizeof(int));
		i2 = tl_calloc(c2, sizeof(int));
		ni = nj = 0;
		for (q = g; q < h; q++) {
			if (e[q].side == 0) {
				i1[ni++] = e[q].idx;
				h1[e[q].idx] = 1;
			} else {
				i2[nj++] = e[q].idx;
				h2[e[q].idx] = 1;
			}
		}
		l1 = tl_calloc(c1, sizeof(*l1));
		l2 = tl_calloc(c2, sizeof(*l2));
		for (i = 0; i < c1; i++)
			getlevels(s1, a[i1[i]], &l1[i]);
		for (j = 0; j < c2; j++)
			getlevels(s2, b[i2[j]], &l2[j]);
		cs = tl_calloc(c1 * c2, sizeof(*cs));
		for (i = 0; i < c1; i++)
			for (j = 0; j < c2; j++) {
				struct cand *c = &cs[nc++];

				matchdepth(&l1[i], &l2[j], &c->d, &c->ov);
				c->wf = wfm[i1[i] * (nb + 1) + i2[j]];
				c->i = i1[i];
				c->j = i2[j];
			}
		qsort(cs, nc, sizeof(*cs), cmpcand);
		nmatch = c1 < c2 ? c1 : c2;
		for (k = 0; k < nc && done < nmatch; k++) {
			if (as1[cs[k].i] || as2[cs[k].j])
				continue;
			as1[cs[k].i] = as2[cs[k].j] = 1;
			tl_grow((void **)&news, &newcap, nnew + 1, sizeof(*news));
			news[nnew++] = cs[k];
			done++;
		}
		for (i = 0; i < c1; i++)
			freelevels(&l1[i]);
		for (j = 0; j < c2; j++)
			freelevels(&l2[j]);
		free(l1);
		free(l2);
		free(cs);
		free(i1);
		free(i2);
	}
	if (any) {
		for (k = 0; k < nnew; k++)
			if (!wfm[news[k].i * (nb + 1) + news[k].j])
				break;
		if (k < nnew) {
			for (k = 0; k < ops->n; k++) {
				struct op *o = &ops->v[k];

				if ((o->t == 'm' && (h1[o->i] || h2[o->j])) ||
				    (o->t == 'd' && h1[o->i]) ||
				    (o->t == 'i' && h2[o->j]))
					continue;
				opush(&out, o->t, o->i, o->j);
			}
			pysetorder(news, nnew);
			for (k = 0; k < nnew; k++)
				opush(&out, 'm', news[k].i, news[k].j);
			for (k = 0; k < na; k++)
				if (h1[k] && !as1[k])
					opush(&out, 'd', (int)k, -1);
			for (k = 0; k < nb; k++)
				if (h2[k] && !as2[k])
					opush(&out, 'i', -1, (int)k);
			free(ops->v);
			*ops = out;
		}
	}
	free(news);
	free(wfm);
	free(e);
	free(h1);
	free(h2);
	free(as1);
	free(as2);
}

static void
alignedwf(struct merge *m, const int *a, size_t na, const int *b, size_t nb,
    int strip, struct oplist *ops)
{
	wf(m, a, na, b, nb, strip, ops);
	disambiguate(m, a, na, b, nb, ops);
}

static int
anydispatch(struct side *s, const int *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s->n[v[i]].dispatch)
			return 1;
	return 0;
}

/*
 * Descend from k through single-GPU-path-child wrappers (TraceLens's
 * collapse_single_gpu_child); kids gets the GPU-path children of the
 * node reached when it stopped on a count other than one.
 */
static int
collapse(struct side *s, int k, struct ilist *kids)
{
	struct ilist g = {0};
	size_t i;

	kids->n = 0;
	for (;;) {
		struct node *nd = &s->n[k];

		if (nd->dispatch)
			break;
		if (nd->cpuop) {
			for (i = 0; i < nd->nkids; i++)
				if (s->n[nd->kids[i]].dispatch)
					break;
			if (i < nd->nkids)
				break;
		}
		gpukids(s, k, &g);
		if (g.n != 1) {
			for (i = 0; i < g.n; i++)
				ipush(kids, g.v[i]);
			break;
		}
		k = g.v[0];
	}
	free(g.v);
	return k;
}

/* Children lists of a pair, with missing names added (get_children_with_missing). */
static void
childlists(struct merge *m, int u1, int u2, struct ilist *c1, struct ilist *c2)
{
	struct side *s[2] = { m->s[0], m->s[1] };
	struct ilist *c[2] = { c1, c2 };
	int u[2] = { u1, u2 }, x, y;
	size_t k, q, n0[2];

	for (x = 0; x < 2; x++)
		gpukids(s[x], u[x], c[x]);
	n0[0] = c1->n;
	n0[1] = c2->n;
	for (x = 0; x < 2; x++) {
		y = 1 - x;
		if (u[y] < 0)
			continue;
		/* names on x's GPU path but not on y's: y's last child of that name */
		for (k = 0; k < n0[x]; k++) {
			const char *nm = s[x]->n[c[x]->v[k]].norm;
			struct node *py = &s[y]->n[u[y]];
			int last = -1;

			for (q = 0; q < k; q++)
				if (nameeq(s[x]->n[c[x]->v[q]].norm, nm))
					break;
			if (q < k)
				continue;	/* seen */
			for (q = 0; q < n0[y]; q++)
				if (nameeq(s[y]->n[c[y]->v[q]].norm, nm))
					break;
			if (q < n0[y])
				continue;	/* on y's GPU path too */
			for (q = 0; q < py->nkids; q++)
				if (nameeq(s[y]->n[py->kids[q]].norm, nm))
					last = py->kids[q];
			if (last >= 0)
				ipush(c[y], last);
		}
	}
	sortts(s[0], c1->v, c1->n);
	sortts(s[1], c2->v, c2->n);
}

/* TraceLens's reconcile_unmatched; 1 when lists changed. */
static int
reconcile(struct merge *m, struct oplist *ops, struct ilist *c1, struct ilist *c2)
{
	struct side *s1 = m->s[0], *s2 = m->s[1];
	struct ilist d = {0}, in = {0}, im1 = {0}, im2 = {0}, n1 = {0}, n2 = {0};
	char *sub1, *sub2;
	size_t k, a, b, q;
	int changed = 0;

	for (k = 0; k < ops->n; k++) {
		if (ops->v[k].t == 'd')
			ipush(&d, ops->v[k].i);
		else if (ops->v[k].t == 'i')
			ipush(&in, ops->v[k].j);
	}
	if (d.n == 0 || in.n == 0) {
		free(d.v);
		free(in.v);
		return 0;
	}
	sub1 = tl_calloc(c1->n + 1, 1);
	sub2 = tl_calloc(c2->n + 1, 1);
	for (a = 0; a < d.n; a++)
		for (b = 0; b < in.n; b++) {
			struct node *nd = &s1->n[c1->v[d.v[a]]];
			struct node *ni = &s2->n[c2->v[in.v[b]]];
			int skipd = nd->dispatch || strcmp(nd->t[T_CAT], "kernel") == 0;
			int skipi = ni->dispatch || strcmp(ni->t[T_CAT], "kernel") == 0;

			if (skipd || skipi)
				continue;
			gpukids(s1, c1->v[d.v[a]], &im1);
			gpukids(s2, c2->v[in.v[b]], &im2);
			if (nd->norm != NULL)
				for (q = 0; q < im2.n; q++)
					if (nameeq(s2->n[im2.v[q]].norm, nd->norm)) {
						sub2[in.v[b]] = 1;
						break;
					}
			if (ni->norm != NULL)
				for (q = 0; q < im1.n; q++)
					if (nameeq(s1->n[im1.v[q]].norm, ni->norm)) {
						sub1[d.v[a]] = 1;
						break;
					}
			if (im1.n > 0 && im1.n == im2.n) {
				for (q = 0; q < im1.n; q++)
					if (!nameeq(s1->n[im1.v[q]].norm, s2->n[im2.v[q]].norm))
						break;
				if (q == im1.n)
					sub1[d.v[a]] = sub2[in.v[b]] = 1;
			}
		}
	for (k = 0; k < c1->n; k++)
		changed |= sub1[k];
	for (k = 0; k < c2->n; k++)
		changed |= sub2[k];
	if (changed) {
		for (k = 0; k < c1->n; k++) {
			if (!sub1[k]) {
				ipush(&n1, c1->v[k]);
				continue;
			}
			gpukids(s1, c1->v[k], &im1);
			for (q = 0; q < im1.n; q++)
				ipush(&n1, im1.v[q]);
		}
		for (k = 0; k < c2->n; k++) {
			if (!sub2[k]) {
				ipush(&n2, c2->v[k]);
				continue;
			}
			gpukids(s2, c2->v[k], &im2);
			for (q = 0; q < im2.n; q++)
				ipush(&n2, im2.v[q]);
		}
		sortts(s1, n1.v, n1.n);
		sortts(s2, n2.v, n2.n);
	}
	if (changed) {
		/* pinned matches keep their pairs; the rest is aligned again */
		struct oplist nops = {0}, fops = {0};
		struct ilist f1 = {0}, f2 = {0}, fi1 = {0}, fi2 = {0};
		char *p1 = tl_calloc(n1.n + 1, 1), *p2 = tl_calloc(n2.n + 1, 1);

		for (k = 0; k < ops->n; k++) {
			int ri = -1, rj = -1;

			if (ops->v[k].t != 'm')
				continue;
			for (q = 0; q < n1.n; q++)
				if (n1.v[q] == c1->v[ops->v[k].i])
					ri = (int)q;
			for (q = 0; q < n2.n; q++)
				if (n2.v[q] == c2->v[ops->v[k].j])
					rj = (int)q;
			if (ri >= 0 && rj >= 0) {
				opush(&nops, 'm', ri, rj);
				p1[ri] = p2[rj] = 1;
			}
		}
		for (q = 0; q < n1.n; q++)
			if (!p1[q]) {
				ipush(&f1, (int)q);
				ipush(&fi1, n1.v[q]);
			}
		for (q = 0; q < n2.n; q++)
			if (!p2[q]) {
				ipush(&f2, (int)q);
				ipush(&fi2, n2.v[q]);
			}
		if (f1.n > 0 && f2.n > 0) {
			if (f1.n == f2.n && !anydispatch(s1, fi1.v, fi1.n) &&
			    !anydispatch(s2, fi2.v, fi2.n)) {
				for (q = 0; q < f1.n; q++)
					opush(&fops, 'm', (int)q, (int)q);
			} else {
				alignedwf(m, fi1.v, fi1.n, fi2.v, fi2.n, 0, &fops);
			}
			for (q = 0; q < fops.n; q++)
				opush(&nops, fops.v[q].t,
				    fops.v[q].i >= 0 ? f1.v[fops.v[q].i] : -1,
				    fops.v[q].j >= 0 ? f2.v[fops.v[q].j] : -1);
		} else {
			for (q = 0; q < f1.n; q++)
				opush(&nops, 'd', f1.v[q], -1);
			for (q = 0; q < f2.n; q++)
				opush(&nops, 'i', -1, f2.v[q]);
		}
		free(ops->v);
		*ops = nops;
		free(c1->v);
		free(c2->v);
		*c1 = n1;
		*c2 = n2;
		n1.v = n2.v = NULL;
		free(fops.v);
		free(f1.v);
		free(f2.v);
		free(fi1.v);
		free(fi2.v);
		free(p1);
		free(p2);
	}
	free(n1.v);
	free(n2.v);
	free(sub1);
	free(sub2);
	free(d.v);
	free(in.v);
	free(im1.v);
	free(im2.v);
	return changed;
}

/* Phase 4: collapse the unmatched and align them again. */
static void
recollapse(struct merge *m, struct oplist *ops, struct ilist *c1, struct ilist *c2)
{
	struct ilist u1 = {0}, u2 = {0}, k1 = {0}, k2 = {0}, dummy = {0};
	struct ilist s1 = {0}, s2 = {0}, x1 = {0}, x2 = {0};
	struct oplist p1 = {0}, p2 = {0}, co = {0}, nops = {0};
	size_t k;

	for (k = 0; k < ops->n; k++) {
		if (ops->v[k].t == 'd')
			ipush(&u1, ops->v[k].i);
		else if (ops->v[k].t == 'i')
			ipush(&u2, ops->v[k].j);
	}
	if (u1.n == 0 || u2.n == 0)
		goto out;
	for (k = 0; k < u1.n; k++)
		ipush(&k1, collapse(m->s[0], c1->v[u1.v[k]], &dummy));
	for (k = 0; k < u2.n; k++)
		ipush(&k2, collapse(m->s[1], c2->v[u2.v[k]], &dummy));
	alignedwf(m, k1.v, k1.n, k2.v, k2.n, 0, &p1);
	for (k = 0; k < p1.n; k++) {
		if (p1.v[k].t == 'd')
			ipush(&s1, p1.v[k].i);
		else if (p1.v[k].t == 'i')
			ipush(&s2, p1.v[k].j);
	}
	if (s1.n > 0 && s2.n > 0) {
		for (k = 0; k < s1.n; k++)
			ipush(&x1, k1.v[s1.v[k]]);
		for (k = 0; k < s2.n; k++)
			ipush(&x2, k2.v[s2.v[k]]);
		alignedwf(m, x1.v, x1.n, x2.v, x2.n, 1, &p2);
		for (k = 0; k < p1.n; k++)
			if (p1.v[k].t == 'm')
				opush(&co, 'm', p1.v[k].i, p1.v[k].j);
		for (k = 0; k < p2.n; k++)
			opush(&co, p2.v[k].t,
			    p2.v[k].i >= 0 ? s1.v[p2.v[k].i] : -1,
			    p2.v[k].j >= 0 ? s2.v[p2.v[k].j] : -1);
	} else {
		for (k = 0; k < p1.n; k++)
			opush(&co, p1.v[k].t, p1.v[k].i, p1.v[k].j);
	}
	for (k = 0; k < ops->n; k++)
		if (ops->v[k].t == 'm')
			opush(&nops, 'm', ops->v[k].i, ops->v[k].j);
	for (k = 0; k < co.n; k++) {
		int oi = co.v[k].i >= 0 ? u1.v[co.v[k].i] : -1;
		int oj = co.v[k].j >= 0 ? u2.v[co.v[k].j] : -1;

		if (oi >= 0)
			c1->v[oi] = k1.v[co.v[k].i];
		if (oj >= 0)
			c2->v[oj] = k2.v[co.v[k].j];
		opush(&nops, co.v[k].t, oi, oj);
	}
	free(ops->v);
	*ops = nops;
	nops.v = NULL;
out:
	free(u1.v);
	free(u2.v);
	free(k1.v);
	free(k2.v);
	free(dummy.v);
	free(s1.v);
	free(s2.v);
	free(x1.v);
	free(x2.v);
	free(p1.v);
	free(p2.v);
	free(co.v);
}

/* ---- output ---- */

static void
putside(FILE *fp, struct side *s, int k)
{
	struct node *nd;

	if (k < 0) {
		fputs("\t\t\t\t\t\t\t\t\t\t\t\t\t\t", fp);
		return;
	}
	nd = &s->n[k];
	fprintf(fp, "\t%lld\t", nd->uid);
	rec_puts(fp, nd->t[T_CAT]);
	putc('\t', fp);
	rec_puts(fp, nd->t[T_NAME]);
	fprintf(fp, "\t%d\t", nd->gpupath);
	if (!nd->gpuev)
		rec_puts(fp, nd->t[T_NGPU][0] ? nd->t[T_NGPU] : "0");
	putc('\t', fp);
	rec_puts(fp, nd->t[T_TS]);
	putc('\t', fp);
	rec_puts(fp, nd->t[T_DUR]);
	putc('\t', fp);
	if ((nd->gpuev || nd->extra) && nd->hasparent)
		fprintf(fp, "%lld", nd->parent);
	if (nd->extra) {
		/* its nearest cpu_op, as tl-tree gives it for GPU events */
		int c = nd->par;

		while (c >= 0 && !s->n[c].cpuop)
			c = s->n[c].par;
		if (c < 0) {
			fputs("\t\t\t\t\t\t", fp);
			return;
		}
		fprintf(fp, "\t%lld\t", s->n[c].uid);
		rec_puts(fp, s->n[c].t[T_NAME]);
		for (int t = T_DIMS; t <= T_CONCRETE; t++) {
			putc('\t', fp);
			rec_puts(fp, s->n[c].t[t]);
		}
		return;
	}
	for (int t = T_CPUOP; t <= T_CONCRETE; t++) {
		putc('\t', fp);
		if (nd->gpuev)
			rec_puts(fp, nd->t[t]);
	}
}

/* The linked events off the GPU path below side x's event k, as records with no mid. */
static void
putextras(struct merge *m, int x, int k, long long id)
{
	struct side *s = m->s[x];
	size_t i;

	if (k < 0)
		return;
	for (i = 0; i < s->n[k].nkids; i++) {
		int c = s->n[k].kids[i];

		if (!s->n[c].extra)
			continue;
		fprintf(m->out, "\t%lld\t%lld\ttrace%d\t\t", id, m->rootidx, x + 1);
		putside(m->out, m->s[0], x == 0 ? c : -1);
		putside(m->out, m->s[1], x == 1 ? c : -1);
		putc('\n', m->out);
	}
}

/*
 * Remember the pair (u1, u2); TraceLens would reuse the merged node of a
 * pair seen before, which makes the merged tree a DAG: refuse that.
 * An open-addressing set, emptied per root pair.
 */
static void
mark(struct merge *m, int u1, int u2)
{
	uint64_t key = ((uint64_t)(uint32_t)(u1 + 1) << 32) | (uint32_t)(u2 + 1);
	size_t i, mask;

	if (2 * (m->nseen + 1) > m->seencap) {
		long long *old = m->seen;
		size_t oldcap = m->seencap, k;

		m->seencap = oldcap ? 2 * oldcap : 1024;
		m->seen = tl_calloc(m->seencap, sizeof(*m->seen));
		mask = m->seencap - 1;
		for (k = 0; k < m->nseen; k++) {
			long long v = old[m->used[k]];

			for (i = ((uint64_t)v * 0x9e3779b97f4a7c15ULL) >> 20 & mask;
			    m->seen[i] != 0; i = (i + 1) & mask)
				;
			m->seen[i] = v;
			m->used[k] = i;
		}
		free(old);
	}
	mask = m->seencap - 1;
	for (i = (key * 0x9e3779b97f4a7c15ULL) >> 20 & mask; m->seen[i] != 0;
	    i = (i + 1) & mask)
		if ((uint64_t)m->seen[i] == key)
			tl_die("rank %s/%s: the pair (%lld, %lld) is merged twice; the merged tree would not be a tree",
			    m->s[0]->rank ? m->s[0]->rank : "-",
			    m->s[1]->rank ? m->s[1]->rank : "-",
			    u1 >= 0 ? m->s[0]->n[u1].uid : -1,
			    u2 >= 0 ? m->s[1]->n[u2].uid : -1);
	m->seen[i] = (long long)key;
	tl_grow((void **)&m->used, &m->usedcap, m->nseen + 1, sizeof(*m->used));
	m->used[m->nseen++] = i;
}

/* Empty the pair set for the next root pair. */
static void
unmark(struct merge *m)
{
	size_t k;

	for (k = 0; k < m->nseen; k++)
		m->seen[m->used[k]] = 0;
	m->nseen = 0;
}

/* Write the merged node of (u1, u2) and align its children into f. */
static void
visit(struct merge *m, int u1, int u2, long long parent, struct frame *f)
{
	struct side *s1 = m->s[0], *s2 = m->s[1];
	struct ilist c1 = {0}, c2 = {0}, deeper = {0};
	struct oplist ops = {0};
	long long id = m->nextid++;
	int k1 = u1, k2 = u2, c;
	size_t k;

	mark(m, u1, u2);
	childlists(m, u1, u2, &c1, &c2);

	/* Phase 1: a single child facing several is descended through wrappers */
	if (c1.n != c2.n) {
		if (c1.n == 1) {
			c = collapse(s1, c1.v[0], &deeper);
			if (deeper.n > 0) {
				u1 = c;
				free(c1.v);
				c1 = deeper;
				deeper.v = NULL;
				deeper.n = deeper.cap = 0;
			}
		} else if (c2.n == 1) {
			c = collapse(s2, c2.v[0], &deeper);
			if (deeper.n > 0) {
				u2 = c;
				free(c2.v);
				c2 = deeper;
				deeper.v = NULL;
				deeper.n = deeper.cap = 0;
			}
		}
	}
	free(deeper.v);
	/* Phase 2 */
	if (c1.n == c2.n && !anydispatch(s1, c1.v, c1.n) && !anydispatch(s2, c2.v, c2.n)) {
		for (k = 0; k < c1.n; k++)
			opush(&ops, 'm', (int)k, (int)k);
	} else {
		alignedwf(m, c1.v, c1.n, c2.v, c2.n, 0, &ops);
	}
	/* Phase 3 */
	for (k = 0; k < ops.n; k++)
		if (ops.v[k].t != 'm')
			break;
	if (k < ops.n)
		reconcile(m, &ops, &c1, &c2);
	/* Phase 4 */
	recollapse(m, &ops, &c1, &c2);

	fprintf(m->out, "%lld\t", id);
	if (parent >= 0)
		fprintf(m->out, "%lld", parent);
	fprintf(m->out, "\t%lld\t%s\t", m->rootidx,
	    u1 >= 0 && u2 >= 0 ? "combined" : u1 >= 0 ? "trace1" : "trace2");
	if (k1 >= 0)
		fprintf(m->out, "%lld", s1->n[k1].uid);
	putc('\t', m->out);
	if (k2 >= 0)
		fprintf(m->out, "%lld", s2->n[k2].uid);
	putside(m->out, s1, u1);
	putside(m->out, s2, u2);
	putc('\n', m->out);
	putextras(m, 0, u1, id);
	putextras(m, 1, u2, id);

	f->ops = ops;
	f->c1 = c1;
	f->c2 = c2;
	f->id = id;
	f->next = 0;
}

/* Merge the pair of roots (u1, u2) and everything below, in pre-order. */
static void
merge(struct merge *m, int u1, int u2)
{
	struct frame *st = m->stack, *f;
	size_t n = 0;

	tl_grow((void **)&st, &m->stackcap, 1, sizeof(*st));
	visit(m, u1, u2, -1, &st[n++]);
	while (n > 0) {
		f = &st[n - 1];
		if (f->next < f->ops.n) {
			struct op *o = &f->ops.v[f->next++];
			int a = o->i >= 0 ? f->c1.v[o->i] : -1;
			int b = o->j >= 0 ? f->c2.v[o->j] : -1;
			long long id = f->id;

			tl_grow((void **)&st, &m->stackcap, n + 1, sizeof(*st));
			visit(m, a, b, id, &st[n++]);
		} else {
			free(f->ops.v);
			free(f->c1.v);
			free(f->c2.v);
			n--;
		}
	}
	m->stack = st;
}

static void
tldiff(struct side *a, struct side *b, FILE *out)
{
	struct merge m;
	int more1, more2;

	memset(&m, 0, sizeof(m));
	m.s[0] = a;
	m.s[1] = b;
	m.out = out;
	rec_write(out, outhdr, LEN(outhdr));
	more1 = side_next(a);
	more2 = side_next(b);
	if (!more1)
		tl_die("%s: no CPU op trees (TraceLens needs cpu_root_nodes in both traces)", a->r.name);
	if (!more2)
		tl_die("%s: no CPU op trees (TraceLens needs cpu_root_nodes in both traces)", b->r.name);
	while (more1 || more2) {
		unmark(&m);
		merge(&m, more1 ? a->root : -1, more2 ? b->root : -1);
		m.rootidx++;
		if (more1)
			more1 = side_next(a);
		if (more2)
			more2 = side_next(b);
	}
	free(m.seen);
	free(m.used);
	free(m.stack);
}

int
main(int argc, char *argv[])
{
	struct side a, b;
	int ch, st;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "")) != -1)
		usage(TL_EUSAGE);
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage(TL_EUSAGE);
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		tl_usage_die("only one input can be stdin");
	side_open(&a, argv[0]);
	side_open(&b, argv[1]);
	tldiff(&a, &b, stdout);
	st = tl_fshut(stdout, "<stdout>");
	side_free_group(&a);
	side_free_group(&b);
	free(a.n);
	free(b.n);
	free(a.rank);
	free(b.rank);
	free(a.prevrank);
	free(b.prevrank);
	rec_close(&a.r);
	rec_close(&b.r);
	if (a.fp != stdin)
		fclose(a.fp);
	if (b.fp != stdin)
		fclose(b.fp);
	return st;
}
