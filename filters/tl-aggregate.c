/* See LICENSE file for copyright and license details. */
/*
 * tl-aggregate: streaming group-by over a record stream.
 *
 * Records arrive sorted by the group keys; a group is a run of records
 * with equal keys, and only the current group is held.  Each operation
 * folds one or more fields of the group into one output field, with
 * the arithmetic pandas and numpy use, so that sums, means and standard
 * deviations come out as TraceLens writes them.  Interval operations
 * (union, span, gaps, minus) measure time the way TraceLens's GPU
 * timeline does: intervals [ts, ts+dur] merged in start order, lengths
 * summed in that order, in IEEE doubles (or exact nanoseconds with -x).
 *
 * This file reads the options, the keys and the records; the summaries
 * of kernel lists (kstats, ktrunc) are in tl-aggregate/klist.c, the
 * streaming subtraction of minus in tl-aggregate/minus.c, with what
 * they share in tl-aggregate/agg.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "tl.h"
#include "numpy.h"
#include "opcat.h"
#include "tl-aggregate/agg.h"

enum opkind {
	OP_COUNT, OP_SUM, OP_NPSUM, OP_MEAN, OP_MEDIAN, OP_STD, OP_MIN, OP_MAX,
	OP_FIRST, OP_LAST, OP_SET, OP_LIST, OP_PYLIT, OP_OPCAT, OP_KCAT,
	OP_KSTATS, OP_KTRUNC, OP_UNION, OP_SPAN, OP_GAPS, OP_MINUS,
	OP_ADD, OP_JOIN, OP_PTP, OP_DTYPE, OP_HEAD, OP_VAR, OP_SEM,
	OP_KSTATSNC, OP_KCSFULL, OP_KCSFLAT, OP_NUNIQUE, OP_PROD
};

/* The name of each operation on the command line, by enum opkind. */
static const char *const opnames[] = {
	"count", "sum", "npsum", "mean", "median", "std", "min", "max",
	"first", "last", "set", "list", "pylit", "opcat", "kcat",
	"kstats", "ktrunc", "union", "span", "gaps", "minus",
	"add", "join", "ptp", "dtype", "head", "var", "sem",
	"kstatsnc", "kcsfull", "kcsflat", "nunique", "prod"
};

/* What kl_put writes for a kernel-list operation (kstats...), or -1. */
static int
klmode(enum opkind k)
{
	switch (k) {
	case OP_KSTATS: return KL_STATS;
	case OP_KSTATSNC: return KL_STATSNC;
	case OP_KTRUNC: return KL_TRUNC;
	case OP_KCSFULL: return KL_CSFULL;
	case OP_KCSFLAT: return KL_CSFLAT;
	default: return -1;
	}
}

/* One operation of the command line and its state for the current group. */
struct op {
	enum opkind kind;	/* what it computes */
	int f[3];		/* input columns (-1: none) */
	int nf;			/* columns named */
	char *outname;		/* output column name, owned */
	char *fname[3];		/* field names as given, owned */
	char *sel;		/* union: FIELD=VALUE value; minus: B; owned */
	char *sub[2];		/* minus: classes subtracted, in order; owned */
	double thresh;		/* gaps: threshold */
	int cmp;		/* gaps: 0 all, '<' below, '>' at or above */
	char **listf;		/* list: member names, owned */
	int nlist;		/* list: number of members */
	int *listc;		/* list: member columns */
	/* group state */
	size_t n;		/* values counted */
	double sum, comp;	/* Kahan sum and compensation (pandas); npsum: the full blocks'; prod: the product */
	double mean, m2;	/* Welford mean and sum of squares (pandas var) */
	double *vals;		/* median, nunique: values; npsum: a block's; owned */
	size_t nvals, capvals;	/* median, nunique, npsum: used, allocated */
	double ext;		/* min/max: extreme value; ptp: the largest */
	double lo;		/* ptp: the least value */
	int nonint;		/* dtype, sum, prod, min, max: some value is not an integer text */
	int64_t isum;		/* sum, prod: the integers' sum or product, while nonint is 0 */
	struct buf txt;		/* first/last/min/max/pylit/opcat: text */
	struct buf txt2;	/* opcat: first kernel name */
	int have2;		/* opcat: txt2 is set */
	char **set;		/* set: values, owned */
	size_t nset, capset;	/* set: used, allocated */
	struct klist *kl;	/* kstats, ktrunc: the kernel lists, owned */
	struct merger m[3];	/* interval mergers: [0] main, minus: B, A1, A2 */
	struct minus mn;	/* minus: the subtraction in progress */
};

/* A group key column. */
struct key {
	char *name;	/* field name, owned */
	int col;	/* input column */
	int num;	/* compared as a number (NAME:n) */
};

static int xflag;	/* -x: exact integer nanoseconds */
static int eflag;	/* -e: interval operations read start and end, not ts and dur */
static int nflag;	/* -n: times are nanoseconds, not microseconds */
static int Hflag;	/* -H: grouped by the field hkey, not sorted by the keys */
static struct key *kord;	/* -K: the order fields after the hash, owned */
static int nkord;	/* -K: their number; 0 without -K */
static const char *Nnames;	/* -N: the input's field names, for want of a header */
static int Oflag;	/* -O: -K writes each record's offset, not its fields */
static const char *Rpath;	/* -R: -H reads the records at the offsets, here */

/* The digits of a hash in hkey; a group key longer than this is a bug. */
enum { HASHLEN = 32 };

/* The input's header: read, or with -N named. */
static void
header(struct rec_reader *r)
{
	if (Nnames != NULL)
		rec_name_header(r, Nnames);
	else
		rec_read_header(r);
}

/* The next record, as wide as the header: -N drops the fields after
 * the named ones (a file's columns not wanted, without a cut). */
static int
next(struct rec_reader *r)
{
	if (!rec_read(r))
		return 0;
	if (Nnames != NULL && r->nf > r->nhdr)
		r->nf = r->nhdr;
	rec_check_width(r);
	return 1;
}

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-aggregate [-eHnx] [-N names] [-R file] [-g key[,key...]] [name=]op[:field[,field...]] ...\n"
	    "       tl-aggregate [-O] [-N names] -g key[,key...] -K field[,field...]\n");
	exit(status);
}

/* ---- times ---- */

/* The interval arithmetic (ival.c) in the chosen units. */
static int
parsetime(const char *s, size_t len, union tv *t)
{
	if (nflag)
		return ival_parse_ns(xflag, s, len, t);
	return ival_parse(xflag, s, len, t);
}

static union tv
tv_add(union tv a, union tv b)
{
	return ival_add(xflag, a, b);
}

static union tv
tv_sub(union tv a, union tv b)
{
	return ival_sub(xflag, a, b);
}

static union tv
tv_zero(void)
{
	return ival_zero(xflag);
}

static void
tv_put(FILE *fp, union tv t)
{
	char b[64];

	fputs(ival_fmt(xflag, t, b, sizeof(b)), fp);
}

/* Add [s, e] to merger m of o; starts must not decrease. */
static void
madd(struct merger *m, struct op *o, union tv s, union tv e, int sint,
    int eint, struct rec_reader *r)
{
	if (mg_add(m, s, e, sint, eint) < 0)
		tl_die("%s: line %zu: %s: '%s' decreases within the group "
		    "(interval operations need the group in start order)",
		    r->name, r->lineno, opnames[o->kind], o->fname[0]);
}

/* ---- numbers as pandas and numpy compute them ---- */

static int
dblcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of a[0..n), n > 0; sorts a. */
double
median(double *a, size_t n)
{
	qsort(a, n, sizeof(*a), dblcmp);
	if (n % 2)
		return a[n / 2];
	return (a[n / 2 - 1] + a[n / 2]) / 2;
}

/* The distinct values of a[0..n) (0.0 and -0.0 one value, as pandas'
 * hash table has them); sorts a. */
static size_t
nunique(double *a, size_t n)
{
	size_t i, k;

	qsort(a, n, sizeof(*a), dblcmp);
	for (i = k = 0; i < n; i++)
		if (i == 0 || a[i] != a[i - 1])
			k++;
	return k;
}

static void
putnum(FILE *fp, double d)
{
	char b[64];

	fputs(num_pyrepr(d, b, sizeof(b)), fp);
}

/* ---- operations ---- */

static int
setcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
opreset(struct op *o)
{
	size_t i;

	o->n = 0;
	o->sum = o->comp = 0;
	o->mean = o->m2 = 0;
	o->nvals = 0;
	o->nonint = 0;
	o->isum = o->kind == OP_PROD;
	if (o->kind == OP_PROD)
		o->sum = 1;
	buf_reset(&o->txt);
	buf_reset(&o->txt2);
	o->have2 = 0;
	for (i = 0; i < o->nset; i++)
		free(o->set[i]);
	o->nset = 0;
	if (o->kl != NULL)
		kl_reset(o->kl);
	for (i = 0; i < 3; i++) {
		o->m[i].exact = xflag;
		o->m[i].cmp = o->cmp;
		o->m[i].thresh = o->thresh;
		mg_reset(&o->m[i]);
	}
	mn_reset(&o->mn, o->m, o->sub[1] != NULL, xflag);
}

static double
getnum(struct op *o, const char *s, size_t len, struct rec_reader *r)
{
	double d;

	if (num_double(s, len, &d) < 0)
		tl_die("%s: line %zu: %s: '%s' is not a number: %.40s",
		    r->name, r->lineno, opnames[o->kind], o->fname[0], s);
	return d;
}

static void
opadd(struct op *o, struct rec_reader *r)
{
	const char *s;
	size_t len, i;
	double d, y, t, old;
	int64_t iv;
	union tv ts, dur, e;
	int mi, sint, dint;

	s = rec_get(r, o->f[0], &len);
	switch (o->kind) {
	case OP_COUNT:
		if (o->f[0] < 0 || len > 0)
			o->n++;
		break;
	case OP_SUM:
	case OP_MEAN:
		if (len == 0)
			break;
		d = getnum(o, s, len, r);
		/* pandas' sum of an int64 column: int64 (on overflow the
		 * float sum, rather than numpy's wrap) */
		if (!o->nonint && (num_jsonint(s, len, &iv) < 0 ||
		    (iv > 0 && o->isum > INT64_MAX - iv) ||
		    (iv < 0 && o->isum < INT64_MIN - iv)))
			o->nonint = 1;
		if (!o->nonint)
			o->isum += iv;
		/* pandas' group sum and mean: Kahan summation */
		y = d - o->comp;
		t = o->sum + y;
		o->comp = t - o->sum - y;
		o->sum = t;
		o->n++;
		break;
	case OP_ADD:
		if (len == 0)
			break;
		/* Python's sum() or +=: one after another, in order */
		o->sum += getnum(o, s, len, r);
		o->n++;
		break;
	case OP_JOIN:
		if (len == 0)
			break;
		if (o->n++ > 0)
			buf_adds(&o->txt, "; ");
		buf_add(&o->txt, s, len);
		break;
	case OP_STD:
	case OP_VAR:
	case OP_SEM:
		if (len == 0)
			break;
		d = getnum(o, s, len, r);
		/* pandas' group var: Welford's update */
		o->n++;
		old = o->mean;
		o->mean += (d - old) / (double)o->n;
		o->m2 += (d - o->mean) * (d - old);
		break;
	case OP_NPSUM:
		if (len == 0)
			break;
		d = getnum(o, s, len, r);
		/* np.sum adds block after block: one block held at a time */
		if (o->nvals == NP_BLOCK) {
			o->sum += np_sum(o->vals, o->nvals);
			o->nvals = 0;
		}
		tl_grow((void **)&o->vals, &o->capvals, o->nvals + 1,
		    sizeof(*o->vals));
		o->vals[o->nvals++] = d;
		break;
	case OP_MEDIAN:
	case OP_NUNIQUE:
		if (len == 0)
			break;
		d = getnum(o, s, len, r);
		/* (pandas' nunique leaves NaN out) */
		if (o->kind == OP_NUNIQUE && isnan(d))
			break;
		tl_grow((void **)&o->vals, &o->capvals, o->nvals + 1,
		    sizeof(*o->vals));
		o->vals[o->nvals++] = d;
		break;
	case OP_PROD:
		if (len == 0)
			break;
		d = getnum(o, s, len, r);
		/* pandas' group prod: one value after another, in order; of
		 * an int64 column, int64 (on overflow the float product, as
		 * for sum) */
		if (!o->nonint && (num_jsonint(s, len, &iv) < 0 ||
		    __builtin_mul_overflow(o->isum, iv, &o->isum)))
			o->nonint = 1;
		o->sum *= d;
		o->n++;
		break;
	case OP_MIN:
	case OP_MAX:
		if (len == 0)
			break;
		d = getnum(o, s, len, r);
		if (!num_isint(s, len))
			o->nonint = 1;
		if (o->n == 0 || (o->kind == OP_MIN ? d < o->ext : d > o->ext)) {
			o->ext = d;
			buf_reset(&o->txt);
			buf_add(&o->txt, s, len);
		}
		o->n++;
		break;
	case OP_PTP:
		if (len == 0)
			break;
		d = getnum(o, s, len, r);
		if (o->n == 0 || d > o->ext)
			o->ext = d;
		if (o->n == 0 || d < o->lo)
			o->lo = d;
		o->n++;
		break;
	case OP_DTYPE:
		if (len == 0)
			break;
		(void)getnum(o, s, len, r);
		if (!num_isint(s, len))
			o->nonint = 1;
		o->n++;
		break;
	case OP_FIRST:
	case OP_PYLIT:
	case OP_KCAT:
		if (len == 0 || o->n > 0)
			break;
		buf_add(&o->txt, s, len);
		o->n = 1;
		break;
	case OP_HEAD:	/* pandas's first of a column of strings: "" counts */
		if (o->n > 0)
			break;
		buf_add(&o->txt, s, len);
		o->n = 1;
		break;
	case OP_LAST:
		if (len == 0)
			break;
		buf_reset(&o->txt);
		buf_add(&o->txt, s, len);
		o->n = 1;
		break;
	case OP_OPCAT:
		if (o->n == 0) {
			buf_add(&o->txt, s, len);
			o->n = 1;
		}
		if (o->nf > 1 && !o->have2) {
			s = rec_get(r, o->f[1], &len);
			if (len > 0) {
				buf_add(&o->txt2, s, len);
				o->have2 = 1;
			}
		}
		break;
	case OP_SET:
		if (len == 0)
			break;
		for (i = 0; i < o->nset; i++)
			if (strlen(o->set[i]) == len &&
			    memcmp(o->set[i], s, len) == 0)
				break;
		if (i < o->nset)
			break;
		tl_grow((void **)&o->set, &o->capset, o->nset + 1,
		    sizeof(*o->set));
		o->set[o->nset++] = tl_strndup(s, len);
		break;
	case OP_LIST:
		buf_addc(&o->txt, o->n ? ',' : '[');
		buf_addc(&o->txt, '{');
		for (i = 0; i < (size_t)o->nlist; i++) {
			char *v;

			if (i)
				buf_addc(&o->txt, ',');
			json_str(&o->txt, o->listf[i], strlen(o->listf[i]));
			buf_addc(&o->txt, ':');
			v = (char *)rec_get(r, o->listc[i], &len);
			json_val(&o->txt, v, len);
		}
		buf_addc(&o->txt, '}');
		o->n++;
		break;
	case OP_KSTATS:
	case OP_KTRUNC:
	case OP_KSTATSNC:
	case OP_KCSFULL:
	case OP_KCSFLAT:
		if (len == 0)
			break;
		{
			char *u = tl_strndup(s, len);
			size_t n = rec_unescape(u, len);

			kl_add(o->kl, u, n, opnames[o->kind], o->fname[0], r);
			free(u);
		}
		break;
	case OP_UNION:
	case OP_SPAN:
	case OP_GAPS:
	case OP_MINUS:
		mi = 0;
		if (o->sel != NULL) {
			const char *c;
			size_t clen;

			/* minus: [0] is B, [1] and [2] the classes taken away */
			c = rec_get(r, o->f[2], &clen);
			if (clen == strlen(o->sel) && memcmp(c, o->sel, clen) == 0)
				mi = 0;
			else if (o->kind != OP_MINUS)
				break;
			else if (clen == strlen(o->sub[0]) &&
			    memcmp(c, o->sub[0], clen) == 0)
				mi = 1;
			else if (o->sub[1] != NULL &&
			    clen == strlen(o->sub[1]) &&
			    memcmp(c, o->sub[1], clen) == 0)
				mi = 2;
			else
				break;
		}
		if (parsetime(s, len, &ts) < 0)
			tl_die("%s: line %zu: %s: '%s' is not a time: %.40s",
			    r->name, r->lineno, opnames[o->kind], o->fname[0], s);
		/* (Python's ints stay ints; ns are divided by 1000.0) */
		sint = !nflag && num_isint(s, len);
		s = rec_get(r, o->f[1], &len);
		if (parsetime(s, len, &dur) < 0)
			tl_die("%s: line %zu: %s: '%s' is not a time: %.40s",
			    r->name, r->lineno, opnames[o->kind], o->fname[1], s);
		dint = !nflag && num_isint(s, len);
		e = eflag ? dur : tv_add(ts, dur);
		if (!eflag)
			dint = sint && dint;
		if (o->kind == OP_MINUS)
			mn_add(&o->mn, mi, ts, e, sint, dint, o->fname[0], r);
		else
			madd(&o->m[mi], o, ts, e, sint, dint, r);
		break;
	}
}

static void
opput(FILE *fp, struct op *o)
{
	struct buf b = {0};
	char nb[64];
	size_t i;
	struct merger *m = &o->m[0];

	switch (o->kind) {
	case OP_COUNT:
		fprintf(fp, "%zu", o->n);
		break;
	case OP_SUM:
	case OP_PROD:
		/* (prod of no value: 1.0, in the float64 column its NaN
		 * makes) */
		if (!xflag && o->n > 0 && !o->nonint) {
			fprintf(fp, "%lld", (long long)o->isum);
			break;
		}
		putnum(fp, o->sum);
		break;
	case OP_ADD:
		putnum(fp, o->sum);
		break;
	case OP_JOIN:
		fwrite(o->txt.s ? o->txt.s : "", 1, o->txt.len, fp);
		break;
	case OP_MEAN:
		if (o->n > 0)
			putnum(fp, o->sum / (double)o->n);
		break;
	case OP_STD:
		if (o->n > 1)
			putnum(fp, sqrt(o->m2 / (double)(o->n - 1)));
		break;
	case OP_VAR:
		if (o->n > 1)
			putnum(fp, o->m2 / (double)(o->n - 1));
		break;
	case OP_SEM:
		/* pandas: std / sqrt(count), in that order */
		if (o->n > 1)
			putnum(fp, sqrt(o->m2 / (double)(o->n - 1)) / sqrt((double)o->n));
		break;
	case OP_MEDIAN:
		if (o->nvals > 0)
			putnum(fp, median(o->vals, o->nvals));
		break;
	case OP_NUNIQUE:
		fprintf(fp, "%zu", nunique(o->vals, o->nvals));
		break;
	case OP_NPSUM:
		/* (np_sum of a block is 0.0 plus its pairwise sum: as the
		 * running sum is never -0.0, the total is np.sum's) */
		putnum(fp, o->sum + np_sum(o->vals, o->nvals));
		break;
	case OP_PTP:
		if (o->n > 0)
			putnum(fp, o->ext - o->lo);
		break;
	case OP_DTYPE:
		if (o->n > 0)
			fputs(o->nonint ? "float64" : "int64", fp);
		break;
	case OP_MIN:
	case OP_MAX:
		/* pandas: one float makes the column float64, its ints too */
		if (o->nonint && num_isint(o->txt.s, o->txt.len)) {
			putnum(fp, o->ext);
			break;
		}
		/* FALLTHROUGH */
	case OP_FIRST:
	case OP_LAST:
	case OP_HEAD:
		fwrite(o->txt.s ? o->txt.s : "", 1, o->txt.len, fp);
		break;
	case OP_PYLIT:
		if (o->n == 0)
			break;
		pylit_field(&b, o->txt.s ? o->txt.s : "", o->txt.len);
		fwrite(b.s ? b.s : "", 1, b.len, fp);
		break;
	case OP_OPCAT:
		{
			char *nm = tl_strndup(o->txt.s ? o->txt.s : "", o->txt.len);
			char *kn = NULL;

			rec_unescape(nm, o->txt.len);
			if (o->have2) {
				kn = tl_strndup(o->txt2.s, o->txt2.len);
				rec_unescape(kn, o->txt2.len);
			}
			rec_puts(fp, opcat(nm, kn));
			free(nm);
			free(kn);
		}
		break;
	case OP_KCAT:
		{
			char *nm = tl_strndup(o->txt.s ? o->txt.s : "", o->txt.len);

			rec_unescape(nm, o->txt.len);
			fputs(kernelcat(nm), fp);
			free(nm);
		}
		break;
	case OP_SET:
		for (i = 0; i < o->nset; i++)
			rec_unescape(o->set[i], strlen(o->set[i]));
		qsort(o->set, o->nset, sizeof(*o->set), setcmp);
		buf_addc(&b, '[');
		for (i = 0; i < o->nset; i++) {
			if (i)
				buf_adds(&b, ", ");
			pystr(&b, o->set[i], strlen(o->set[i]));
		}
		buf_addc(&b, ']');
		rec_put(fp, b.s, b.len);
		break;
	case OP_LIST:
		if (o->n > 0)
			buf_addc(&o->txt, ']');
		rec_put(fp, o->txt.s ? o->txt.s : "", o->txt.len);
		break;
	case OP_KSTATS:
	case OP_KTRUNC:
	case OP_KSTATSNC:
	case OP_KCSFULL:
	case OP_KCSFLAT:
		kl_put(fp, o->kl, (enum klmode)klmode(o->kind), xflag);
		break;
	case OP_UNION:
		mg_close(m);
		if (m->seen)
			fputs(mg_fmt(m, m->sum, nb, sizeof(nb)), fp);
		else
			tv_put(fp, tv_zero());
		break;
	case OP_SPAN:
		if (m->seen) {
			union tv end = m->cur.e;

			mg_close(m);
			tv_put(fp, tv_sub(end, m->first));
		}
		break;
	case OP_GAPS:
		mg_close(m);
		tv_put(fp, m->seen ? m->gsum : tv_zero());
		break;
	case OP_MINUS:
		tv_put(fp, mn_sum(&o->mn));
		break;
	}
	(void)nb;
	buf_free(&b);
}

/* ---- command line ---- */

static char *
splitnext(char **p, int c)
{
	char *s = *p, *e;

	if (s == NULL)
		return NULL;
	if ((e = strchr(s, c)) != NULL) {
		*e = '\0';
		*p = e + 1;
	} else
		*p = NULL;
	return s;
}

/* Parse [name=]op[:field[,field...]]. */
static void
opparse(struct op *o, const char *spec)
{
	char *s = tl_strdup(spec), *args, *eq, *p, *f, *end;
	char *fl[8];
	size_t k;
	int i, nfl = 0;

	memset(o, 0, sizeof(*o));
	o->f[0] = o->f[1] = o->f[2] = -1;
	args = s;
	/* a name is what comes before an '=' that precedes any ':' */
	eq = strchr(s, '=');
	if (eq != NULL && (strchr(s, ':') == NULL || eq < strchr(s, ':'))) {
		*eq = '\0';
		o->outname = tl_strdup(s);
		args = eq + 1;
	}
	p = strchr(args, ':');
	if (p != NULL)
		*p++ = '\0';
	for (k = 0; k < LEN(opnames); k++)
		if (strcmp(args, opnames[k]) == 0)
			break;
	if (k == LEN(opnames))
		tl_usage_die("unknown operation '%s'", args);
	o->kind = (enum opkind)k;
	while ((f = splitnext(&p, ',')) != NULL) {
		if (o->kind == OP_LIST) {
			o->listf = tl_realloc(o->listf,
			    (size_t)(o->nlist + 1) * sizeof(*o->listf));
			o->listf[o->nlist++] = tl_strdup(f);
		} else if (nfl < (int)LEN(fl))
			fl[nfl++] = f;
		else
			tl_usage_die("%s: too many fields", opnames[k]);
	}
	switch (o->kind) {
	case OP_LIST:
		if (o->nlist == 0)
			tl_usage_die("list needs fields: list:f1,f2,...");
		break;
	case OP_COUNT:
		if (nfl > 1)
			tl_usage_die("count takes at most one field");
		break;
	case OP_OPCAT:
		if (nfl < 1 || nfl > 2)
			tl_usage_die("opcat takes a name field and an optional "
			    "kernel-name field");
		break;
	case OP_UNION:
	case OP_SPAN:
	case OP_GAPS:
		if (nfl < 2 || nfl > 3)
			tl_usage_die("%s needs ts,dur and at most one more "
			    "argument", opnames[k]);
		if (nfl == 3 && o->kind == OP_GAPS) {
			/* gaps:ts,dur,<T or >=T */
			f = fl[2];
			if (f[0] == '<')
				o->cmp = '<', f++;
			else if (f[0] == '>' && f[1] == '=')
				o->cmp = '>', f += 2;
			else
				tl_usage_die("gaps: third argument is <T or >=T");
			o->thresh = strtod(f, &end);
			if (*f == '\0' || *end != '\0')
				tl_usage_die("gaps: bad threshold '%s'", f);
			nfl = 2;
		} else if (nfl == 3) {
			/* FIELD=VALUE: only the records whose FIELD is VALUE */
			if ((f = strchr(fl[2], '=')) == NULL)
				tl_usage_die("%s: third argument is FIELD=VALUE",
				    opnames[k]);
			*f++ = '\0';
			o->sel = tl_strdup(f);
		}
		break;
	case OP_MINUS:
		/* minus:ts,dur,FIELD=B,A1[,A2] */
		if (nfl < 4 || nfl > 5 || (f = strchr(fl[2], '=')) == NULL)
			tl_usage_die("minus: use minus:ts,dur,FIELD=B,A1[,A2]");
		*f++ = '\0';
		o->sel = tl_strdup(f);
		o->sub[0] = tl_strdup(fl[3]);
		if (nfl == 5)
			o->sub[1] = tl_strdup(fl[4]);
		nfl = 3;
		break;
	default:
		if (nfl != 1)
			tl_usage_die("%s takes one field", opnames[k]);
		break;
	}
	for (i = 0; i < nfl && i < 3; i++)
		o->fname[o->nf++] = tl_strdup(fl[i]);
	if (klmode(o->kind) >= 0)
		o->kl = kl_new();
	if (o->outname == NULL) {
		struct buf b = {0};

		if (o->nf > 0 && o->kind != OP_UNION && o->kind != OP_SPAN &&
		    o->kind != OP_GAPS && o->kind != OP_MINUS) {
			buf_adds(&b, o->fname[0]);
			buf_addc(&b, '_');
		}
		buf_adds(&b, opnames[k]);
		o->outname = b.s;
	}
	free(s);
}

static void
opbind(struct op *o, struct rec_reader *r)
{
	int i;

	if (o->kind == OP_LIST) {
		o->listc = tl_calloc((size_t)o->nlist, sizeof(*o->listc));
		for (i = 0; i < o->nlist; i++)
			o->listc[i] = rec_need(r, o->listf[i]);
		return;
	}
	for (i = 0; i < o->nf; i++)
		o->f[i] = rec_need(r, o->fname[i]);
	if (o->sel != NULL)
		o->f[2] = rec_need(r, o->fname[2]);
}

static void
opfree(struct op *o)
{
	int i;

	opreset(o);
	free(o->outname);
	for (i = 0; i < 3; i++)
		free(o->fname[i]);
	mn_free(&o->mn);
	free(o->sel);
	free(o->sub[0]);
	free(o->sub[1]);
	for (i = 0; i < o->nlist; i++)
		free(o->listf[i]);
	free(o->listf);
	free(o->listc);
	kl_free(o->kl);
	free(o->vals);
	free(o->set);
	buf_free(&o->txt);
	buf_free(&o->txt2);
}

/* ---- keys ---- */

/* Compare decimal number texts a and b numerically (as sort -n does). */
static int
numcmp(const char *a, size_t alen, const char *b, size_t blen)
{
	long double x, y;
	char ba[128], bb[128];

	if (alen >= sizeof(ba) || blen >= sizeof(bb))
		return 0;
	memcpy(ba, a, alen);
	ba[alen] = '\0';
	memcpy(bb, b, blen);
	bb[blen] = '\0';
	x = alen ? strtold(ba, NULL) : 0;
	y = blen ? strtold(bb, NULL) : 0;
	return (x > y) - (x < y);
}

static int
bytecmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, MIN(alen, blen));

	if (c)
		return c;
	return (alen > blen) - (alen < blen);
}

static void
keyparse(const char *spec, struct key **keys, int *nkeys)
{
	char *s = tl_strdup(spec), *p = s, *f;
	size_t len;
	struct key *k;

	while ((f = splitnext(&p, ',')) != NULL) {
		*keys = tl_realloc(*keys, (size_t)(*nkeys + 1) * sizeof(**keys));
		k = &(*keys)[(*nkeys)++];
		len = strlen(f);
		k->num = len > 2 && strcmp(f + len - 2, ":n") == 0;
		k->name = tl_strndup(f, k->num ? len - 2 : len);
		k->col = -1;
	}
	free(s);
}

/* ---- main loop ---- */

static void
emit(FILE *fp, struct key *keys, int nkeys, struct buf *kv, size_t *koff,
    struct op *ops, int nops)
{
	int i;

	for (i = 0; i < nkeys; i++) {
		fwrite(kv->s + koff[i], 1, koff[i + 1] - koff[i] - 1, fp);
		putc('\t', fp);
	}
	for (i = 0; i < nops; i++) {
		if (i)
			putc('\t', fp);
		opput(fp, &ops[i]);
	}
	putc('\n', fp);
	(void)keys;
}

/*
 * -K: each record after a first field hkey: the XXH3-128 hash of its
 * group keys (joined by TABs, as read) in HASHLEN hex digits, then its
 * order fields (as read; NAME:n ones as 20 zero-padded digits).  sort
 * -k1,1 then compares bytes, not long keys, and brings each group
 * together with its records in order, for -H.  Memory: one record.
 */
static void
keymode(FILE *in, const char *name, FILE *out, struct key *keys, int nkeys)
{
	struct rec_reader r;
	struct buf kv = {0};
	XXH128_hash_t h;
	const char *s, *e;
	size_t i, len;
	off_t off = 0;
	int k;

	rec_open(&r, in, name);
	header(&r);
	for (k = 0; k < nkeys; k++)
		keys[k].col = rec_need(&r, keys[k].name);
	for (k = 0; k < nkord; k++)
		kord[k].col = rec_need(&r, kord[k].name);
	fputs("hkey", out);
	for (i = 0; i < r.nhdr && !Oflag; i++) {
		putc('\t', out);
		rec_puts(out, r.hdr[i]);
	}
	fputs(Oflag ? "\toffset\tlength\n" : "\n", out);
	while (next(&r)) {
		buf_reset(&kv);
		for (k = 0; k < nkeys; k++) {
			s = rec_get(&r, keys[k].col, &len);
			if (k)
				buf_addc(&kv, '\t');
			buf_add(&kv, s, len);
		}
		h = XXH3_128bits(kv.s, kv.len);
		buf_reset(&kv);
		for (k = 0; k < nkord; k++) {
			s = rec_get(&r, kord[k].col, &len);
			if (!kord[k].num) {
				buf_add(&kv, s, len);
				continue;
			}
			/* (20 digits hold any unsigned 64-bit number) */
			for (e = s; e < s + len && *e >= '0' && *e <= '9'; e++)
				;
			if (len == 0 || e != s + len || len > 20)
				tl_die("%s: line %zu: %s is not a whole number: %s",
				    name, r.lineno, kord[k].name, s);
			for (i = len; i < 20; i++)
				buf_addc(&kv, '0');
			buf_add(&kv, s, len);
		}
		fprintf(out, "%016llx%016llx", (unsigned long long)h.high64,
		    (unsigned long long)h.low64);
		fwrite(kv.s, 1, kv.len, out);
		if (Oflag) {
			/* (the record's bytes from the first record's: its
			 * line read again by -H -R) */
			fprintf(out, "\t%lld\t%zu\n", (long long)off, r.curlen);
			off += (off_t)r.curlen + 1;
			continue;
		}
		for (i = 0; i < r.nf; i++) {
			putc('\t', out);
			fwrite(r.f[i].s, 1, r.f[i].len, out);
		}
		putc('\n', out);
	}
	buf_free(&kv);
	rec_close(&r);
}

/*
 * -H: whether the record r, whose hkey is hk, starts a new group; it
 * dies when r comes before the last record (hkey out of order) or
 * shares its hash with a group of other keys.  last holds the previous
 * hkey.
 */
static int
hnext(struct rec_reader *r, const char *name, struct buf *last,
    const char *hk, size_t hlen, struct key *keys, int nkeys,
    const struct buf *kv, const size_t *koff)
{
	const char *s;
	size_t len;
	int i;

	if (hlen < HASHLEN)
		tl_die("%s: line %zu: hkey is not a hash of %d hex digits: %s",
		    name, r->lineno, HASHLEN, hk);
	if (last->len > 0 && bytecmp(last->s, last->len, hk, hlen) > 0)
		tl_die("%s: line %zu: input not sorted by hkey "
		    "(tl-aggregate -H needs it sorted by sort -k1,1)",
		    name, r->lineno);
	if (last->len == 0 || memcmp(last->s, hk, HASHLEN) != 0) {
		buf_reset(last);
		buf_add(last, hk, hlen);
		return 1;
	}
	buf_reset(last);
	buf_add(last, hk, hlen);
	for (i = 0; i < nkeys; i++) {
		s = rec_get(r, keys[i].col, &len);
		if (bytecmp(kv->s + koff[i], koff[i + 1] - koff[i] - 1, s, len))
			tl_die("%s: line %zu: two groups share the hash %.*s "
			    "(a collision: group this input by sort instead)",
			    name, r->lineno, HASHLEN, hk);
	}
	return 0;
}

/* -R's records, read again by offset from the file (fr, rr) as the
 * input's lines (hr: hkey offset) give them. */
struct refs {
	struct rec_reader hr;	/* the input: hkey offset, with a header */
	struct rec_reader fr;	/* the file's records */
	struct reread rr;	/* fr read by offset */
	FILE *fp;		/* the file, owned */
};

/* The next record, into r (hr's line giving *hk: -R; else r's hkey
 * field hc, with -H), as wide as the header; 0 at the end. */
static int
fetch(struct refs *rf, struct rec_reader *r, int hc, const char **hk,
    size_t *hlen)
{
	int64_t off, n;
	const char *s, *t;
	size_t len, tlen;

	if (rf == NULL) {
		if (!next(r))
			return 0;
		if (hc >= 0)
			*hk = rec_get(r, hc, hlen);
		return 1;
	}
	if (!rec_read(&rf->hr))
		return 0;
	*hk = rec_get(&rf->hr, 0, hlen);
	s = rec_get(&rf->hr, 1, &len);
	t = rec_get(&rf->hr, 2, &tlen);
	if (num_int64(s, len, &off) != 0 || off < 0 ||
	    num_int64(t, tlen, &n) != 0 || n < 0)
		tl_die("%s: line %zu: not an offset and a length: %s %s",
		    rf->hr.name, rf->hr.lineno, s, t);
	rr_readn(&rf->rr, (off_t)off, (size_t)n, rf->hr.lineno);
	if (Nnames != NULL && r->nf > r->nhdr)
		r->nf = r->nhdr;
	rec_check_width(r);
	return 1;
}

static int
aggregate(FILE *in, const char *name, FILE *out, struct key *keys, int nkeys,
    struct op *ops, int nops)
{
	struct refs *rf = NULL;
	struct rec_reader rin, *rp = &rin;
	struct buf kv = {0}, last = {0};
	size_t *koff, len, hlen = 0;
	const char *s, *hk = NULL;
	int i, c, ingroup = 0, diff, hc = -1;

	if (Rpath != NULL) {
		/* (the hkey offset lines of -K -O, sorted; the records
		 * from the file, which -N may name) */
		rf = tl_calloc(1, sizeof(*rf));
		rec_open(&rf->hr, in, name);
		rec_read_header(&rf->hr);
		rf->fp = tl_fopen(Rpath, "r");
		rec_open(&rf->fr, rf->fp, Rpath);
		header(&rf->fr);
		rr_open(&rf->rr, &rf->fr);
		rp = &rf->fr;
	} else {
		rec_open(rp, in, name);
		header(rp);
	}
	for (i = 0; i < nkeys; i++)
		keys[i].col = rec_need(rp, keys[i].name);
	if (Hflag && rf == NULL)
		hc = rec_need(rp, "hkey");
	for (i = 0; i < nops; i++)
		opbind(&ops[i], rp);
	for (i = 0; i < nkeys; i++) {
		rec_puts(out, keys[i].name);
		putc('\t', out);
	}
	for (i = 0; i < nops; i++) {
		if (i)
			putc('\t', out);
		rec_puts(out, ops[i].outname);
	}
	putc('\n', out);
	koff = tl_calloc((size_t)nkeys + 1, sizeof(*koff));
	while (fetch(rf, rp, hc, &hk, &hlen)) {
		diff = !ingroup;
		if (Hflag)
			diff = hnext(rp, name, &last, hk, hlen, keys, nkeys, &kv, koff);
		for (i = 0; !Hflag && ingroup && i < nkeys; i++) {
			s = rec_get(rp, keys[i].col, &len);
			c = keys[i].num ?
			    numcmp(kv.s + koff[i], koff[i + 1] - koff[i] - 1, s, len) :
			    bytecmp(kv.s + koff[i], koff[i + 1] - koff[i] - 1, s, len);
			if (c > 0)
				tl_die("%s: line %zu: input not sorted by '%s' "
				    "(tl-aggregate needs it sorted by its group keys)",
				    name, rp->lineno, keys[i].name);
			if (c < 0) {
				diff = 1;
				break;
			}
		}
		if (diff) {
			if (ingroup)
				emit(out, keys, nkeys, &kv, koff, ops, nops);
			buf_reset(&kv);
			for (i = 0; i < nkeys; i++) {
				koff[i] = kv.len;
				s = rec_get(rp, keys[i].col, &len);
				buf_add(&kv, s, len);
				buf_addc(&kv, '\0');
			}
			koff[nkeys] = kv.len;
			for (i = 0; i < nops; i++)
				opreset(&ops[i]);
			ingroup = 1;
		}
		for (i = 0; i < nops; i++)
			opadd(&ops[i], rp);
	}
	if (ingroup)
		emit(out, keys, nkeys, &kv, koff, ops, nops);
	free(koff);
	buf_free(&kv);
	buf_free(&last);
	rec_close(rp);
	if (rf != NULL) {
		rr_close(&rf->rr);
		rec_close(&rf->hr);
		fclose(rf->fp);
		free(rf);
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	struct key *keys = NULL;
	struct op *ops;
	int nkeys = 0, nops, c, i, st;

	tl_setprogname(argv[0]);
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--exact-time") == 0)
			argv[i] = "-x";
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "HK:N:OR:eg:nx")) != -1) {
		switch (c) {
		case 'e':
			eflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 'H':
			Hflag = 1;
			break;
		case 'K':
			keyparse(optarg, &kord, &nkord);
			break;
		case 'N':
			Nnames = optarg;
			break;
		case 'O':
			Oflag = 1;
			break;
		case 'R':
			Rpath = optarg;
			break;
		case 'g':
			keyparse(optarg, &keys, &nkeys);
			break;
		case 'x':
			xflag = 1;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (nkord > 0) {
		if (argc > 0 || nkeys == 0 || Hflag || xflag || eflag || nflag ||
		    Rpath != NULL)
			usage(TL_EUSAGE);
		keymode(stdin, "<stdin>", stdout, keys, nkeys);
		st = tl_fshut(stdout, "<stdout>");
		for (i = 0; i < nkeys; i++)
			free(keys[i].name);
		for (i = 0; i < nkord; i++)
			free(kord[i].name);
		free(keys);
		free(kord);
		return st;
	}
	if (argc < 1 || (Hflag && nkeys == 0) || Oflag || (Rpath && !Hflag))
		usage(TL_EUSAGE);
	nops = argc;
	ops = tl_calloc((size_t)nops, sizeof(*ops));
	for (i = 0; i < nops; i++)
		opparse(&ops[i], argv[i]);
	aggregate(stdin, "<stdin>", stdout, keys, nkeys, ops, nops);
	st = tl_fshut(stdout, "<stdout>");
	for (i = 0; i < nops; i++)
		opfree(&ops[i]);
	free(ops);
	for (i = 0; i < nkeys; i++)
		free(keys[i].name);
	free(keys);
	return st;
}
