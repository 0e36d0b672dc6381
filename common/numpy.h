/* See LICENSE file for copyright and license details. */
/*
 * numpy.h: numpy's arithmetic where its order shows in the last digit
 * or in the order of rows.
 *
 * Sums: np.sum (and pandas' Series.sum and mean, which call it) adds
 * a float64 array in blocks of 8192 values (its iterator's buffer),
 * each block pairwise (8 partial sums over runs of up to 128 values,
 * halves above), the blocks one after another.
 *
 * Order: pandas' sort_values on one float column sorts with numpy's
 * argsort(kind="quicksort"), an introsort that is not stable: a sheet
 * keeps TraceLens's order of equal values only if the same algorithm
 * sorts the same array.
 */
#ifndef NUMPY_H
#define NUMPY_H

#include <stddef.h>
#include <stdint.h>

#define NP_BLOCK 8192	/* values numpy sums pairwise at a time */

/*
 * numpy's argsort(kind="quicksort") of v: permutes idx[0..n) in place,
 * comparing v[idx[i]] (4 bytes a row: the indices are 32-bit).
 */
void np_argsort(const double *v, uint32_t *idx, size_t n);
/*
 * pandas' nargsort: ord[0..n) receives the row numbers of v[0..n) in
 * sort_values order, ascending or descending (desc), NaN rows last in
 * their own order.  No memory beyond ord; n < 2^32, or it dies.
 */
void pd_order(const double *v, size_t n, int desc, uint32_t *ord);

/* np.sum of a[0..n). */
double np_sum(const double *a, size_t n);

/* numpy's round(x, 2), which pandas' round(2) calls: rint(x * 100) / 100. */
double np_round2(double x);

/*
 * np.sum of many columns of n values each, fed a row at a time, for a
 * table too large to hold: np_cols_init(c, ncol, n), then n times
 * np_cols_row(c, row) with the row's ncol values, then np_cols_sum(c,
 * j) is np.sum of column j.  Memory: about 200 bytes a column.
 */
struct np_cols {
	size_t ncol;	/* columns */
	size_t n;	/* rows in all */
	size_t row;	/* rows fed so far */
	size_t blk;	/* rows of the current block */
	size_t bpos;	/* rows of it fed so far */
	int *plan;	/* the block's leaves (> 0, their sizes) and adds (0) */
	size_t nplan;	/* entries in plan */
	size_t pcap;	/* allocated size of plan */
	size_t pi;	/* the current leaf's index in plan */
	size_t lpos;	/* values of the current leaf fed so far */
	double *st;	/* per column: 8 partial sums, res, the stack, the total */
};
void np_cols_init(struct np_cols *c, size_t ncol, size_t n);
void np_cols_row(struct np_cols *c, const double *v);
double np_cols_sum(const struct np_cols *c, size_t j);
void np_cols_free(struct np_cols *c);

#endif
