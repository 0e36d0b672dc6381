/* See LICENSE file for copyright and license details. */
/*
 * side.c: reading one input a root group at a time: its nodes, their
 * children and the root the merge starts at, as TraceLens builds them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "diff.h"

/* Input columns: rank, UID, parent, then the text fields in T_ order. */
static const char *const incols[] = {
	"rank", "UID", "parent", "cat", "name", "ts", "dur", "ngpu", "cpu_op",
	"cpu_op_name", "Input Dims", "Input type", "Input Strides",
	"Concrete Inputs"
};
_Static_assert(LEN(incols) == NIN, "incols[] and NIN disagree");

static int
isgraphlaunch(const char *name)
{
	return strcmp(name, "hipGraphLaunch") == 0 ||
	    strcmp(name, "cudaGraphLaunch") == 0;
}

void
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

void
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
int
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
