/* See LICENSE file for copyright and license details. */
/*
 * tl-coll: what two or more of its stages call (stages.h):
 * NcclAnalyser's collective types and bytes per element, opening and
 * closing the output files, CSV header cells and whole-number fields.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "stages.h"

static const struct {
	const char *name;	/* Collective name */
	int type;		/* T_* */
} colltypes[] = {
	{ "allreduce", T_ALLREDUCE }, { "allreduce_coalesced", T_ALLREDUCE },
	{ "reducescatter", T_REDUCESCATTER },
	{ "_reduce_scatter_base", T_REDUCESCATTER },
	{ "reduce_scatter_tensor_coalesced", T_REDUCESCATTER },
	{ "allgather", T_ALLGATHER }, { "all_gather", T_ALLGATHER },
	{ "_allgather_base", T_ALLGATHER },
	{ "all_gather_into_tensor_coalesced", T_ALLGATHER },
	{ "allgather_into_tensor_coalesced", T_ALLGATHER },
	{ "all_to_all", T_ALLTOALL }, { "all_to_allv", T_ALLTOALLV },
};

/* NcclAnalyser's bytes per element. */
static const struct {
	const char *name;	/* dtype */
	int bytes;		/* its size */
} dtypes[] = {
	{ "Float", 4 }, { "Int", 4 }, { "Long", 8 }, { "BFloat16", 2 },
	{ "Bool", 1 }, { "Byte", 1 }, { "Double", 8 }, { "Half", 2 },
	{ "Short", 2 },
};

/* Is the cell the string s (escaped payload compared)? */
static int
cellis(const char *cell, size_t len, const char *s)
{
	return len == strlen(s) + 1 && cell[0] == 's' &&
	    memcmp(cell + 1, s, len - 1) == 0;
}

/* The collective type of a Collective name cell, or -1. */
int
colltype(const char *cell, size_t len)
{
	size_t i;

	for (i = 0; i < LEN(colltypes); i++)
		if (cellis(cell, len, colltypes[i].name))
			return colltypes[i].type;
	return -1;
}

/* Bytes per element of a dtype cell, or 0. */
int
dtypebytes(const char *cell, size_t len)
{
	size_t i;

	for (i = 0; i < LEN(dtypes); i++)
		if (cellis(cell, len, dtypes[i].name))
			return dtypes[i].bytes;
	return 0;
}

FILE *
xfopen(const char *dir, const char *name, const char *mode)
{
	struct buf p = {0};
	FILE *fp;

	buf_adds(&p, dir);
	buf_addc(&p, '/');
	buf_adds(&p, name);
	if ((fp = fopen(p.s, mode)) == NULL)
		tl_die("%s:", p.s);
	buf_free(&p);
	return fp;
}

void
xclose(FILE *fp, const char *name)
{
	if (tl_fshut(fp, name) != TL_OK)
		exit(TL_EDATA);
}

/* A CSV header cell. */
void
csvname(FILE *fp, const char *s, int first)
{
	csv_sep(fp, first);
	csv_cell(fp, s, strlen(s));
}

long
fieldlong(const char *s, size_t len, const char *what, const char *name,
    size_t line)
{
	int64_t v;

	if (num_int64(s, len, &v) < 0 || v < 0 || v > 1000000000000LL)
		tl_die("%s: line %zu: %s is not a whole number: %.*s", name, line,
		    what, (int)(len > 40 ? 40 : len), s);
	return (long)v;
}
