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
 * Two passes: the first keeps, per row, its offset, table, sheet and
 * sort keys, and per table its param keys; the second reads each row
 * again and writes it.  Memory: those, never the rows' text.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

/* How an input field becomes a cell. */
enum cellkind {
	C_NUM,		/* Python's repr of the number; empty stays empty */
	C_DT,		/* as it is when the sheet's are all integer texts, else C_NUM */
	C_TEXT,		/* the field's text, quoted as pandas quotes it */
	C_LIST,		/* JSON as a Python literal with lists */
	C_RAW		/* as it is */
};

/* The columns after name and the params, in TraceLens's order. */
static const struct outcol {
	const char *head;	/* the sheet's column name */
	const char *field;	/* the input field (tl-aggregate's name) */
	enum cellkind kind;	/* how it is written */
	int arch;		/* only with a GPU spec (the roofline columns) */
} outcols[] = {
	{ "GFLOPS_first", "gf", C_NUM, 0 },
	{ "Data Moved (MB)_first", "dm", C_NUM, 0 },
	{ "FLOPS/Byte_first", "fb", C_NUM, 0 },
	{ "TB/s_mean", "tbs_mean", C_NUM, 0 },
	{ "TB/s_median", "tbs_median", C_NUM, 0 },
	{ "TB/s_std", "tbs_std", C_NUM, 0 },
	{ "TB/s_min", "tbs_min", C_NUM, 0 },
	{ "TB/s_max", "tbs_max", C_NUM, 0 },
	{ "TFLOPS/s_mean", "tfs_mean", C_NUM, 0 },
	{ "TFLOPS/s_median", "tfs_median", C_NUM, 0 },
	{ "TFLOPS/s_std", "tfs_std", C_NUM, 0 },
	{ "TFLOPS/s_min", "tfs_min", C_NUM, 0 },
	{ "TFLOPS/s_max", "tfs_max", C_NUM, 0 },
	{ "process_name_first", "pn_first", C_TEXT, 0 },
	{ "process_label_first", "pl_first", C_TEXT, 0 },
	{ "thread_name_first", "tn_first", C_TEXT, 0 },
	{ "Compute Spec", "spec_first", C_TEXT, 0 },
	{ "Roofline Time (µs)_first", "rt_first", C_NUM, 1 },
	{ "Roofline Bound_first", "rb_first", C_TEXT, 1 },
	{ "Pct Roofline_mean", "pr_mean", C_NUM, 1 },
	{ "Pct Roofline_median", "pr_median", C_NUM, 1 },
	{ "Pct Roofline_std", "pr_std", C_NUM, 1 },
	{ "Pct Roofline_min", "pr_min", C_NUM, 1 },
	{ "Pct Roofline_max", "pr_max", C_NUM, 1 },
	{ "kernel_details__summarize_kernel_stats", "kd_kstats", C_TEXT, 0 },
	{ "trunc_kernel_details", "kd_ktrunc", C_TEXT, 0 },
	{ "Input Dims_first", "dims_first", C_LIST, 0 },
	{ "Input type_first", "types_first", C_LIST, 0 },
	{ "Input Strides_first", "strides_first", C_LIST, 0 },
	{ "Concrete Inputs_first", "conc_first", C_LIST, 0 },
	{ "Kernel Time (µs)_mean", "kt_mean", C_NUM, 0 },
	{ "Kernel Time (µs)_median", "kt_median", C_NUM, 0 },
	{ "Kernel Time (µs)_std", "kt_std", C_NUM, 0 },
	{ "Kernel Time (µs)_min", "kt_min", C_DT, 0 },
	{ "Kernel Time (µs)_max", "kt_max", C_DT, 0 },
	{ "Kernel Time (µs)_sum", "kt_sum", C_DT, 0 },
	{ "name_count", "UID_count", C_RAW, 0 },
	{ "UID_first", "UID_first", C_RAW, 0 },
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
/* The plan entry of the num_kernels column (below every -1 - j). */
#define PLAN_NK (-1 - (long)LEN(outcols))

/* What the first pass keeps of a row. */
struct row {
	off_t off;		/* its offset in the input */
	int table;		/* its table */
	int dest;		/* its sheet, or -1 when left out */
	int part;		/* 1, or 2 for a forward row moved to _bwd */
	double kt;		/* Kernel Time sum, the sort key */
	double uid;		/* UID_first, the second */
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
	fprintf(status ? stderr : stdout, "usage: %s -d dir [file]\n",
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

/* The rows of one sheet: part, kernel time descending, first UID. */
static int
rowcmp(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a;
	const struct row *y = *(const struct row *const *)b;

	if (x->part != y->part)
		return x->part - y->part;
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
    int dtflt)
{
	const char *s;
	size_t len;
	double x;

	s = rec_get(r, col, &len);
	switch (oc->kind) {
	case C_DT:
		if (!dtflt) {
			/* pandas' int64 column: the integers as they came */
			buf_add(b, s, len);
			break;
		}
		/* FALLTHROUGH */
	case C_NUM:
		if (len > 0) {
			if (num_double(s, len, &x) < 0)
				tl_die("%s: line %zu: %s: not a number: %.*s",
				    r->name, r->lineno, oc->field, (int)MIN(len, 40), s);
			csv_bnum(b, x);
		}
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

int
main(int argc, char *argv[])
{
	struct rec_reader r;
	struct reread rr;
	struct table *tab = NULL;
	struct dest *dst = NULL;
	struct row *rows = NULL, **ord;
	struct param *pp = NULL;
	struct buf b = {0}, path = {0};
	const char *dir = NULL, *s, *name;
	size_t ntab = 0, captab = 0, ndst = 0, capdst = 0, nrows = 0, caprows = 0;
	size_t capp = 0, np, i, j, k, m, len, nlen, nplan;
	long *plan;
	int ci[LEN(outcols)], ckind, csheet, cname, cparams, ckt, cuid, crt, cnk;
	int c, pass, ti, st = 0;
	off_t off;
	FILE *in = stdin, *out;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "d:")) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
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
	rec_open(&r, in, argc == 1 ? argv[0] : "<stdin>");
	rec_read_header(&r);
	ckind = rec_need(&r, "kind");
	csheet = rec_need(&r, "sheet");
	cname = rec_need(&r, "name");
	cparams = rec_need(&r, "params");
	ckt = rec_need(&r, "kt_sum");
	cuid = rec_need(&r, "UID_first");
	crt = rec_col(&r, "rt_first");
	/* a grouping key after the params (--group_by_num_kernels) */
	cnk = rec_col(&r, "num_kernels");
	for (i = 0; i < LEN(outcols); i++)
		ci[i] = outcols[i].arch && crt < 0 ? -1 : rec_need(&r, outcols[i].field);

	/* First pass: the tables, their keys, each row's place. */
	rr_open(&rr, &r);
	while (rr_next(&rr, &off)) {
		struct table *t;

		s = rec_get(&r, ckind, &len);
		if (len != 1 || (s[0] != 'F' && s[0] != 'B'))
			tl_die("%s: line %zu: kind is F or B, not '%.*s'", r.name,
			    r.lineno, (int)MIN(len, 20), s);
		c = s[0];
		s = rec_get(&r, csheet, &len);
		ti = findtable(&tab, &ntab, &captab, (char)c, s, len);
		t = &tab[ti];
		t->nrows++;
		if (crt >= 0 && (rec_get(&r, crt, &len), len > 0))
			t->roof = 1;
		/* (Python's ints, summed: pandas' int64 Kernel Time column) */
		for (i = 0; i < LEN(outcols); i++)
			if (outcols[i].kind == C_DT && ci[i] >= 0) {
				s = rec_get(&r, ci[i], &len);
				if (!num_isint(s, len))
					t->dtflt = 1;
			}
		s = rec_get(&r, cparams, &len);
		np = pdict(s, len, &pp, &capp);
		for (i = 0; i < np; i++) {
			struct pkey *pk = findkey(t, pp[i].k, pp[i].klen);

			if (pk == NULL) {
				if (t->nkeys == t->capkeys)
					tl_grow((void **)&t->keys, &t->capkeys,
					    t->nkeys + 1, sizeof(*t->keys));
				pk = &t->keys[t->nkeys++];
				memset(pk, 0, sizeof(*pk));
				pk->name = tl_strndup(pp[i].k, pp[i].klen);
			}
			pk->nrows++;
			switch (pkind(pp[i].v, pp[i].vlen)) {
			case 'f': pk->fl = 1; break;
			case 'b': case 'o': pk->ob = 1; break;
			case 'n': pk->nn = 1; break;
			default: pk->ni = 1; break;
			}
		}
		if (nrows == caprows)
			tl_grow((void **)&rows, &caprows, nrows + 1, sizeof(*rows));
		rows[nrows].off = off;
		rows[nrows].table = ti;
		rows[nrows].dest = -1;
		rows[nrows].kt = numfield(&r, ckt);
		rows[nrows].uid = numfield(&r, cuid);
		name = rec_get(&r, cname, &nlen);
		rows[nrows].tobwd = inlist(tobwd, LEN(tobwd), name, nlen);
		rows[nrows].notbwd = inlist(notbwd, LEN(notbwd), name, nlen);
		nrows++;
	}
	/* pandas: a float, a gap, or None with ints make the column float */
	for (i = 0; i < ntab; i++)
		for (j = 0; j < tab[i].nkeys; j++) {
			struct pkey *pk = &tab[i].keys[j];

			pk->flt = !pk->ob && (pk->fl || pk->nrows < tab[i].nrows ||
			    (pk->nn && pk->ni));
		}

	/*
	 * The sheets: the backward tables first (pandas puts their columns
	 * before those of the rows moved over from the forward table).
	 */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < ntab; i++) {
			struct table *t = &tab[i];
			int sing = inlist(single, LEN(single), t->sheet, strlen(t->sheet));

			if ((pass == 0) != (t->kind == 'B'))
				continue;
			if (t->kind == 'B') {
				buf_reset(&path);
				buf_adds(&path, t->sheet);
				buf_adds(&path, "_bwd");
				/* (finddest may move dst: the index first) */
				c = finddest(&dst, &ndst, &capdst, path.s, ntab);
				addcols(&dst[c], t, (int)i);
			} else if (!sing) {
				/*
				 * TraceLens concatenates the forward table's rows that
				 * move even when none does: the empty frame still adds
				 * its columns to the backward table's sheet.
				 */
				buf_reset(&path);
				buf_adds(&path, t->sheet);
				buf_adds(&path, "_bwd");
				for (k = 0; k < ndst; k++)
					if (strcmp(dst[k].name, path.s) == 0)
						addcols(&dst[k], t, (int)i);
			}
			for (k = 0; k < nrows; k++) {
				if (rows[k].table != (int)i)
					continue;
				buf_reset(&path);
				buf_adds(&path, t->sheet);
				rows[k].part = 1;
				if (t->kind == 'F') {
					if (!sing && rows[k].tobwd) {
						buf_adds(&path, "_bwd");
						rows[k].part = 2;
					} else if (!sing)
						buf_adds(&path, "_fwd");
				} else {
					if (rows[k].notbwd)
						continue;
					buf_adds(&path, "_bwd");
				}
				rows[k].dest = finddest(&dst, &ndst, &capdst, path.s, ntab);
				addcols(&dst[rows[k].dest], t, (int)i);
			}
		}

	/* pd.concat: a float64 frame makes the sheet's column float64 */
	for (k = 0; k < nrows; k++)
		if (rows[k].dest >= 0 && tab[rows[k].table].dtflt)
			dst[rows[k].dest].dtflt = 1;

	/* Second pass: each sheet, its rows read again in order. */
	ord = tl_calloc(nrows + 1, sizeof(*ord));
	for (i = 0; i < ndst; i++) {
		struct dest *d = &dst[i];
		size_t n = 0;

		for (k = 0; k < nrows; k++)
			if (rows[k].dest == (int)i)
				ord[n++] = &rows[k];
		if (n == 0)
			continue;
		qsort(ord, n, sizeof(*ord), rowcmp);
		buf_reset(&path);
		buf_adds(&path, dir);
		buf_addc(&path, '/');
		buf_adds(&path, d->name);
		buf_adds(&path, ".csv");
		out = tl_fopen(path.s, "w");
		/*
		 * Its columns: the first table's params, the fixed ones (the
		 * roofline ones in place, or none), then what pd.concat adds
		 * of the moved rows' frame: its other params, its roofline
		 * columns.  plan[]: a param column p as p, output column j as
		 * -1 - j, num_kernels (a key after the params) as PLAN_NK.
		 */
		nplan = 0;
		plan = tl_calloc(d->ncols + LEN(outcols) + 2, sizeof(*plan));
		for (j = 0; j < d->nprim; j++)
			plan[nplan++] = (long)j;
		if (cnk >= 0)
			plan[nplan++] = PLAN_NK;
		for (pass = 0; pass < 2; pass++) {
			for (j = 0; j < LEN(outcols); j++) {
				if (ci[j] < 0 || (outcols[j].arch && d->roof == 0))
					continue;
				if (pass != (outcols[j].arch && d->roof == R_END))
					continue;
				plan[nplan++] = -1 - (long)j;
			}
			for (j = d->nprim; pass == 0 && j < d->ncols; j++)
				plan[nplan++] = (long)j;
		}
		buf_reset(&b);
		buf_adds(&b, "name");
		for (m = 0; m < nplan; m++) {
			buf_addc(&b, ',');
			if (plan[m] == PLAN_NK) {
				buf_adds(&b, "num_kernels");
			} else if (plan[m] < 0) {
				buf_adds(&b, outcols[-1 - plan[m]].head);
			} else {
				struct buf h = {0};

				buf_adds(&h, "param: ");
				buf_adds(&h, d->cols[plan[m]]);
				csv_bcell(&b, h.s, h.len);
				buf_free(&h);
			}
		}
		buf_addc(&b, '\n');
		fwrite(b.s, 1, b.len, out);
		for (k = 0; k < n; k++) {
			struct table *t = &tab[ord[k]->table];

			rr_read(&rr, ord[k]->off, (size_t)(ord[k] - rows) + 2);
			buf_reset(&b);
			s = rec_get(&r, cname, &len);
			csv_bfield(&b, s, len);
			s = rec_get(&r, cparams, &len);
			np = pdict(s, len, &pp, &capp);
			for (m = 0; m < nplan; m++) {
				buf_addc(&b, ',');
				if (plan[m] == PLAN_NK) {
					s = rec_get(&r, cnk, &len);
					csv_bfield(&b, s, len);
				} else if (plan[m] < 0)
					outcell(&b, &r, ci[-1 - plan[m]], &outcols[-1 - plan[m]],
					    d->dtflt);
				else
					paramcell(&b, t, d->cols[plan[m]], pp, np);
			}
			buf_addc(&b, '\n');
			fwrite(b.s, 1, b.len, out);
		}
		free(plan);
		if (tl_fshut(out, path.s) != 0)
			st = TL_EDATA;
	}
	free(ord);
	rr_close(&rr);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	for (i = 0; i < ntab; i++) {
		for (j = 0; j < tab[i].nkeys; j++)
			free(tab[i].keys[j].name);
		free(tab[i].keys);
		free(tab[i].sheet);
	}
	free(tab);
	for (i = 0; i < ndst; i++) {
		free(dst[i].name);
		free(dst[i].cols);
		free(dst[i].added);
	}
	free(dst);
	free(rows);
	free(pp);
	buf_free(&b);
	buf_free(&path);
	return st;
}
