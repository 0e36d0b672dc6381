/* See LICENSE file for copyright and license details. */
/*
 * stages.h: what the stages of tl-coll (the files beside it) share, for
 * them and tl-coll.c alone: the options, the cells of a collective
 * record, NcclAnalyser's tables (shared.c), the layout of the
 * per-collective sheets (layout.c), and the stages themselves.  Include
 * after tl.h, coll.h and numpy.h.
 */
#ifndef TL_COLL_STAGES_H
#define TL_COLL_STAGES_H

/* The options, as main read them; each stage reads those it takes. */
struct opts {
	int mode;		/* the stage: r n m i a p s c */
	long rank;		/* -r */
	const char *facts;	/* -F: the ranks' facts */
	long world;		/* -W: ranks in the job */
	long gpn;		/* -g: GPUs a node, 0 for no node columns */
	int heat;		/* -H: write the heatmap's pairs */
	int lenient;		/* -S: metadata mismatches are warnings */
	int nodetail;		/* -N: no per-rank sheets */
	const char *dir;	/* -o: the output folder */
	const char *file;	/* -i, -a: the rows, sorted */
	const char *totals;	/* -t: the long table, by rank and UID */
	const char *sortcol;	/* -s */
	long drop;		/* -c: leading fields not written */
	const char **div;	/* -D: columns divided by 1000 */
	size_t ndiv;		/* entries in div */
	const char **ints;	/* -I: columns written as integers */
	size_t nints;		/* entries in ints */
};

/* The cells of a collective record, after its four key fields. */
enum {
	C_TS, C_DUR, C_PG, C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_OUTNEL,
	C_INSPLIT, C_OUTSPLIT, C_STREAM, C_INMB, C_OUTMB, NCOL
};
#define NKEY 4		/* process group, order (or index), rank, UID */

/* NcclAnalyser's collective types. */
enum { T_ALLREDUCE, T_REDUCESCATTER, T_ALLGATHER, T_ALLTOALL, T_ALLTOALLV };

/*
 * The per-rank columns of a sheet made of rows that each hold some
 * ranks: pandas orders the columns as the ranks first appear, a batch
 * a row, and a rank's column is a float64 one when a row lacks it.
 */
struct layout {
	long *order;		/* ranks in column order */
	size_t n;		/* ranks seen */
	size_t *bend;		/* end of each batch in order */
	size_t nb;		/* batches */
	long *pos;		/* rank -> its index in order, -1 */
	int64_t *present;	/* rank -> rows holding it */
	unsigned *facts;	/* rank * nkind + kind -> fact bits */
	int nkind;		/* values a rank has in a row */
	long world;		/* ranks possible */
	int64_t rows;		/* rows seen */
	long *at;		/* rank -> its place in the row written, -1 */
};

/* A row of the sheets: its fields, split. */
struct row {
	char *line;		/* the line, owned */
	size_t cap;		/* allocated size of line */
	char **f;		/* its fields */
	size_t *fl;		/* their lengths */
	size_t fcap;		/* allocated size of f and fl */
	size_t nf;		/* fields */
	size_t nr;		/* ranks in the row */
	const char *name;	/* the file, for messages */
	size_t lineno;		/* the line's number */
};

/* ---- the stages, a file each (rank.c: -r and -n) ---- */

void selectrank(const struct opts *opt);
void number(void);
void merge(const struct opts *opt);
void isyncsheet(const struct opts *opt);
void a2asheet(const struct opts *opt);
void heatmap(void);
void tocsv(const struct opts *opt);

/* ---- shared.c ---- */

int colltype(const char *cell, size_t len);
int dtypebytes(const char *cell, size_t len);
FILE *xfopen(const char *dir, const char *name, const char *mode);
void xclose(FILE *fp, const char *name);
void csvname(FILE *fp, const char *s, int first);
long fieldlong(const char *s, size_t len, const char *what, const char *name,
    size_t line);

/* ---- layout.c ---- */

void layinit(struct layout *L, long world, int nkind);
void layfree(struct layout *L);
int layclass(const struct layout *L, long r, int k);
int readrow(FILE *fp, struct row *w, size_t ngen, size_t per);
void laysee(struct layout *L, const struct row *w, size_t ngen, size_t per);
void layhead(FILE *fp, const struct layout *L, const char *const *kinds,
    int na, int nb);
void layrow(FILE *fp, const struct layout *L, const struct row *w,
    size_t ngen, size_t first, int node, size_t per, int na, int nb,
    struct buf *tmp);
FILE *openrows(const char *path, struct row *w);
void rowfree(struct row *w);

/*
 * ---- per-cell helpers ----
 * Static inline, as in treeio.h: a call from another file would cost
 * more than the work it does.
 */

/* Write field s[0..len) (already escaped) and a TAB or newline. */
static inline void
put(FILE *fp, const char *s, size_t len, int last)
{
	fwrite(s, 1, len, fp);
	putc(last ? '\n' : '\t', fp);
}

static inline void
puts_(FILE *fp, const char *s, int last)
{
	put(fp, s, strlen(s), last);
}

/* A CSV cell from an escaped record field. */
static inline void
csvfield(FILE *fp, const char *s, size_t len, int first, struct buf *tmp)
{
	buf_reset(tmp);
	buf_add(tmp, s, len);
	csv_sep(fp, first);
	csv_cell(fp, tmp->s, rec_unescape(tmp->s, tmp->len));
}

/* memcmp of two byte strings, the shorter first on a tie. */
static inline int
bytecmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, MIN(al, bl));

	return c ? c : al < bl ? -1 : al > bl;
}

/* The rank of the k-th rank of row w. */
static inline long
rowrank(const struct row *w, size_t ngen, size_t per, size_t k)
{
	return strtol(w->f[ngen + 1 + k * per], NULL, 10);
}

#endif
