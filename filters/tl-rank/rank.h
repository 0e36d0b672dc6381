/* See LICENSE file for copyright and license details. */
/*
 * rank.h: what the parts of tl-rank (the files beside it) share, for
 * them and tl-rank.c alone: the options, the ranked rows and tables,
 * the sheets, the context every part fills or reads, and the functions
 * each part gives the others.  Include after tl.h and csvread.h.
 */
#ifndef TL_RANK_H
#define TL_RANK_H

/* gpu_timeline's rows, as indices of tltype[] and of a context's tl[]. */
enum { TT_TOTAL, TT_BUSY, TT_IDLE, TT_MICRO, TT_MACRO, TT_COMP, TT_XCOMM,
    TT_XMEMCPY, TT_KERNEL, TT_MEMORY };
enum { NTT = TT_MEMORY + 1 };

/* A row of gpu_timeline the summary shows (read.c's tltype). */
struct tltype {
	const char *type;	/* the sheet's type */
	const char *label;	/* as shown */
};
extern const struct tltype tltype[NTT];

enum { U_MS, U_US, U_TFLOPS, U_TBS };	/* unit of a table's values */

#define FMTSZ	80	/* room for a formatted value, its sign and unit */

/* A regression gate, -g [SHEET:KEY=]PCT. */
struct gate {
	const char *spec;	/* as given, for messages; not owned */
	const char *sheet;	/* the sheet whose rows it limits; static */
	char *key;		/* the row's key, or "*" for every row; owned */
	double limit;		/* the most a row may grow, percent */
	int seen;		/* some report has a row of that key */
	size_t over;		/* rows and variants over the limit */
};

/* The options, as main read them. */
struct opts {
	long topn;		/* -n: rows of each table */
	long width;		/* -w: names cut to this many characters; 0 never */
	const char *kpath;	/* -k: kernel_summary records, grouped by kernel */
	const char *lpath;	/* -l: diff_stats records, grouped by ancestor */
	const char *datadir;	/* -p: the charts' data are written here */
	const char *linkdir;	/* -L: the charts are linked from here */
	struct gate *gates;	/* -g, in the order given; owned */
	size_t ngate;		/* entries of gates */
};

/*
 * A ranked row.  x holds ntag values (the baseline's first), then ntag
 * changes and ntag percent changes against the baseline (index 0 of
 * those unused); NAN is none.  V, D and P read them, with the number
 * of reports in a variable ntag.
 */
struct ent {
	char *name;	/* the row's key as shown, uncut; owned */
	char *extra;	/* a second label (shape, merged id), owned; or NULL */
	double rank;	/* what ranks it: larger first */
	long seq;	/* ties: the name, then this, lower first */
	int unit;	/* U_* of its values and changes */
	double *x;	/* values, changes, percents; owned */
};
#define V(e, i)	((e)->x[(i)])
#define D(e, i)	((e)->x[ntag + (i)])
#define P(e, i)	((e)->x[2 * ntag + (i)])

/* The best rows of a table: a heap, the worst at the root, until sorted. */
struct top {
	struct ent *e;	/* the rows kept; owned */
	size_t n;	/* rows kept */
	size_t rows;	/* rows offered */
	size_t same;	/* rows not offered: they did not change */
};

/* A table's two parts and what its shares are taken of. */
struct section {
	struct top both;	/* rows in the baseline and some variant */
	struct top one;		/* rows new or gone */
	double *gross;		/* per variant: the sum of every row's |change|; owned */
};

/* One op category: its kernel time in each report. */
struct cat {
	char *name;	/* category, from ops_summary's Categories; owned */
	double *t;	/* per report: summed time, NAN when none; owned */
};

/* One sheet of the comparison, read row by row. */
struct sheet {
	struct csvr r;	/* the reader */
	FILE *fp;	/* the file; owned */
	char *path;	/* DIR/NAME.csv; owned */
	char **hdr;	/* column names; owned */
	size_t nhdr;	/* columns */
};

/* What every part shares: the reports and the sections. */
struct ctx {
	struct opts *opt;	/* the options; the gates count what they see */
	const char *dir;	/* the comparison directory */
	char **tag;		/* the reports' tags, the baseline's first; owned */
	size_t ntag;		/* reports */
	char *tagsrc;		/* the sheet the tags came from; owned */
	struct ent tl[NTT];	/* gpu_timeline rows, as in tltype[] */
	int hastl;		/* gpu_timeline was read */
	struct section ops;	/* ops_summary's ops */
	int hasops;		/* ops_summary was read */
	struct section kern;	/* kernel_summary's kernels */
	int haskern;		/* -k was read */
	int kunit;		/* U_* of the kernel times */
	int hascats;		/* ops_summary has Categories */
	struct section cats;	/* op categories */
	struct cat *cat;	/* the categories; owned */
	size_t ncat;		/* entries of cat */
	struct top *roof;	/* per variant (from 1): modelled shapes; owned */
	struct section lca;	/* TraceDiff's subtrees (both holds them all) */
	int haslca;		/* -l was read */
	int lcasame;		/* the traces gave the same rows */
	size_t over;		/* gate lines written */
};

/* ---- table.c: rows, tables and sections ---- */

void ent_init(struct ent *e, size_t ntag);
void ent_free(struct ent *e);
void top_offer(struct top *t, struct ent *e, long topn);
void top_sort(struct top *t);
void top_free(struct top *t);
void section_free(struct section *s);
void complete(struct ent *e, size_t ntag);
void file(struct ctx *c, struct section *s, struct ent *e, size_t ntag,
    const char *sheet, int split);

/* ---- sheet.c: reading the comparison's sheets ---- */

int sheet_open(struct sheet *s, const char *dir, const char *name);
void sheet_close(struct sheet *s);
int col2(char *const *hdr, size_t n, const char *a, const char *b);
int need2(char *const *hdr, size_t n, const char *path, const char *a,
    const char *b);
void sidecols(const struct ctx *c, char *const *hdr, size_t n,
    const char *path, const char *name, int *idx);
void diffcols(const struct ctx *c, char *const *hdr, size_t n,
    const char *path, const char *name, int *di, int *pi);
void tags(struct ctx *c, char *const *hdr, size_t n, const char *path,
    const char *name);
double num(const char *s, size_t len, const char *path, size_t line);
const char *cell(const struct sheet *s, int i, size_t *len);
double cellnum(const struct sheet *s, int i);

/* ---- gate.c: the regression gates ---- */

void gate_parse(struct opts *o, const char *spec);
void gate_row(struct ctx *c, const char *sheet, const struct ent *e,
    size_t ntag);

/* ---- read.c, records.c: the sections, from sheets and records ---- */

void timeline(struct ctx *c);
void ops(struct ctx *c);
void cats(struct ctx *c);
void roofline(struct ctx *c, size_t i);
void kernels(struct ctx *c);
void lcas(struct ctx *c);

/* ---- markdown.c, plot.c: the output ---- */

/* The text of a value with its unit. */
char *fmtval(char *buf, size_t size, double x, int unit, int sign);
void cutn(struct buf *b, const char *s, size_t len, long w);
void markdown(FILE *o, struct ctx *c);
int plotdata(const struct ctx *c);

#endif
