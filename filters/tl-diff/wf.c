/* See LICENSE file for copyright and license details. */
/*
 * wf.c: the alignment of two children lists: Wagner-Fischer on their
 * normalised names, then TraceLens's disambiguation pass over the
 * unmatched (by the names of their GPU-path descendants).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "diff.h"

/* Stable sort of node indices by ts (TraceLens's _sort_by_ts). */
void
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
void
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

/*
 * Name used by Wagner-Fischer: the name, or the UID when empty; owned
 * (*own set) unless it is the node's own normalised name (norm), which
 * is the name without strip.
 */
static char *
wfname(struct side *s, int k, int strip, unsigned char *own)
{
	char u[32];

	*own = 1;
	if (s->n[k].t[T_NAME][0] == '\0') {
		snprintf(u, sizeof(u), "%lld", s->n[k].uid);
		return normalize(u, strip);
	}
	if (!strip && s->n[k].norm != NULL) {
		*own = 0;
		return s->n[k].norm;
	}
	return normalize(s->n[k].t[T_NAME], strip);
}

static void
wf(struct merge *m, const int *a, size_t na, const int *b, size_t nb,
    int strip, struct oplist *ops)
{
	char **n1 = tl_calloc(na + 1, sizeof(char *));
	char **n2 = tl_calloc(nb + 1, sizeof(char *));
	unsigned char *o1 = tl_calloc(na + 1, 1), *o2 = tl_calloc(nb + 1, 1);
	int *dp = tl_calloc((na + 1) * (nb + 1), sizeof(int));
	size_t i, j, w = nb + 1, k;
	int c, x;

	for (i = 0; i < na; i++)
		n1[i] = wfname(m->s[0], a[i], strip, &o1[i]);
	for (j = 0; j < nb; j++)
		n2[j] = wfname(m->s[1], b[j], strip, &o2[j]);
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
		if (o1[i])
			free(n1[i]);
	for (j = 0; j < nb; j++)
		if (o2[j])
			free(n2[j]);
	free(n1);
	free(n2);
	free(o1);
	free(o2);
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

void
alignedwf(struct merge *m, const int *a, size_t na, const int *b, size_t nb,
    int strip, struct oplist *ops)
{
	wf(m, a, na, b, nb, strip, ops);
	disambiguate(m, a, na, b, nb, ops);
}
