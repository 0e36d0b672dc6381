/* See LICENSE file for copyright and license details. */
/*
 * tl-xlsx: Excel workbooks in and out of the CSV world.  Lists a
 * workbook's sheets, writes one sheet as CSV, or every sheet into a
 * directory, reading each as pandas' read_excel reads it (so that a
 * report read from a workbook is the one TraceLens reads); or writes a
 * workbook from CSV files, one sheet each, as TraceLens's to_excel
 * writes one (header row, 31-character names, hidden columns).
 *
 * Reading streams each sheet twice (xlsxread.c): once to learn its
 * width and last row, as pandas trims and pads them, once to write.
 * Writing uses libxlsxwriter's constant_memory mode: a row at a time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xlsxwriter.h>

#include "tl.h"
#include "csvread.h"
#include "xlsxread.h"

#define SHEETCHARS 31		/* Excel's limit on a sheet name, in characters */
#define CELLCHARS 32767		/* and on the text of a cell */

/* Options. */
static int fflag;		/* -f: replace an existing output */

/* ---- reading: a sheet as CSV ---- */

/* The shape pandas gives a sheet: trailing empty cells and rows cut. */
struct shape {
	size_t ncol;		/* the widest row, less its trailing empty cells */
	size_t nrow;		/* number of the last row with a value */
};

/* The state of writing one sheet as CSV. */
struct sheetout {
	FILE *fp;		/* where the CSV goes, not owned */
	struct shape sh;	/* from the first pass */
	size_t next;		/* number of the next row to write */
	int header;		/* the header row has been written */
	struct buf cell;	/* one formatted cell */
	char **names;		/* header names, for pandas' renaming; owned */
};

/* Does the cell hold a value pandas does not read as ""? */
static int
filled(const struct xcell *c)
{
	return c->kind != XC_NONE && !(c->kind == XC_STR && c->len == 0);
}

static int
measure(const struct xrow *r, void *arg)
{
	struct shape *sh = arg;
	size_t n = r->n;

	while (n > 0 && !filled(&r->c[n - 1]))
		n--;
	if (n > 0) {
		sh->nrow = r->num;
		sh->ncol = MAX(sh->ncol, n);
	}
	return 0;
}

/*
 * A number cell's text as pandas holds it, written as to_csv writes
 * it: openpyxl reads text without '.', 'e' or 'E' as a Python int and
 * the rest as a float, which pandas makes an int when it is whole.
 */
static void
fmtnum(struct buf *b, const char *s)
{
	char t[64];
	const char *p;
	double d;
	int neg;

	if (strpbrk(s, ".eE") == NULL) {
		for (p = s; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
			;
		neg = *p == '-';
		if (*p == '-' || *p == '+')
			p++;
		while (*p == '0' && p[1] >= '0' && p[1] <= '9')
			p++;
		if (neg && !(*p == '0' && (p[1] < '0' || p[1] > '9')))
			buf_addc(b, '-');
		for (; *p >= '0' && *p <= '9'; p++)
			buf_addc(b, *p);
		return;
	}
	d = strtod(s, NULL);
	if (d == 0)
		buf_addc(b, '0');
	else if (d == floor(d)) {
		snprintf(t, sizeof(t), "%.0f", d);
		buf_adds(b, t);
	} else
		buf_adds(b, num_pyrepr(d, t, sizeof(t)));
}

/* Cell j of row r (NULL: an empty row) as pandas writes it back. */
static void
fmtcell(struct buf *b, const struct xrow *r, size_t j)
{
	const struct xcell *c;
	const char *s;

	buf_reset(b);
	if (r == NULL || j >= r->n)
		return;
	c = &r->c[j];
	s = r->text.s + c->off;
	switch (c->kind) {
	case XC_NUM:
		fmtnum(b, s);
		break;
	case XC_STR:
		buf_add(b, s, c->len);
		break;
	case XC_BOOL:
		buf_adds(b, *s == '1' ? "True" : "False");
		break;
	}
}

/*
 * The header row, named as read_excel names columns: an empty name is
 * "Unnamed: i", and a repeated one gets ".1", ".2" and so on.
 */
static void
header(struct sheetout *o, const struct xrow *r)
{
	size_t j, ncol = o->sh.ncol;
	char **nm;

	nm = o->names = tl_calloc(ncol, sizeof(*nm));
	for (j = 0; j < ncol; j++) {
		fmtcell(&o->cell, r, j);
		nm[j] = tl_strndup(o->cell.s, o->cell.len);
	}
	csvr_pdnames(nm, ncol);
	for (j = 0; j < ncol; j++) {
		csv_sep(o->fp, j == 0);
		csv_cell(o->fp, nm[j], strlen(nm[j]));
	}
	putc('\n', o->fp);
}

/* Write row r (NULL: a row the sheet leaves out), as a CSV line. */
static void
putrow(struct sheetout *o, const struct xrow *r)
{
	size_t j;

	if (!o->header) {
		header(o, r);
		o->header = 1;
		return;
	}
	for (j = 0; j < o->sh.ncol; j++) {
		fmtcell(&o->cell, r, j);
		csv_sep(o->fp, j == 0);
		if (o->sh.ncol == 1 && o->cell.len == 0)
			fputs("\"\"", o->fp);	/* as Python's csv writes a lone empty field */
		else
			csv_cell(o->fp, o->cell.s ? o->cell.s : "", o->cell.len);
	}
	putc('\n', o->fp);
}

static int
writerow(const struct xrow *r, void *arg)
{
	struct sheetout *o = arg;

	if (r->num > o->sh.nrow)
		return 1;	/* the rest is empty */
	for (; o->next < r->num; o->next++)
		putrow(o, NULL);
	putrow(o, r);
	o->next++;
	return 0;
}

/* Sheet i of x as CSV on fp; 0, or -1 with x->err set (nothing written). */
static int
sheetcsv(struct xlsx *x, size_t i, FILE *fp)
{
	struct sheetout o;
	size_t j;
	int rc;

	memset(&o, 0, sizeof(o));
	o.fp = fp;
	o.next = 1;
	if (xlsx_read(x, i, measure, &o.sh) != 0)
		return -1;
	if (o.sh.ncol == 0) {
		putc('\n', fp);	/* pandas writes an empty frame so */
		return 0;
	}
	rc = xlsx_read(x, i, writerow, &o);
	if (o.names != NULL)
		for (j = 0; j < o.sh.ncol; j++)
			free(o.names[j]);
	free(o.names);
	buf_free(&o.cell);
	return rc < 0 ? -1 : 0;
}

static void
openbook(struct xlsx *x, const char *path)
{
	if (xlsx_open(x, path) != 0) {
		tl_warn("%s: %s", path, x->err);
		xlsx_close(x);
		exit(TL_EDATA);
	}
}

static int
listsheets(const char *path)
{
	struct xlsx x;
	size_t i;

	openbook(&x, path);
	for (i = 0; i < x.nsheet; i++) {
		rec_puts(stdout, x.sheet[i].name);
		putchar('\n');
	}
	xlsx_close(&x);
	return tl_fshut(stdout, "<stdout>");
}

static int
onesheet(const char *path, const char *name)
{
	struct xlsx x;
	long i;

	openbook(&x, path);
	if ((i = xlsx_find(&x, name)) < 0) {
		tl_warn("%s: no sheet named '%s'", path, name);
		xlsx_close(&x);
		return TL_EDATA;
	}
	if (sheetcsv(&x, (size_t)i, stdout) != 0) {
		tl_warn("%s: %s", path, x.err);
		xlsx_close(&x);
		return TL_EDATA;
	}
	xlsx_close(&x);
	return tl_fshut(stdout, "<stdout>");
}

/* ---- reading: every sheet into a directory ---- */

/* Remove dir and the files in it (no subdirectories); 0 or -1. */
static int
rmflat(const char *dir)
{
	struct buf b = { 0 };
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		buf_reset(&b);
		buf_adds(&b, dir);
		buf_addc(&b, '/');
		buf_adds(&b, de->d_name);
		if (unlink(b.s) != 0)
			rc = -1;
	}
	closedir(d);
	buf_free(&b);
	if (rmdir(dir) != 0)
		rc = -1;
	return rc;
}

/*
 * What a signal (SIGINT, SIGTERM, SIGHUP) undoes: the sheets' files
 * and the directory being built beside the output, the workbook being
 * built, an old directory moved aside (put back).  Global, for the
 * handler's sake; each is set before the thing is made, and the
 * handler uses only unlink, rmdir and rename, which are
 * async-signal-safe.  A run killed so left them beside the output.
 */
static struct {
	char *const *files;		/* files that may be in dir */
	volatile sig_atomic_t nfiles;	/* how many */
	const char *volatile dir;	/* the directory being built */
	const char *volatile file;	/* the workbook being built */
	const char *volatile old;	/* the old directory, moved aside */
	const char *out;		/* where old goes back */
} undo;

static void
onsignal(int sig)
{
	sig_atomic_t i;

	for (i = 0; i < undo.nfiles; i++)
		(void)unlink(undo.files[i]);
	if (undo.dir != NULL)
		(void)rmdir(undo.dir);
	if (undo.file != NULL)
		(void)unlink(undo.file);
	if (undo.old != NULL)
		(void)rename(undo.old, undo.out);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* From now on a signal undoes what undo names. */
static void
catchsignals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsignal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < LEN(sigs); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < LEN(sigs); i++) {
		struct sigaction o;

		/* (one ignored, as nohup and a background job's SIGINT
		 * are, stays ignored) */
		if (sigaction(sigs[i], NULL, &o) == 0 && o.sa_handler == SIG_IGN)
			continue;
		(void)sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * Hold (hold 1) or let through (0) the signals catchsignals catches:
 * held while a temporary is made and named in undo, so that none comes
 * between the two and leaves it behind.
 */
static void
holdsignals(int hold)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	(void)sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/* A path beside path, for building it: DIR/.tl-xlsx.XXXXXX. */
static char *
besidetemp(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct buf b = { 0 };

	if (slash != NULL)
		buf_add(&b, path, (size_t)(slash - path) + 1);
	buf_adds(&b, ".tl-xlsx.XXXXXX");
	return b.s;
}

/*
 * Is the file path inside the directory dir (at any depth)?  -f
 * replaces dir whole: the workbook read would go with it.
 */
static int
inside(const char *path, const char *dir)
{
	char *p, *d;
	size_t n;
	int in;

	if ((p = realpath(path, NULL)) == NULL || (d = realpath(dir, NULL)) == NULL) {
		free(p);
		return 0;
	}
	n = strlen(d);
	in = strncmp(p, d, n) == 0 && (p[n] == '/' || (n == 1 && d[0] == '/'));
	free(p);
	free(d);
	return in;
}

static void
freepaths(char **paths)
{
	size_t i;

	if (paths == NULL)
		return;
	for (i = 0; paths[i] != NULL; i++)
		free(paths[i]);
	free(paths);
}

static int
alldir(const char *path, const char *dir)
{
	struct xlsx x;
	struct buf f = { 0 }, old = { 0 };
	struct stat st;
	char *tmp, **paths = NULL;
	const char *bad = NULL, *nm;
	size_t i, j;
	FILE *fp;

	if (stat(dir, &st) == 0) {
		if (!fflag)
			tl_die("%s: exists (use -f to replace it)", dir);
		if (!S_ISDIR(st.st_mode))
			tl_die("%s: exists and is not a directory", dir);
		if (inside(path, dir))
			tl_die("%s: holds the input %s: not replaced", dir, path);
	}
	openbook(&x, path);
	for (i = 0; i < x.nsheet && bad == NULL; i++) {
		nm = x.sheet[i].name;
		if (*nm == '\0' || strchr(nm, '/') || strcmp(nm, ".") == 0 ||
		    strcmp(nm, "..") == 0)
			bad = "is not a file name";
		for (j = 0; j < i && bad == NULL; j++)
			if (strcmp(x.sheet[j].name, nm) == 0)
				bad = "is there twice";
	}
	if (bad != NULL) {
		tl_warn("%s: sheet name '%s' %s", path, x.sheet[i - 1].name, bad);
		xlsx_close(&x);
		return TL_EDATA;
	}
	tmp = besidetemp(dir);
	catchsignals();
	holdsignals(1);
	if (mkdtemp(tmp) == NULL)
		tl_die("%s: cannot make a directory beside it:", dir);
	undo.dir = tmp;
	holdsignals(0);
	paths = tl_calloc(x.nsheet + 1, sizeof(*paths));
	for (i = 0; i < x.nsheet; i++) {
		buf_reset(&f);
		buf_adds(&f, tmp);
		buf_addc(&f, '/');
		buf_adds(&f, x.sheet[i].name);
		buf_adds(&f, ".csv");
		paths[i] = tl_strdup(f.s);
	}
	undo.files = paths;
	for (i = 0; i < x.nsheet; i++) {
		buf_reset(&f);
		buf_adds(&f, paths[i]);
		undo.nfiles = (sig_atomic_t)(i + 1);
		if ((fp = fopen(f.s, "w")) == NULL) {
			tl_warn("%s:", f.s);
			goto fail;
		}
		if (sheetcsv(&x, i, fp) != 0) {
			tl_warn("%s: %s", path, x.err);
			fclose(fp);
			goto fail;
		}
		if (tl_fshut(fp, f.s) != TL_OK)
			goto fail;
	}
	xlsx_close(&x);
	/* the old directory out of the way, the new one in, the old one gone */
	if (stat(dir, &st) == 0) {
		buf_adds(&old, tmp);
		buf_adds(&old, ".old");
		undo.out = dir;
		undo.old = old.s;
		if (rename(dir, old.s) != 0) {
			undo.old = NULL;
			tl_warn("%s: cannot move it away:", dir);
			goto fail2;
		}
	}
	/* (the swap and undo's change with it, no signal between) */
	holdsignals(1);
	if (rename(tmp, dir) != 0) {
		undo.old = NULL;
		holdsignals(0);
		tl_warn("%s:", dir);
		if (old.s != NULL)
			(void)rename(old.s, dir);
		goto fail2;
	}
	/* (the files are the output's now) */
	undo.nfiles = 0;
	undo.dir = NULL;
	undo.old = NULL;
	holdsignals(0);
	if (old.s != NULL && rmflat(old.s) != 0)
		tl_warn("%s: cannot remove the old directory", old.s);
	freepaths(paths);
	free(tmp);
	buf_free(&f);
	buf_free(&old);
	return TL_OK;
fail:
	xlsx_close(&x);
fail2:
	undo.nfiles = 0;
	undo.dir = NULL;
	(void)rmflat(tmp);
	freepaths(paths);
	free(tmp);
	buf_free(&f);
	buf_free(&old);
	return TL_EDATA;
}

/* ---- writing a workbook ---- */

/* A line of a -H or -T file: sheet and column patterns. */
struct colpat {
	char *sheet;		/* fnmatch pattern of sheet names, owned */
	char *col;		/* fnmatch pattern of column names, owned */
};

/* The lines of a -H or -T file. */
struct colpats {
	struct colpat *p;	/* owned */
	size_t n;		/* lines in p */
};

/* One CSV file being written into a sheet. */
struct src {
	const char *path;	/* as given, not owned */
	char *name;		/* its sheet name, whole; owned */
	char *cut;		/* cut to SHEETCHARS characters; owned */
	FILE *fp;		/* open while its sheet is written; owned */
	struct csvr rd;		/* its reader */
	int more;		/* rd holds the current row */
	unsigned char *text;	/* -T: column j is text; one per header field, owned */
	size_t ntext;		/* header fields */
};

/* The state of the workbook being written. */
struct book {
	const char *out;	/* the final name */
	char *tmp;		/* the name it is written under, owned */
	lxw_workbook *wb;	/* libxlsxwriter's */
	lxw_format *hfmt;	/* the header cells' format (pandas') */
	struct colpats hide;	/* -H: columns to hide */
	struct colpats text;	/* -T: columns written as text */
	size_t cut;		/* cells cut to CELLCHARS in the current sheet */
	struct buf cell;	/* a cut cell */
};

/* Give up: say why, remove the half-written workbook. */
static _Noreturn void __attribute__((format(printf, 2, 3)))
bookdie(struct book *bk, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", tl_progname());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (bk->tmp != NULL)
		unlink(bk->tmp);
	exit(TL_EDATA);
}

/*
 * Is out a file to write into, not to replace: a device or a fifo
 * (/dev/null, a pipe), or a link to one, or a link in /dev or /proc
 * (/dev/stdout)?  Renaming the workbook onto it would replace the
 * node itself, which root may do: /dev/null would become a workbook.
 */
static int
writeinto(const char *out)
{
	struct stat st;

	if (stat(out, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return 1;
	return lstat(out, &st) == 0 && S_ISLNK(st.st_mode) &&
	    (strncmp(out, "/dev/", 5) == 0 || strncmp(out, "/proc/", 6) == 0);
}

/* Copy the finished workbook bk->tmp into out (writeinto), then drop it. */
static void
copyinto(struct book *bk, const char *out)
{
	char b[65536];
	ssize_t n, w, off;
	int in, fd;

	if ((in = open(bk->tmp, O_RDONLY)) < 0)
		bookdie(bk, "%s: %s", out, strerror(errno));
	if ((fd = open(out, O_WRONLY | O_TRUNC)) < 0)
		bookdie(bk, "%s: %s", out, strerror(errno));
	while ((n = read(in, b, sizeof(b))) > 0)
		for (off = 0; off < n; off += w)
			if ((w = write(fd, b + off, (size_t)(n - off))) < 0)
				bookdie(bk, "%s: %s", out, strerror(errno));
	if (n < 0)
		bookdie(bk, "%s: %s", bk->tmp, strerror(errno));
	if (close(fd) != 0)
		bookdie(bk, "%s: %s", out, strerror(errno));
	close(in);
	unlink(bk->tmp);
}

static void
readpats(struct colpats *cp, const char *path)
{
	FILE *fp = tl_fopen(path, "r");
	char *line = NULL, *tab;
	size_t cap = 0, lineno = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, fp)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		if ((tab = strchr(line, '\t')) == NULL)
			tl_die("%s: line %zu: want SHEET<TAB>COLUMN", path, lineno);
		*tab = '\0';
		cp->p = tl_realloc(cp->p, (cp->n + 1) * sizeof(*cp->p));
		cp->p[cp->n].sheet = tl_strdup(line);
		cp->p[cp->n++].col = tl_strdup(tab + 1);
	}
	if (ferror(fp))
		tl_die("%s: read error:", path);
	free(line);
	fclose(fp);
}

static int
matches(const struct colpats *cp, const char *sheet, const char *col)
{
	size_t i;

	for (i = 0; i < cp->n; i++)
		if (fnmatch(cp->p[i].sheet, sheet, 0) == 0 &&
		    fnmatch(cp->p[i].col, col, 0) == 0)
			return 1;
	return 0;
}

static void
freepats(struct colpats *cp)
{
	size_t i;

	for (i = 0; i < cp->n; i++) {
		free(cp->p[i].sheet);
		free(cp->p[i].col);
	}
	free(cp->p);
}

/* The first n characters of UTF-8 s, in bytes. */
static size_t
utf8cut(const char *s, size_t len, size_t n)
{
	size_t i;

	for (i = 0; i < len && n > 0; n--)
		for (i++; i < len && ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
	return i;
}

/* The sheet name of a file: its base name, less .csv or .tsv. */
static char *
sheetname(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 4 && (strcmp(b + n - 4, ".csv") == 0 || strcmp(b + n - 4, ".tsv") == 0))
		n -= 4;
	return tl_strndup(b, n);
}

/*
 * Is s[0..len) a number as Python's repr() writes an int or a float
 * (so to_csv wrote a number, not text)?  Leading zeros mean text.
 */
static int
isnum(const char *s, size_t len, double *d)
{
	const char *p = s, *e = s + len;
	char *end;

	if (p < e && *p == '-')
		p++;
	if (p == e || *p < '0' || *p > '9' || (*p == '0' && p + 1 < e &&
	    p[1] >= '0' && p[1] <= '9'))
		return 0;
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	if (p < e && *p == '.') {
		if (++p == e || *p < '0' || *p > '9')
			return 0;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		if (p == e || *p < '0' || *p > '9')
			return 0;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	if (p != e)
		return 0;
	*d = strtod(s, &end);	/* (the field is NUL-ended) */
	return isfinite(*d);
}

static void
lxwcheck(struct book *bk, lxw_error err, const struct src *s)
{
	if (err != LXW_NO_ERROR)
		bookdie(bk, "%s: %s", s->path, lxw_strerror(err));
}

/* Write one CSV field as the cell pandas would have written. */
static void
putcell(struct book *bk, lxw_worksheet *ws, lxw_row_t row, lxw_col_t col,
    const char *s, size_t len, const struct src *src)
{
	double d;
	size_t n;

	if (len == 0)
		return;		/* missing: no cell */
	if (col < src->ntext && src->text[col])
		goto text;
	if (isnum(s, len, &d)) {
		lxwcheck(bk, worksheet_write_number(ws, row, col, d, NULL), src);
		return;
	}
	if (strcmp(s, "True") == 0 || strcmp(s, "False") == 0) {
		lxwcheck(bk, worksheet_write_boolean(ws, row, col, *s == 'T',
		    NULL), src);
		return;
	}
text:
	if ((n = utf8cut(s, len, CELLCHARS)) < len) {
		buf_reset(&bk->cell);
		buf_add(&bk->cell, s, n);
		s = bk->cell.s;
		bk->cut++;
	}
	lxwcheck(bk, worksheet_write_string(ws, row, col, s, NULL), src);
}

/* Read the next row of every source that has one; 0 when none has. */
static int
advance(struct book *bk, struct src *s, size_t n)
{
	size_t i;
	int any = 0, st;

	for (i = 0; i < n; i++) {
		if (!s[i].more)
			continue;
		if ((st = csvr_next(&s[i].rd)) < 0)
			bookdie(bk, "%s: line %zu: %s", s[i].path, s[i].rd.lineno,
			    s[i].rd.err);
		s[i].more = st;
		any |= st;
	}
	return any;
}

/*
 * Write sources s[0..n), which share a cut name, into one sheet: as
 * pandas writes frames into the same sheet, a later one's cells (the
 * whole rectangle of its rows) cover an earlier one's.
 */
static void
putsheet(struct book *bk, struct src *s, size_t n)
{
	lxw_row_col_options hid = { .hidden = 1 };
	lxw_worksheet *ws;
	lxw_error err;
	lxw_row_t row;
	size_t i, j, w;
	struct src *from;

	if ((err = workbook_validate_sheet_name(bk->wb, s[0].cut)) != LXW_NO_ERROR)
		bookdie(bk, "%s: not a sheet name Excel takes: %s", s[0].path,
		    lxw_strerror(err));
	if ((ws = workbook_add_worksheet(bk->wb, s[0].cut)) == NULL)
		bookdie(bk, "%s: %s", s[0].path, "cannot add a sheet");
	for (i = 0; i < n; i++) {
		if ((s[i].fp = fopen(s[i].path, "r")) == NULL)
			bookdie(bk, "%s: %s", s[i].path, strerror(errno));
		csvr_open(&s[i].rd, s[i].fp, s[i].path);
		s[i].more = 1;
	}
	bk->cut = 0;
	for (row = 0; advance(bk, s, n); row++) {
		if (row >= XLSX_MAXROW)
			bookdie(bk, "%s: %s", s[0].path, "more rows than Excel's 1048576");
		w = 0;
		for (i = 0; i < n; i++)
			if (s[i].more)
				w = MAX(w, s[i].rd.nf);
		if (w > XLSX_MAXCOL)
			bookdie(bk, "%s: %s", s[0].path, "more columns than Excel's 16384");
		for (j = 0; j < w; j++) {
			from = NULL;
			for (i = 0; i < n; i++)
				if (s[i].more && j < s[i].rd.nf)
					from = &s[i];
			if (row > 0) {
				putcell(bk, ws, row, (lxw_col_t)j, from->rd.f[j],
				    from->rd.flen[j], from);
				continue;
			}
			/* the header: its hidden and text columns, its cells */
			for (i = 0; i < n; i++) {
				if (!s[i].more || j >= s[i].rd.nf)
					continue;
				if (j == 0) {
					s[i].ntext = s[i].rd.nf;
					s[i].text = tl_calloc(s[i].ntext, 1);
				}
				s[i].text[j] = matches(&bk->text, s[i].name,
				    s[i].rd.f[j]);
				if (matches(&bk->hide, s[i].name, s[i].rd.f[j]))
					lxwcheck(bk, worksheet_set_column_opt(ws,
					    (lxw_col_t)j, (lxw_col_t)j,
					    LXW_DEF_COL_WIDTH, NULL, &hid), from);
			}
			if (from->rd.flen[j] > 0)
				lxwcheck(bk, worksheet_write_string(ws, 0,
				    (lxw_col_t)j, from->rd.f[j], bk->hfmt), from);
		}
	}
	for (i = 0; i < n; i++) {
		csvr_close(&s[i].rd);
		fclose(s[i].fp);
		s[i].fp = NULL;
		free(s[i].text);
		s[i].text = NULL;
		s[i].ntext = 0;
	}
	if (bk->cut > 0)
		tl_warn("%s: %zu cell%s cut to %d characters, Excel's limit",
		    s[0].path, bk->cut, bk->cut == 1 ? "" : "s", CELLCHARS);
}

static int
mkbook(const char *out, const char *hide, const char *text, char **files,
    size_t nfiles)
{
	lxw_workbook_options opt = { .constant_memory = LXW_TRUE };
	struct book bk;
	struct src *s, *grp;
	struct stat st;
	mode_t um;
	size_t i, j, k, n;
	lxw_error err;
	int fd, into;
	const char *tmpdir;

	memset(&bk, 0, sizeof(bk));
	bk.out = out;
	if (hide != NULL)
		readpats(&bk.hide, hide);
	if (text != NULL)
		readpats(&bk.text, text);
	into = writeinto(out);
	if (!fflag && !into && stat(out, &st) == 0)
		tl_die("%s: exists (use -f to replace it)", out);
	s = tl_calloc(nfiles, sizeof(*s));
	for (i = 0; i < nfiles; i++) {
		s[i].path = files[i];
		s[i].name = sheetname(files[i]);
		n = strlen(s[i].name);
		s[i].cut = tl_strndup(s[i].name, utf8cut(s[i].name, n, SHEETCHARS));
		if (access(files[i], R_OK) != 0)
			tl_die("%s:", files[i]);
	}
	catchsignals();
	if (into) {
		/* (not beside a device: in TMPDIR, where we may write) */
		tmpdir = getenv("TMPDIR");
		if (tmpdir == NULL || *tmpdir == '\0')
			tmpdir = "/tmp";
		bk.tmp = tl_malloc(strlen(tmpdir) + 32);
		sprintf(bk.tmp, "%s/.tl-xlsx.XXXXXX", tmpdir);
		holdsignals(1);
		if ((fd = mkstemp(bk.tmp)) < 0)
			tl_die("%s: cannot make a temporary file:", tmpdir);
		undo.file = bk.tmp;
		holdsignals(0);
	} else {
		bk.tmp = besidetemp(out);
		holdsignals(1);
		if ((fd = mkstemp(bk.tmp)) < 0)
			tl_die("%s: cannot make a file beside it:", out);
		undo.file = bk.tmp;
		holdsignals(0);
	}
	/* (a umask of 777 made it 000: libxlsxwriter opens it by name) */
	(void)fchmod(fd, 0600);
	close(fd);
	opt.tmpdir = getenv("TMPDIR");
	if (opt.tmpdir != NULL && *opt.tmpdir == '\0')
		opt.tmpdir = NULL;
	if ((bk.wb = workbook_new_opt(bk.tmp, &opt)) == NULL)
		bookdie(&bk, "%s: %s", out, "cannot start a workbook");
	bk.hfmt = workbook_add_format(bk.wb);
	format_set_bold(bk.hfmt);
	format_set_border(bk.hfmt, LXW_BORDER_THIN);
	format_set_align(bk.hfmt, LXW_ALIGN_CENTER);
	format_set_align(bk.hfmt, LXW_ALIGN_VERTICAL_TOP);
	/* each cut name once, where it first comes; its files in order */
	grp = tl_calloc(nfiles, sizeof(*grp));
	for (i = 0; i < nfiles; i++) {
		for (j = 0; j < i && strcmp(s[j].cut, s[i].cut) != 0; j++)
			;
		if (j < i)
			continue;
		for (k = 0, n = 0; k < nfiles; k++)
			if (strcmp(s[k].cut, s[i].cut) == 0)
				grp[n++] = s[k];
		putsheet(&bk, grp, n);
	}
	if ((err = workbook_close(bk.wb)) != LXW_NO_ERROR)
		bookdie(&bk, "%s: %s", out, lxw_strerror(err));
	/*
	 * The umask's mode only now: libxlsxwriter opens the file by its
	 * name, which a umask of 777 made 000 (TraceLens, which opens it
	 * once, writes it so).
	 */
	um = umask(0);
	umask(um);
	(void)chmod(bk.tmp, 0666 & ~um);
	if (into)
		copyinto(&bk, out);
	else if (rename(bk.tmp, out) != 0)
		bookdie(&bk, "%s: %s", out, strerror(errno));
	undo.file = NULL;
	for (i = 0; i < nfiles; i++) {
		free(s[i].name);
		free(s[i].cut);
	}
	free(s);
	free(grp);
	freepats(&bk.hide);
	freepats(&bk.text);
	free(bk.tmp);
	buf_free(&bk.cell);
	return TL_OK;
}

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-xlsx -l book.xlsx\n"
	    "       tl-xlsx book.xlsx sheet\n"
	    "       tl-xlsx [-f] -d dir book.xlsx\n"
	    "       tl-xlsx [-f] [-H hidden] [-T text] -o book.xlsx file ...\n");
	exit(status);
}

int
main(int argc, char *argv[])
{
	const char *dir = NULL, *out = NULL, *hide = NULL, *text = NULL;
	int ch, lflag = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "d:fH:lo:T:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'f':
			fflag = 1;
			break;
		case 'H':
			hide = optarg;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'T':
			text = optarg;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (lflag + (dir != NULL) + (out != NULL) > 1 || ((hide || text) && !out))
		usage(TL_EUSAGE);
	if (out != NULL) {
		if (argc < 1)
			usage(TL_EUSAGE);
		return mkbook(out, hide, text, argv, (size_t)argc);
	}
	if (lflag || dir != NULL) {
		if (argc != 1)
			usage(TL_EUSAGE);
		return lflag ? listsheets(argv[0]) : alldir(argv[0], dir);
	}
	if (argc != 2)
		usage(TL_EUSAGE);
	return onesheet(argv[0], argv[1]);
}
