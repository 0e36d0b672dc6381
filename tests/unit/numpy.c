/* See LICENSE file for copyright and license details. */
/*
 * Unit checks of common/numpy.c against numbers numpy 1.24 and pandas
 * 1.5 gave (TraceLens's Debian 12 versions): np.sum of an array in
 * blocks of 8192, the same fed a row at a time, and pandas'
 * sort_values order of equal values.
 */
#include <stdio.h>
#include <string.h>

#include "tl.h"
#include "numpy.h"

static int runs, fails;

static void
near(const char *what, double got, double want)
{
	runs++;
	if (got != want) {
		fails++;
		printf("FAIL %s: %.17g, want %.17g\n", what, got, want);
	}
}

int
main(void)
{
	/* pandas: pd.DataFrame({'a': v}).sort_values('a').index */
	static const double v[20] = {
		3, 1, 2, 3, 1, 2, 3, 1, 2, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 0
	};
	static const uint32_t asc[20] = {
		9, 10, 19, 11, 4, 17, 7, 1, 14, 5, 8, 18, 2, 12, 15, 16, 3, 6,
		13, 0
	};
	static double a[30000];
	struct np_cols c;
	double row[2];
	uint32_t ord[20];
	size_t i;

	/* np.sum(a) of a[i] = (i * 7919 % 1000) / 7.0 */
	for (i = 0; i < 20000; i++)
		a[i] = (double)(i * 7919 % 1000) / 7.0;
	near("np_sum 5", np_sum(a, 5), 455.71428571428567);
	near("np_sum 8192", np_sum(a, 8192), 584540.5714285714);
	near("np_sum 8193", np_sum(a, 8193), 584604.5714285714);
	near("np_sum 20000", np_sum(a, 20000), 1427142.857142857);
	/*
	 * A pairwise sum of the whole array (no blocks) gives
	 * 1069286788714.2856 for 30000 values and 292207502248.5714
	 * for 8200: numpy's are the blocks'.
	 * np.sum(a) of a[i] = (i * 7919 % 1000) ** 3 / 7.0 + 0.1
	 */
	for (i = 0; i < 30000; i++)
		a[i] = (double)(i * 7919 % 1000) * (double)(i * 7919 % 1000) *
		    (double)(i * 7919 % 1000) / 7.0 + 0.1;
	near("np_sum cubes 8200", np_sum(a, 8200), 292207502248.57135);
	near("np_sum cubes 30000", np_sum(a, 30000), 1069286788714.2855);
	for (i = 0; i < 20000; i++)
		a[i] = (double)(i * 7919 % 1000) / 7.0;
	np_cols_init(&c, 2, 20000);
	for (i = 0; i < 20000; i++) {
		row[0] = a[i];
		row[1] = i < 5 ? a[i] : 0;
		np_cols_row(&c, row);
	}
	near("np_cols 20000", np_cols_sum(&c, 0), 1427142.857142857);
	near("np_cols zeros", np_cols_sum(&c, 1), 455.71428571428567);
	np_cols_free(&c);
	pd_order(v, 20, 0, ord);
	runs++;
	if (memcmp(ord, asc, sizeof(asc)) != 0) {
		fails++;
		printf("FAIL pd_order ascending\n");
	}
	printf("%d passed, %d failed\n", runs - fails, fails);
	return fails != 0;
}
