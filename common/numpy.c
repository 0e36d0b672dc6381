/* See LICENSE file for copyright and license details. */
/*
 * numpy.c: numpy 1.24's pairwise_sum (umath/loops_utils.h) in its
 * iterator's blocks, its aquicksort_ and aheapsort_ (npysort/
 * quicksort.cpp, heapsort.cpp) for doubles, step for step, and pandas
 * 1.5's nargsort around them (numpy.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "numpy.h"

#define PW_BLOCKSIZE 128	/* numpy's: a run summed by 8 partial sums */

/* numpy's pairwise_sum of a[0..n). */
static double
pairwise(const double *a, size_t n)
{
	double r[8], res;
	size_t i, j, n2;

	if (n < 8) {
		res = 0.;
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= PW_BLOCKSIZE) {
		for (j = 0; j < 8; j++)
			r[j] = a[j];
		for (i = 8; i < n - (n % 8); i += 8)
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) +
		    ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	n2 = n / 2;
	n2 -= n2 % 8;
	return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

double
np_sum(const double *a, size_t n)
{
	double s = 0.;
	size_t i;

	for (i = 0; i < n; i += NP_BLOCK)
		s += pairwise(a + i, n - i < NP_BLOCK ? n - i : NP_BLOCK);
	return s;
}

double
np_round2(double x)
{
	return rint(x * 100) / 100;
}

/*
 * The plan of pairwise() over n values: its leaves in order (their
 * sizes) and, after each, the additions of two halves (0) it makes.
 */
static void
plan(struct np_cols *c, size_t n)
{
	size_t n2;

	if (n <= PW_BLOCKSIZE) {
		tl_grow((void **)&c->plan, &c->pcap, c->nplan + 1,
		    sizeof(*c->plan));
		c->plan[c->nplan++] = (int)n;
		return;
	}
	n2 = n / 2;
	n2 -= n2 % 8;
	plan(c, n2);
	plan(c, n - n2);
	tl_grow((void **)&c->plan, &c->pcap, c->nplan + 1, sizeof(*c->plan));
	c->plan[c->nplan++] = 0;
}

/* Per column: r[8], res, sp, the stack (depth < 16), the total. */
#define ST_R	0
#define ST_RES	8
#define ST_SP	9
#define ST_STK	10
#define ST_TOT	26
#define ST_N	27

void
np_cols_init(struct np_cols *c, size_t ncol, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->ncol = ncol;
	c->n = n;
	c->st = tl_calloc(ncol ? ncol * ST_N : 1, sizeof(*c->st));
}

void
np_cols_row(struct np_cols *c, const double *v)
{
	size_t j, L, full;
	double *s, x;
	int sp;

	if (c->bpos == c->blk) {
		/* a new block: its plan */
		c->blk = c->n - c->row < NP_BLOCK ? c->n - c->row : NP_BLOCK;
		c->bpos = 0;
		c->nplan = 0;
		plan(c, c->blk);
		c->pi = 0;
		c->lpos = 0;
	}
	L = (size_t)c->plan[c->pi];
	full = L < 8 ? 0 : L - L % 8;
	for (j = 0; j < c->ncol; j++) {
		s = c->st + j * ST_N;
		x = v[j];
		if (L < 8) {
			s[ST_RES] = (c->lpos == 0 ? 0. : s[ST_RES]) + x;
			continue;
		}
		if (c->lpos < 8)
			s[ST_R + c->lpos] = x;
		else if (c->lpos < full)
			s[ST_R + c->lpos % 8] += x;
		if (c->lpos + 1 == full)
			s[ST_RES] = ((s[ST_R] + s[ST_R + 1]) +
			    (s[ST_R + 2] + s[ST_R + 3])) +
			    ((s[ST_R + 4] + s[ST_R + 5]) +
			    (s[ST_R + 6] + s[ST_R + 7]));
		else if (c->lpos >= full)
			s[ST_RES] += x;
	}
	c->row++;
	c->bpos++;
	if (++c->lpos < L)
		return;
	/* the leaf is done: push it, then make the additions after it */
	for (j = 0; j < c->ncol; j++) {
		s = c->st + j * ST_N;
		sp = (int)s[ST_SP];
		s[ST_STK + sp++] = s[ST_RES];
		s[ST_SP] = sp;
	}
	c->lpos = 0;
	for (c->pi++; c->pi < c->nplan && c->plan[c->pi] == 0; c->pi++)
		for (j = 0; j < c->ncol; j++) {
			s = c->st + j * ST_N;
			sp = (int)s[ST_SP];
			s[ST_STK + sp - 2] += s[ST_STK + sp - 1];
			s[ST_SP] = sp - 1;
		}
	if (c->bpos == c->blk)
		for (j = 0; j < c->ncol; j++) {
			s = c->st + j * ST_N;
			s[ST_TOT] += s[ST_STK];
			s[ST_SP] = 0;
		}
}

double
np_cols_sum(const struct np_cols *c, size_t j)
{
	return c->st[j * ST_N + ST_TOT];
}

void
np_cols_free(struct np_cols *c)
{
	free(c->plan);
	free(c->st);
	memset(c, 0, sizeof(*c));
}

#define SMALL_QUICKSORT 15
#define QS_STACK 128	/* numpy's PYA_QS_STACK: 2 * bits of npy_intp */

/* numpy's Tag::less for doubles: NaN after everything. */
static int
lt(double a, double b)
{
	return a < b || (b != b && a == a);
}

#define SWAP(a, b) do { uint32_t t_ = (a); (a) = (b); (b) = t_; } while (0)

/* Sift tmp down from a[i] in the heap a[1..n] (numpy's inner loop). */
static void
sift(const double *v, uint32_t *a, size_t i, size_t n, uint32_t tmp)
{
	size_t j;

	for (j = i << 1; j <= n;) {
		if (j < n && lt(v[a[j]], v[a[j + 1]]))
			j += 1;
		if (lt(v[tmp], v[a[j]])) {
			a[i] = a[j];
			i = j;
			j += j;
		} else
			break;
	}
	a[i] = tmp;
}

static void
aheapsort(const double *v, uint32_t *tosort, size_t n)
{
	uint32_t *a = tosort - 1, tmp;
	size_t l;

	for (l = n >> 1; l > 0; --l)
		sift(v, a, l, n, a[l]);
	for (; n > 1;) {
		tmp = a[n];
		a[n] = a[1];
		n -= 1;
		sift(v, a, 1, n, tmp);
	}
}

void
np_argsort(const double *v, uint32_t *tosort, size_t num)
{
	uint32_t *pl = tosort, *pr = tosort + num - 1;
	uint32_t *stack[QS_STACK], **sptr = stack;
	uint32_t *pm, *pi, *pj, *pk, vi;
	int depth[QS_STACK], *psdepth = depth, cdepth = 0;
	size_t u = num;
	double vp;

	if (num < 2)
		return;
	while (u >>= 1)
		cdepth++;
	cdepth *= 2;
	for (;;) {
		if (cdepth < 0) {
			aheapsort(v, pl, (size_t)(pr - pl) + 1);
			goto pop;
		}
		while (pr - pl > SMALL_QUICKSORT) {
			pm = pl + ((pr - pl) >> 1);
			if (lt(v[*pm], v[*pl]))
				SWAP(*pm, *pl);
			if (lt(v[*pr], v[*pm]))
				SWAP(*pr, *pm);
			if (lt(v[*pm], v[*pl]))
				SWAP(*pm, *pl);
			vp = v[*pm];
			pi = pl;
			pj = pr - 1;
			SWAP(*pm, *pj);
			for (;;) {
				do
					++pi;
				while (lt(v[*pi], vp));
				do
					--pj;
				while (lt(vp, v[*pj]));
				if (pi >= pj)
					break;
				SWAP(*pi, *pj);
			}
			pk = pr - 1;
			SWAP(*pi, *pk);
			/* the larger partition waits on the stack */
			if (pi - pl < pr - pi) {
				*sptr++ = pi + 1;
				*sptr++ = pr;
				pr = pi - 1;
			} else {
				*sptr++ = pl;
				*sptr++ = pi - 1;
				pl = pi + 1;
			}
			*psdepth++ = --cdepth;
		}
		for (pi = pl + 1; pi <= pr; ++pi) {
			vi = *pi;
			vp = v[vi];
			pj = pi;
			pk = pi - 1;
			while (pj > pl && lt(vp, v[*pk]))
				*pj-- = *pk--;
			*pj = vi;
		}
pop:
		if (sptr == stack)
			break;
		pr = *(--sptr);
		pl = *(--sptr);
		cdepth = *(--psdepth);
	}
}

void
pd_order(const double *v, size_t n, int desc, uint32_t *ord)
{
	size_t i, m = 0, k;

	if (n > UINT32_MAX)
		tl_die("%zu rows: more than 2^32 - 1 to order", n);
	/*
	 * the rows that are not NaN, reversed when descending, then the
	 * NaN rows; numpy sorts a compacted copy of the values with an
	 * identity index, but comparing v[ord[i]] makes the same
	 * comparisons and swaps without the copy
	 */
	for (i = 0; i < n; i++)
		if (v[i] == v[i])
			ord[m++] = (uint32_t)i;
	for (i = 0, k = m; i < n; i++)
		if (v[i] != v[i])
			ord[k++] = (uint32_t)i;
	if (desc)
		for (i = 0; i < m / 2; i++)
			SWAP(ord[i], ord[m - 1 - i]);
	np_argsort(v, ord, m);
	if (desc)
		for (i = 0; i < m / 2; i++)
			SWAP(ord[i], ord[m - 1 - i]);
}
