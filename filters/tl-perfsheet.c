/* See LICENSE file for copyright and license details. */
/*
 * tl-perfsheet: TraceLens's perf-model sheets (GEMM.csv, SDPA_fwd.csv
 * ...), laid out from the model rows grouped by (kind, sheet, name,
 * params).
 *
 * What TraceLens does with pandas, done here: each table (the forward
 * or backward rows of one sheet category) is a DataFrame of dicts, so
 * its params dict becomes one column per key, in order of first
 * appearance, and a column is float (16 prints 16.0, None and a missing
 * key nan) when some value is a float or some row lacks the key, or
 * holds both None and ints; a cell is str() of the value.  GEMM, the
 * two elementwise categories and Normalization make one sheet; the
 * others a _fwd and a _bwd sheet, the backward table's rows first and
 * a few backward ops (by name) moved over from the forward table, a
 * few forward ones left out of the backward one (TraceLens's lists).
 * Rows by total kernel time, descending, then first UID.
 *
 * With -k, the _kl_overlap sheets of --include_overlap_info: the groups
 * are split by the names of the kernels that overlap theirs too, and
 * ordered by their group's total (the split groups' sum) and least
 * UID, then their own total and first UID.
 *
 * Two passes: the first keeps, per row, its offset, table, sheet and
 * sort keys, and per table its param keys; the second reads each row
 * again and writes it.  Memory: those, never the rows' text.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "tl.h"
#include "numpy.h"

/* How an input field becomes a cell. */
enum cellkind {
	C_NUM,		/* Python's repr of the number; empty stays empty */
	C_DT,		/* as it is when the sheet's are all integer texts, else C_NUM */
	C_TEXT,		/* the field's text, quoted as pandas quotes it */
	C_LIST,		/* JSON as a Python literal with lists */
	C_RAW,		/* as it is */
	C_PCT,		/* C_NUM rounded to 2 places, as pandas' round(2) */
	C_PSTD		/* C_PCT, 0.0 when empty but the mean is not */
};

/* The columns after name and the params, in TraceLens's order. */
static const struct outcol {
	const char *head;	/* the sheet's column name */
	const char *field;	/* the input field (tl-aggregate's name) */
	enum cellkind kind;	/* how it is written */
	int arch;		/* only with a GPU spec (the roofline columns) */
	int kl;			/* only with -k (the overlap columns) */
} outcols[] = {
	{ "GFLOPS_first", "gf", C_NUM, 0, 0 },
	{ "Data Moved (MB)_first", "dm", C_NUM, 0, 0 },
	{ "FLOPS/Byte_first", "fb", C_NUM, 0, 0 },
	{ "TB/s_mean", "tbs_mean", C_NUM, 0, 0 },
	{ "TB/s_median", "tbs_median", C_NUM, 0, 0 },
	{ "TB/s_std", "tbs_std", C_NUM, 0, 0 },
	{ "TB/s_min", "tbs_min", C_NUM, 0, 0 },
	{ "TB/s_max", "tbs_max", C_NUM, 0, 0 },
	{ "TFLOPS/s_mean", "tfs_mean", C_NUM, 0, 0 },
	{ "TFLOPS/s_median", "tfs_median", C_NUM, 0, 0 },
	{ "TFLOPS/s_std", "tfs_std", C_NUM, 0, 0 },
	{ "TFLOPS/s_min", "tfs_min", C_NUM, 0, 0 },
	{ "TFLOPS/s_max", "tfs_max", C_NUM, 0, 0 },
	{ "process_name_first", "pn_first", C_TEXT, 0, 0 },
	{ "process_label_first", "pl_first", C_TEXT, 0, 0 },
	{ "thread_name_first", "tn_first", C_TEXT, 0, 0 },
	{ "Compute Spec", "spec_first", C_TEXT, 0, 0 },
	{ "Roofline Time (µs)_first", "rt_first", C_NUM, 1, 0 },
	{ "Roofline Bound_first", "rb_first", C_TEXT, 1, 0 },
	{ "Pct Roofline_mean", "pr_mean", C_NUM, 1, 0 },
	{ "Pct Roofline_median", "pr_median", C_NUM, 1, 0 },
	{ "Pct Roofline_std", "pr_std", C_NUM, 1, 0 },
	{ "Pct Roofline_min", "pr_min", C_NUM, 1, 0 },
	{ "Pct Roofline_max", "pr_max", C_NUM, 1, 0 },
	{ "kernel_details__summarize_kernel_stats", "kd_kstats", C_TEXT, 0, 0 },
	{ "trunc_kernel_details", "kd_ktrunc", C_TEXT, 0, 0 },
	{ "overlapping_kernels_details__summarize_kernel_stats", "okd_kstats", C_TEXT, 0, 1 },
	{ "trunc_overlapping_kernels_details", "okd_ktrunc", C_TEXT, 0, 1 },
	{ "overlap_pct_mean", "op_mean", C_PCT, 0, 1 },
	{ "overlap_pct_median", "op_median", C_PCT, 0, 1 },
	{ "overlap_pct_std", "op_std", C_PSTD, 0, 1 },
	{ "overlap_pct_min", "op_min", C_PCT, 0, 1 },
	{ "overlap_pct_max", "op_max", C_PCT, 0, 1 },
	{ "Input Dims_first", "dims_first", C_LIST, 0, 0 },
	{ "Input type_first", "types_first", C_LIST, 0, 0 },
	{ "Input Strides_first", "strides_first", C_LIST, 0, 0 },
	{ "Concrete Inputs_first", "conc_first", C_LIST, 0, 0 },
	{ "Kernel Time (µs)_mean", "kt_mean", C_NUM, 0, 0 },
	{ "Kernel Time (µs)_median", "kt_median", C_NUM, 0, 0 },
	{ "Kernel Time (µs)_std", "kt_std", C_NUM, 0, 0 },
	{ "Kernel Time (µs)_min", "kt_min", C_DT, 0, 0 },
	{ "Kernel Time (µs)_max", "kt_max", C_DT, 0, 0 },
	{ "Kernel Time (µs)_sum", "kt_sum", C_DT, 0, 0 },
	{ "name_count", "UID_count", C_RAW, 0, 0 },
	{ "UID_first", "UID_first", C_RAW, 0, 0 },
};

/* Sheet categories of one sheet, not a _fwd and a _bwd one. */
static const char *const single[] = {
	"GEMM", "UnaryElementwise", "BinaryElementwise", "Normalization"
};
/* Backward ops the forward table holds: moved to the _bwd sheet. */
static const char *const tobwd[] = {
	"flash_attn::_flash_attn_varlen_backward", "aten::convolution_backward",
	"ConvBias_Backward", "ConvBiasReLU_Backward"
};
/* Forward ops the backward table holds: left out. */
static const char *const notbwd[] = {
	"aten::convolution", "aten::miopen_convolution", "aten::cudnn_convolution",
	"ConvBias_", "ConvBiasReLU_"
};

/* A param column of a table, and what its values are. */
struct pkey {
	char *name;		/* the key as written, owned */
	size_t nrows;		/* rows that have it */
	int fl, ob, nn, ni;	/* some value float, bool or other, None, int */
	int flt;		/* the column is float (after the first pass) */
};

/* A table: the rows of one kind (F, B) and sheet category. */
struct table {
	char kind;		/* 'F' or 'B' */
	char *sheet;		/* the sheet category, owned */
	struct pkey *keys;	/* param keys in order of first appearance, owned */
	size_t nkeys, capkeys;	/* used, allocated */
	size_t nrows;		/* rows */
	int roof;		/* some row has a Roofline Time */
	int dtflt;		/* some C_DT cell is not an integer text */
};

/* A sheet written: its param columns (keys of its tables, in order). */
struct dest {
	char *name;		/* the sheet's name (file NAME.csv), owned */
	char **cols;		/* its param keys, not owned (the tables') */
	size_t ncols, capcols;	/* used, allocated */
	int *added;		/* added[t]: table t's keys are in cols */
	int first;		/* the first table it took, -1 before */
	size_t nprim;		/* cols of that table (the rest: pd.concat's, last) */
	int roof;		/* roofline columns: 0 none, R_PLACE, R_END */
	int dtflt;		/* C_DT columns are float64: some table's are */
};

/*
 * Where a sheet has the roofline columns.  TraceLens's table has them
 * only when some op of it had a Roofline Time (a DataFrame of dicts
 * that lack the keys otherwise); rows moved from another table that
 * has them (pd.concat) put them after the sheet's last column.
 */
enum { R_PLACE = 1, R_END };
/* The plan entries of the num_kernels and is_recompute columns (below
 * every -1 - j). */
#define PLAN_NK (-1 - (long)LEN(outcols))
#define PLAN_RC (-2 - (long)LEN(outcols))

/* What the first pass keeps of a row. */
struct row {
	off_t off;		/* its offset in the input */
	int table;		/* its table */
	int dest;		/* its sheet, or -1 when left out */
	int part;		/* 1, or 2 for a forward row moved to _bwd */
	double kt;		/* Kernel Time sum, the sort key */
	double uid;		/* UID_first, the second */
	uint64_t gh;		/* -k: hash of its group but the names */
	double gkt;		/* -k: its group's total, the first key */
	double guid;		/* -k: its group's least UID_first, the second */
	int tobwd;		/* its name is in tobwd[] */
	int notbwd;		/* its name is in notbwd[] */
};

/* A param of a row: key and value as the params literal writes them. */
struct param {
	const char *k, *v;	/* into the parsed literal */
	size_t klen, vlen;	/* their lengths */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: %s -d dir [-k] [file]\n",
	    tl_progname());
	exit(status);
}

static int
inlist(const char *const *l, size_t n, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(l[i]) == len && memcmp(l[i], s, len) == 0)
			return 1;
	return 0;
}

/*
 * The params dict literal s[0..len) ({'M': 16, 'bias': True, ...}) into
 * p: keys between their quotes (escapes kept), values up to the next
 * comma outside brackets and quotes.  Returns the number of params.
 */
static size_t
pdict(const char *s, size_t len, struct param **p, size_t *cap)
{
	size_t i = 1, n = 0, st;
	char q;
	int d;

	if (len < 2 || s[0] != '{')
		return 0;
	while (i < len - 1) {
		while (i < len - 1 && (s[i] == ' ' || s[i] == ','))
			i++;
		if (i >= len - 1)
			break;
		q = s[i];
		st = ++i;
		while (i < len && s[i] != q)
			i += s[i] == '\\' ? 2 : 1;
		if (n == *cap)
			tl_grow((void **)p, cap, n + 1, sizeof(**p));
		(*p)[n].k = s + st;
		(*p)[n].klen = MIN(i, len) - st;
		i++;
		while (i < len - 1 && (s[i] == ':' || s[i] == ' '))
			i++;
		st = i;
		q = 0;
		for (d = 0; i < len - 1; i++) {
			if (q) {
				if (s[i] == '\\')
					i++;
				else if (s[i] == q)
					q = 0;
				continue;
			}
			if (s[i] == '\'' || s[i] == '"')
				q = s[i];
			else if (s[i] == '(' || s[i] == '[' || s[i] == '{')
				d++;
			else if (s[i] == ')' || s[i] == ']' || s[i] == '}')
				d--;
			else if (s[i] == ',' && d == 0)
				break;
		}
		(*p)[n].v = s + st;
		(*p)[n].vlen = MIN(i, len - 1) - st;
		n++;
	}
	return n;
}

static int
digits(const char *s, const char *e)
{
	const char *p = s;

	while (p < e && *p >= '0' && *p <= '9')
		p++;
	return (int)(p - s);
}

/* The kind of a repr value: 'i' int, 'f' float, 'b' bool, 'n' None, 'o' other. */
static int
pkind(const char *v, size_t len)
{
	const char *p = v, *e = v + len;
	int a, b;

	if (len == 4 && memcmp(v, "True", 4) == 0)
		return 'b';
	if (len == 5 && memcmp(v, "False", 5) == 0)
		return 'b';
	if (len == 4 && memcmp(v, "None", 4) == 0)
		return 'n';
	if (len == 3 && memcmp(v, "nan", 3) == 0)
		return 'f';
	if (p < e && *p == '-')
		p++;
	if (e - p == 3 && memcmp(p, "inf", 3) == 0)
		return 'f';
	a = digits(p, e);
	if (a > 0 && p + a == e)
		return 'i';
	p += a;
	b = 0;
	if (p < e && *p == '.') {
		p++;
		b = digits(p, e);
		p += b;
		if (a + b == 0)
			return 'o';
	} else if (a == 0 || p == e || *p != 'e')
		return 'o';
	if (p < e && *p == 'e') {
		p++;
		if (p == e || (*p != '+' && *p != '-'))
			return 'o';
		p++;
		if (digits(p, e) == 0 || p + digits(p, e) != e)
			return 'o';
		return 'f';
	}
	return p == e ? 'f' : 'o';
}

/* str() of a repr value: a string loses its quotes and escapes. */
static void
pystrval(struct buf *b, const char *v, size_t len)
{
	size_t i, n;
	unsigned cp;
	char h[9];

	if (len < 2 || (v[0] != '\'' && v[0] != '"') || v[len - 1] != v[0]) {
		buf_add(b, v, len);
		return;
	}
	for (i = 1; i < len - 1; i++) {
		if (v[i] != '\\' || i + 1 >= len - 1) {
			buf_addc(b, v[i]);
			continue;
		}
		switch (v[++i]) {
		case 'n': buf_addc(b, '\n'); break;
		case 't': buf_addc(b, '\t'); break;
		case 'r': buf_addc(b, '\r'); break;
		case 'x': n = 2; goto hex;
		case 'u': n = 4; goto hex;
		case 'U': n = 8;
		hex:
			if (i + n >= len - 1) {
				buf_addc(b, '\\');
				buf_addc(b, v[i]);
				break;
			}
			memcpy(h, v + i + 1, n);
			h[n] = '\0';
			cp = (unsigned)strtoul(h, NULL, 16);
			buf_addcp(b, cp);
			i += n;
			break;
		default:
			/* \\, \', \" and the rest: the character */
			buf_addc(b, v[i]);
			break;
		}
	}
}

/* The table of (kind, sheet), made when new. */
static int
findtable(struct table **t, size_t *nt, size_t *cap, char kind,
    const char *sheet, size_t len)
{
	size_t i;

	for (i = 0; i < *nt; i++)
		if ((*t)[i].kind == kind && strlen((*t)[i].sheet) == len &&
		    memcmp((*t)[i].sheet, sheet, len) == 0)
			return (int)i;
	if (*nt == *cap)
		tl_grow((void **)t, cap, *nt + 1, sizeof(**t));
	memset(&(*t)[*nt], 0, sizeof(**t));
	(*t)[*nt].kind = kind;
	(*t)[*nt].sheet = tl_strndup(sheet, len);
	return (int)(*nt)++;
}

static struct pkey *
findkey(const struct table *t, const char *k, size_t len)
{
	size_t i;

	for (i = 0; i < t->nkeys; i++)
		if (strlen(t->keys[i].name) == len &&
		    memcmp(t->keys[i].name, k, len) == 0)
			return &t->keys[i];
	return NULL;
}

static int
finddest(struct dest **d, size_t *nd, size_t *cap, const char *name,
    size_t ntables)
{
	size_t i;

	for (i = 0; i < *nd; i++)
		if (strcmp((*d)[i].name, name) == 0)
			return (int)i;
	if (*nd == *cap)
		tl_grow((void **)d, cap, *nd + 1, sizeof(**d));
	memset(&(*d)[*nd], 0, sizeof(**d));
	(*d)[*nd].name = tl_strdup(name);
	(*d)[*nd].added = tl_calloc(ntables + 1, sizeof(int));
	(*d)[*nd].first = -1;
	return (int)(*nd)++;
}

/* Sheet d takes the param columns of table t (once). */
static void
addcols(struct dest *d, const struct table *t, int ti)
{
	size_t i, j;

	if (d->added[ti])
		return;
	d->added[ti] = 1;
	if (d->first < 0)
		d->first = ti;
	if (t->roof && d->roof == 0)
		d->roof = d->first == ti ? R_PLACE : R_END;
	for (i = 0; i < t->nkeys; i++) {
		for (j = 0; j < d->ncols; j++)
			if (strcmp(d->cols[j], t->keys[i].name) == 0)
				break;
		if (j < d->ncols)
			continue;
		if (d->ncols == d->capcols)
			tl_grow((void **)&d->cols, &d->capcols, d->ncols + 1,
			    sizeof(*d->cols));
		d->cols[d->ncols++] = t->keys[i].name;
	}
	if (d->first == ti)
		d->nprim = d->ncols;
}

/*
 * The rows of one sheet: part, kernel time descending, first UID
 * (with -k their group's total and least UID first: gkt and guid are
 * 0 without).
 */
static int
rowcmp(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;

	if (x->part != y->part)
		return x->part - y->part;
	if (x->gkt != y->gkt)
		return x->gkt > y->gkt ? -1 : 1;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->kt != y->kt)
		return x->kt > y->kt ? -1 : 1;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return (x->off > y->off) - (x->off < y->off);
}

/* The cell of param column col of a row of table t (params pp[0..np)). */
static void
paramcell(struct buf *b, const struct table *t, const char *col,
    const struct param *pp, size_t np)
{
	const struct pkey *pk = findkey(t, col, strlen(col));
	struct buf v = {0};
	size_t m;

	if (pk == NULL)
		return;		/* not a column of its table */
	for (m = 0; m < np; m++)
		if (pp[m].klen == strlen(pk->name) &&
		    memcmp(pp[m].k, pk->name, pp[m].klen) == 0)
			break;
	buf_adds(&v, "");
	if (m == np) {
		buf_adds(&v, "nan");
	} else if (pk->flt && (pkind(pp[m].v, pp[m].vlen) == 'i' ||
	    pkind(pp[m].v, pp[m].vlen) == 'f')) {
		double x = 0;

		num_double(pp[m].v, pp[m].vlen, &x);
		if (isnan(x))
			buf_adds(&v, "nan");
		else
			csv_bnum(&v, x);
	} else if (pk->flt && pp[m].vlen == 4 &&
	    memcmp(pp[m].v, "None", 4) == 0) {
		buf_adds(&v, "nan");
	} else
		pystrval(&v, pp[m].v, pp[m].vlen);
	csv_bcell(b, v.s, v.len);
	buf_free(&v);
}

/*
 * The cell of output column oc, field col of the record r; dtflt: the
 * sheet's C_DT columns are float64.
 */
static void
outcell(struct buf *b, const struct rec_reader *r, int col, const struct outcol *oc,
    int dtflt, int cmean)
{
	const char *s;
	size_t len;
	double x;

	s = rec_get(r, col, &len);
	switch (oc->kind) {
	case C_PSTD:
		/* (the std of one value, NaN, is 0.0 where there is a mean) */
		if (len == 0) {
			rec_get(r, cmean, &len);
			if (len > 0)
				buf_adds(b, "0.0");
			break;
		}
		/* FALLTHROUGH */
	case C_PCT:
		if (rec_double(r, col, &x))
			csv_bnum(b, np_round2(x));
		break;
	case C_DT:
		if (!dtflt) {
			/* pandas' int64 column: the integers as they came */
			buf_add(b, s, len);
			break;
		}
		/* FALLTHROUGH */
	case C_NUM:
		if (rec_double(r, col, &x))
			csv_bnum(b, x);
		break;
	case C_TEXT:
		csv_bfield(b, s, len);
		break;
	case C_LIST:
		csv_blist(b, s, len);
		break;
	default:
		buf_add(b, s, len);
		break;
	}
}

static double
numfield(const struct rec_reader *r, int col)
{
	const char *s;
	size_t len;
	double d;

	s = rec_get(r, col, &len);
	if (len == 0 || num_double(s, len, &d) < 0)
		return 0;
	return d;
}

/*
 * What the passes share: the input and its columns, the tables, the
 * sheets and the rows.  Ownership: all owned (r's name is the caller's).
 */
struct book {
	struct rec_reader r;	/* the model rows */
	struct reread rr;	/* r, read again by offset */
	int ci[LEN(outcols)];	/* each outcol's input column, or -1 */
	int ckind, csheet, cname, cparams, ckt, cuid;	/* input columns */
	int crt;		/* rt_first, or -1: no GPU spec */
	int cnk;		/* num_kernels (--group_by_num_kernels), or -1 */
	int crc;		/* is_recompute (--detect_recompute), or -1 */
	int kl;			/* -k: the _kl_overlap sheets */
	int cokn;		/* -k: okn, the names (overlapping_kernel_names_first) */
	int cmean;		/* -k: op_mean */
	struct table *tab;	/* the tables, in order of first row */
	size_t ntab, captab;	/* used, allocated */
	struct dest *dst;	/* the sheets, in order of first use */
	size_t ndst, capdst;	/* used, allocated */
	struct row *rows;	/* every row, in input order */
	size_t nrows, caprows;	/* used, allocated */
	struct param *pp;	/* the params of the row at hand */
	size_t capp;		/* allocated */
};

/* The input's header: the columns the passes read. */
static void
columns(struct book *bk)
{
	struct rec_reader *r = &bk->r;
	size_t i;

	rec_read_header(r);
	bk->ckind = rec_need(r, "kind");
	bk->csheet = rec_need(r, "sheet");
	bk->cname = rec_need(r, "name");
	bk->cparams = rec_need(r, "params");
	bk->ckt = rec_need(r, "kt_sum");
	bk->cuid = rec_need(r, "UID_first");
	bk->crt = rec_col(r, "rt_first");
	/* a grouping key after the params (--group_by_num_kernels) */
	bk->cnk = rec_col(r, "num_kernels");
	/* and after it (--detect_recompute) */
	bk->crc = rec_col(r, "is_recompute");
	bk->cokn = bk->kl ? rec_need(r, "okn") : -1;
	bk->cmean = bk->kl ? rec_need(r, "op_mean") : -1;
	for (i = 0; i < LEN(outcols); i++)
		bk->ci[i] = (outcols[i].arch && bk->crt < 0) ||
		    (outcols[i].kl && !bk->kl) ? -1 :
		    rec_need(r, outcols[i].field);
}

/*
 * The hash of the row's group but its names: kind, sheet, name, params,
 * num_kernels, is_recompute.
 */
static uint64_t
grouphash(const struct book *bk)
{
	XXH3_state_t *st = XXH3_createState();
	const int c[] = { bk->ckind, bk->csheet, bk->cname, bk->cparams, bk->cnk,
	    bk->crc };
	const char *s;
	size_t i, len;
	uint64_t h;

	if (st == NULL)
		tl_die("out of memory");
	XXH3_64bits_reset(st);
	for (i = 0; i < LEN(c); i++) {
		if (c[i] < 0)
			continue;
		s = rec_get(&bk->r, c[i], &len);
		XXH3_64bits_update(st, s, len);
		/* (a separator no field holds: fields are escaped) */
		XXH3_64bits_update(st, "\t", 1);
	}
	h = XXH3_64bits_digest(st);
	XXH3_freeState(st);
	return h;
}

static int
ghcmp(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;

	if (x->gh != y->gh)
		return x->gh < y->gh ? -1 : 1;
	return (x->off > y->off) - (x->off < y->off);
}

/*
 * -k: each row's group's total Kernel Time and least UID_first, the
 * groups by their hash (pandas' transform over the groups but the
 * names, summed in input order).
 */
static void
groups(struct book *bk)
{
	struct row **o = tl_calloc(bk->nrows + 1, sizeof(*o));
	size_t i, j, k;
	double t, u;

	for (i = 0; i < bk->nrows; i++)
		o[i] = &bk->rows[i];
	qsort(o, bk->nrows, sizeof(*o), ghcmp);
	for (i = 0; i < bk->nrows; i = j) {
		t = 0, u = o[i]->uid;
		for (j = i; j < bk->nrows && o[j]->gh == o[i]->gh; j++) {
			t += o[j]->kt;
			if (o[j]->uid < u)
				u = o[j]->uid;
		}
		for (k = i; k < j; k++)
			o[k]->gkt = t, o[k]->guid = u;
	}
	free(o);
}

/* First pass: the tables, their param keys and kinds, each row's place. */
static void
scan(struct book *bk)
{
	struct rec_reader *r = &bk->r;
	struct table *t;
	struct row *w;
	const char *s, *name;
	size_t i, j, np, len, nlen;
	off_t off;
	int c, ti;

	rr_open(&bk->rr, r);
	while (rr_next(&bk->rr, &off)) {
		s = rec_get(r, bk->ckind, &len);
		if (len != 1 || (s[0] != 'F' && s[0] != 'B'))
			tl_die("%s: line %zu: kind is F or B, not '%.*s'", r->name,
			    r->lineno, (int)MIN(len, 20), s);
		c = s[0];
		s = rec_get(r, bk->csheet, &len);
		/* (findtable may move tab: the index first) */
		ti = findtable(&bk->tab, &bk->ntab, &bk->captab, (char)c, s, len);
		t = &bk->tab[ti];
		t->nrows++;
		if (bk->crt >= 0 && (rec_get(r, bk->crt, &len), len > 0))
			t->roof = 1;
		/* (Python's ints, summed: pandas' int64 Kernel Time column) */
		for (i = 0; i < LEN(outcols); i++)
			if (outcols[i].kind == C_DT && bk->ci[i] >= 0) {
				s = rec_get(r, bk->ci[i], &len);
				if (!num_isint(s, len))
					t->dtflt = 1;
			}
		s = rec_get(r, bk->cparams, &len);
		np = pdict(s, len, &bk->pp, &bk->capp);
		for (i = 0; i < np; i++) {
			struct pkey *pk = findkey(t, bk->pp[i].k, bk->pp[i].klen);

			if (pk == NULL) {
				if (t->nkeys == t->capkeys)
					tl_grow((void **)&t->keys, &t->capkeys,
					    t->nkeys + 1, sizeof(*t->keys));
				pk = &t->keys[t->nkeys++];
				memset(pk, 0, sizeof(*pk));
				pk->name = tl_strndup(bk->pp[i].k, bk->pp[i].klen);
			}
			pk->nrows++;
			switch (pkind(bk->pp[i].v, bk->pp[i].vlen)) {
			case 'f': pk->fl = 1; break;
			case 'b': case 'o': pk->ob = 1; break;
			case 'n': pk->nn = 1; break;
			default: pk->ni = 1; break;
			}
		}
		if (bk->nrows == bk->caprows)
			tl_grow((void **)&bk->rows, &bk->caprows, bk->nrows + 1,
			    sizeof(*bk->rows));
		w = &bk->rows[bk->nrows];
		w->off = off;
		w->table = ti;
		w->dest = -1;
		w->part = 0;
		w->kt = numfield(r, bk->ckt);
		w->uid = numfield(r, bk->cuid);
		w->gh = bk->kl ? grouphash(bk) : 0;
		w->gkt = w->guid = 0;
		name = rec_get(r, bk->cname, &nlen);
		w->tobwd = inlist(tobwd, LEN(tobwd), name, nlen);
		w->notbwd = inlist(notbwd, LEN(notbwd), name, nlen);
		bk->nrows++;
	}
	/* pandas: a float, a gap, or None with ints make the column float */
	for (i = 0; i < bk->ntab; i++)
		for (j = 0; j < bk->tab[i].nkeys; j++) {
			struct pkey *pk = &bk->tab[i].keys[j];

			pk->flt = !pk->ob && (pk->fl ||
			    pk->nrows < bk->tab[i].nrows || (pk->nn && pk->ni));
		}
}

/*
 * Each row's sheet, and each sheet's param columns: the backward
 * tables first (pandas puts their columns before those of the rows
 * moved over from the forward table).
 */
static void
place(struct book *bk)
{
	struct buf path = {0};
	size_t i, k;
	int pass, c;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < bk->ntab; i++) {
			struct table *t = &bk->tab[i];
			int sing = inlist(single, LEN(single), t->sheet,
			    strlen(t->sheet));

			if ((pass == 0) != (t->kind == 'B'))
				continue;
			buf_reset(&path);
			buf_adds(&path, t->sheet);
			buf_adds(&path, "_bwd");
			if (t->kind == 'B') {
				/* (finddest may move dst: the index first) */
				c = finddest(&bk->dst, &bk->ndst, &bk->capdst,
				    path.s, bk->ntab);
				addcols(&bk->dst[c], t, (int)i);
			} else if (!sing) {
				/*
				 * TraceLens concatenates the forward table's rows
				 * that move even when none does: the empty frame
				 * still adds its columns to the backward sheet.
				 */
				for (k = 0; k < bk->ndst; k++)
					if (strcmp(bk->dst[k].name, path.s) == 0)
						addcols(&bk->dst[k], t, (int)i);
			}
			for (k = 0; k < bk->nrows; k++) {
				struct row *w = &bk->rows[k];

				if (w->table != (int)i)
					continue;
				buf_reset(&path);
				buf_adds(&path, t->sheet);
				w->part = 1;
				if (t->kind == 'F') {
					if (!sing && w->tobwd) {
						buf_adds(&path, "_bwd");
						w->part = 2;
					} else if (!sing)
						buf_adds(&path, "_fwd");
				} else {
					if (w->notbwd)
						continue;
					buf_adds(&path, "_bwd");
				}
				w->dest = finddest(&bk->dst, &bk->ndst, &bk->capdst,
				    path.s, bk->ntab);
				addcols(&bk->dst[w->dest], t, (int)i);
			}
		}
	/* pd.concat: a float64 frame makes the sheet's column float64 */
	for (k = 0; k < bk->nrows; k++)
		if (bk->rows[k].dest >= 0 && bk->tab[bk->rows[k].table].dtflt)
			bk->dst[bk->rows[k].dest].dtflt = 1;
	buf_free(&path);
}

/*
 * The columns of sheet d, as plan[] (returned, with their number in
 * *n): the first table's params, the fixed ones (the roofline ones in
 * place, or none), then what pd.concat adds of the moved rows' frame:
 * its other params, its roofline columns.  A param column p is p,
 * output column j is -1 - j, num_kernels (a key after the params) is
 * PLAN_NK, is_recompute (a key after that) PLAN_RC.
 */
static long *
plan(const struct book *bk, const struct dest *d, size_t *n)
{
	long *pl = tl_calloc(d->ncols + LEN(outcols) + 3, sizeof(*pl));
	size_t j, np = 0;
	int pass;

	for (j = 0; j < d->nprim; j++)
		pl[np++] = (long)j;
	if (bk->cnk >= 0)
		pl[np++] = PLAN_NK;
	if (bk->crc >= 0)
		pl[np++] = PLAN_RC;
	for (pass = 0; pass < 2; pass++) {
		for (j = 0; j < LEN(outcols); j++) {
			if (bk->ci[j] < 0 || (outcols[j].arch && d->roof == 0))
				continue;
			if (pass != (outcols[j].arch && d->roof == R_END))
				continue;
			pl[np++] = -1 - (long)j;
		}
		for (j = d->nprim; pass == 0 && j < d->ncols; j++)
			pl[np++] = (long)j;
	}
	*n = np;
	return pl;
}

/*
 * Second pass, for sheet d: its rows ord[0..n), sorted, read again and
 * written to dir/NAME.csv.  Returns non-zero when the file failed.
 */
static int
writesheet(struct book *bk, const struct dest *d, struct row **ord, size_t n,
    const char *dir)
{
	struct rec_reader *r = &bk->r;
	struct buf b = {0}, path = {0};
	const char *s;
	size_t k, m, np, nplan, len;
	long *pl;
	FILE *out;
	int st;

	qsort(ord, n, sizeof(*ord), rowcmp);
	buf_adds(&path, dir);
	buf_addc(&path, '/');
	buf_adds(&path, d->name);
	buf_adds(&path, bk->kl ? "_kl_overlap.csv" : ".csv");
	out = tl_fopen(path.s, "w");
	pl = plan(bk, d, &nplan);
	buf_adds(&b, bk->kl ? "name,overlapping_kernel_names_first" : "name");
	for (m = 0; m < nplan; m++) {
		buf_addc(&b, ',');
		if (pl[m] == PLAN_NK) {
			buf_adds(&b, "num_kernels");
		} else if (pl[m] == PLAN_RC) {
			buf_adds(&b, "is_recompute");
		} else if (pl[m] < 0) {
			buf_adds(&b, outcols[-1 - pl[m]].head);
		} else {
			struct buf h = {0};

			buf_adds(&h, "param: ");
			buf_adds(&h, d->cols[pl[m]]);
			csv_bcell(&b, h.s, h.len);
			buf_free(&h);
		}
	}
	buf_addc(&b, '\n');
	fwrite(b.s, 1, b.len, out);
	for (k = 0; k < n; k++) {
		const struct table *t = &bk->tab[ord[k]->table];

		rr_read(&bk->rr, ord[k]->off, (size_t)(ord[k] - bk->rows) + 2);
		buf_reset(&b);
		s = rec_get(r, bk->cname, &len);
		csv_bfield(&b, s, len);
		if (bk->kl) {
			buf_addc(&b, ',');
			s = rec_get(r, bk->cokn, &len);
			csv_bfield(&b, s, len);
		}
		s = rec_get(r, bk->cparams, &len);
		np = pdict(s, len, &bk->pp, &bk->capp);
		for (m = 0; m < nplan; m++) {
			buf_addc(&b, ',');
			if (pl[m] == PLAN_NK || pl[m] == PLAN_RC) {
				s = rec_get(r, pl[m] == PLAN_NK ? bk->cnk :
				    bk->crc, &len);
				csv_bfield(&b, s, len);
			} else if (pl[m] < 0)
				outcell(&b, r, bk->ci[-1 - pl[m]],
				    &outcols[-1 - pl[m]], d->dtflt, bk->cmean);
			else
				paramcell(&b, t, d->cols[pl[m]], bk->pp, np);
		}
		buf_addc(&b, '\n');
		fwrite(b.s, 1, b.len, out);
	}
	st = tl_fshut(out, path.s);
	free(pl);
	buf_free(&b);
	buf_free(&path);
	return st;
}

static void
freebook(struct book *bk)
{
	size_t i, j;

	for (i = 0; i < bk->ntab; i++) {
		for (j = 0; j < bk->tab[i].nkeys; j++)
			free(bk->tab[i].keys[j].name);
		free(bk->tab[i].keys);
		free(bk->tab[i].sheet);
	}
	free(bk->tab);
	for (i = 0; i < bk->ndst; i++) {
		free(bk->dst[i].name);
		free(bk->dst[i].cols);
		free(bk->dst[i].added);
	}
	free(bk->dst);
	free(bk->rows);
	free(bk->pp);
}

int
main(int argc, char *argv[])
{
	struct book bk;
	struct row **ord;
	const char *dir = NULL;
	size_t i, k, n;
	FILE *in = stdin;
	int c, st = 0, kl = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "d:k")) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'k':
			kl = 1;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (dir == NULL || argc > 1)
		usage(TL_EUSAGE);
	if (argc == 1)
		in = tl_fopen(argv[0], "r");
	memset(&bk, 0, sizeof(bk));
	bk.kl = kl;
	rec_open(&bk.r, in, argc == 1 ? argv[0] : "<stdin>");
	columns(&bk);
	scan(&bk);
	if (kl)
		groups(&bk);
	place(&bk);
	ord = tl_calloc(bk.nrows + 1, sizeof(*ord));
	for (i = 0; i < bk.ndst; i++) {
		for (n = k = 0; k < bk.nrows; k++)
			if (bk.rows[k].dest == (int)i)
				ord[n++] = &bk.rows[k];
		if (n > 0 && writesheet(&bk, &bk.dst[i], ord, n, dir) != 0)
			st = TL_EDATA;
	}
	free(ord);
	rr_close(&bk.rr);
	rec_close(&bk.r);
	if (in != stdin)
		fclose(in);
	freebook(&bk);
	return st;
}
