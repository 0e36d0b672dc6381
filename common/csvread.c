/* See LICENSE file for copyright and license details. */
/*
 * A row reader for CSV files and tl(7) record streams (see csvread.h).
 * CSV goes through libcsv one input line at a time: libcsv pushes
 * fields and row ends through callbacks, which fill a small queue of
 * completed rows; csvr_next() hands them out one by one.  Unquoted
 * spaces are kept, as pandas keeps them.
 */
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "tl.h"
#include "csvread.h"
#include "treeio.h"

/* pandas trims nothing around unquoted fields; libcsv would trim blanks. */
static int
nospace(unsigned char c)
{
	(void)c;
	return 0;
}

void
csvr_open(struct csvr *r, FILE *fp, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->name = name;
}

void
csvr_close(struct csvr *r)
{
	size_t i;

	for (i = 0; i < r->qcap; i++) {
		free(r->q[i].data);
		free(r->q[i].off);
	}
	free(r->q);
	free(r->f);
	free(r->flen);
	free(r->line);
	if (r->cpinit)
		csv_free(&r->cp);
	memset(r, 0, sizeof(*r));
}

/* The row being built: the slot just after the completed ones. */
static struct csvr_row *
building(struct csvr *r)
{
	size_t old = r->qcap;

	if (r->nq >= r->qcap) {
		tl_grow((void **)&r->q, &r->qcap, r->nq + 1, sizeof(*r->q));
		memset(r->q + old, 0, (r->qcap - old) * sizeof(*r->q));
	}
	return &r->q[r->nq];
}

static void
addfield(struct csvr_row *w, const char *s, size_t len)
{
	tl_grow((void **)&w->off, &w->offcap, w->nf + 1, sizeof(*w->off));
	tl_grow((void **)&w->data, &w->cap, w->len + len + 1, 1);
	w->off[w->nf++] = w->len;
	if (len > 0)
		memcpy(w->data + w->len, s, len);
	w->len += len;
	w->data[w->len++] = '\0';
}

/* libcsv callback: one field has ended. */
static void
onfield(void *s, size_t len, void *data)
{
	struct csvr *r = data;

	addfield(building(r), s ? s : "", s ? len : 0);
}

/* libcsv callback: a row has ended; queue it and start the next. */
static void
onrow(int c, void *data)
{
	struct csvr *r = data;
	struct csvr_row *w;

	(void)c;
	w = building(r);
	w->lineno = r->lineno;
	r->nq++;
	w = building(r);
	w->len = 0;
	w->nf = 0;
}

/*
 * Is the first line s[0..n) a tl(7) header?  One with a TAB outside
 * what CSV would quote (a field that starts with a double quote, to
 * its closing quote): a TAB inside a quoted CSV field is CSV's, a
 * double quote inside a tl(7) name (a tl-compare tag) is tl's.
 */
static int
tabbed(const char *s, size_t n)
{
	size_t i;
	int inq = 0, start = 1;

	for (i = 0; i < n; i++) {
		if (inq) {
			if (s[i] == '"') {
				if (i + 1 < n && s[i + 1] == '"')
					i++;
				else
					inq = 0;
			}
			continue;
		}
		if (s[i] == '"' && start) {
			inq = 1;
			start = 0;
			continue;
		}
		if (s[i] == '\t')
			return 1;
		/* (a bare CR ends the header too: a file of CR line ends
		 * is one line to getline, a TAB in a later row not the
		 * header's) */
		if (s[i] == '\r' || s[i] == '\n')
			return 0;
		start = s[i] == ',';
	}
	return 0;
}

/* Split one tl(7) line into a queued row, undoing the escapes. */
static void
tsvrow(struct csvr *r, char *line, size_t n)
{
	struct csvr_row *w = building(r);
	char *p = line, *end = line + n, *tab;
	size_t len;

	w->len = 0;
	w->nf = 0;
	for (;;) {
		tab = memchr(p, '\t', (size_t)(end - p));
		if (tab == NULL)
			tab = end;
		len = rec_unescape(p, (size_t)(tab - p));
		addfield(w, p, len);
		if (tab == end)
			break;
		p = tab + 1;
	}
	w->lineno = r->lineno;
	r->nq++;
}

/*
 * The offset of the first byte of s[0..n) that is not part of valid
 * UTF-8 (RFC 3629: no overlong forms, no surrogates), or n.  pandas
 * reads a CSV as UTF-8 and stops at such a byte; so does tl: a file in
 * Latin-1 would otherwise compare as empty columns under the
 * misspelled names (its "µs").
 */
static size_t
badutf8(const unsigned char *s, size_t n)
{
	size_t i = 0, k, len;
	unsigned c, lo, hi;

	while (i < n) {
		c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		lo = 0x80, hi = 0xbf;
		if (c >= 0xc2 && c <= 0xdf)
			len = 2;
		else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			if (c == 0xe0)
				lo = 0xa0;
			else if (c == 0xed)
				hi = 0x9f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f;
		} else
			return i;
		if (n - i < len || s[i + 1] < lo || s[i + 1] > hi)
			return i;
		for (k = 2; k < len; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xbf)
				return i;
		i += len;
	}
	return n;
}

/* Read one more input line and parse it; 0 at EOF, -1 on error. */
static int
feed(struct csvr *r)
{
	ssize_t n;
	size_t off, k, blk;
	char *s;
	int inquote;

	n = getline(&r->line, &r->linecap, r->fp);
	if (n < 0) {
		if (ferror(r->fp)) {
			r->err = "read error";
			return -1;
		}
		r->eof = 1;
		if (r->fmt != CSVR_CSV)
			return 0;
		/* Strict only here: pandas takes a stray quote inside a
		 * field as it is, but not a file that ends inside quotes. */
		csv_set_opts(&r->cp, CSV_STRICT | CSV_STRICT_FINI);
		if (csv_fini(&r->cp, onfield, onrow, r) != CSV_SUCCESS) {
			r->lineno = r->qline;
			r->err = "unterminated quoted field";
			return -1;
		}
		return 0;
	}
	r->lineno++;
	s = r->line;
	if (r->fmt == CSVR_UNKNOWN) {
		/*
		 * gzip's magic first: its header holds the file's mtime,
		 * whose bytes may be a TAB, which would make it a TSV.
		 */
		if (n >= 2 && (unsigned char)s[0] == 0x1f &&
		    (unsigned char)s[1] == 0x8b) {
			r->err = "compressed with gzip: gunzip it first";
			return -1;
		}
		/* Excel's "Unicode Text" (TAB-separated) and others'
		 * UTF-16: pandas' UnicodeDecodeError; its NULs and TABs
		 * would pass for a tl(7) header */
		if (n >= 2 && ((unsigned char)s[0] == 0xff &&
		    (unsigned char)s[1] == 0xfe)) {
			r->err = "UTF-16 text, not UTF-8 (iconv -f utf-16 -t utf-8 converts it)";
			return -1;
		}
		if (n >= 2 && ((unsigned char)s[0] == 0xfe &&
		    (unsigned char)s[1] == 0xff)) {
			r->err = "UTF-16 text, not UTF-8 (iconv -f utf-16 -t utf-8 converts it)";
			return -1;
		}
		if (memchr(s, '\0', (size_t)n) != NULL) {
			r->err = "a NUL byte in the header: UTF-16 text? (iconv -f utf-16 -t utf-8 converts it)";
			return -1;
		}
		if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
			s += 3;	/* a UTF-8 byte-order mark, as pandas skips it */
			n -= 3;
		}
		if (tabbed(s, (size_t)n))
			r->fmt = CSVR_TSV;
		else {
			r->fmt = CSVR_CSV;
			if (csv_init(&r->cp, CSV_STRICT_FINI) != 0) {
				r->err = "out of memory";
				return -1;
			}
			r->cpinit = 1;
			csv_set_space_func(&r->cp, nospace);
		}
	}
	if (r->fmt == CSVR_TSV) {
		if (n > 0 && s[n - 1] == '\n')
			s[--n] = '\0';
		else {
			r->err = "no newline at end of input (truncated?)";
			return -1;
		}
		if (n > 0 && s[n - 1] == '\r') {
			r->err = "CR before LF in a tab-separated file";
			return -1;
		}
		tsvrow(r, s, (size_t)n);
		return 1;
	}
	if (badutf8((const unsigned char *)s, (size_t)n) != (size_t)n) {
		r->err = "not UTF-8 text (a CSV in Latin-1? iconv -f latin1 -t utf-8 converts it)";
		return -1;
	}
	inquote = r->cp.quoted;	/* at a line start: inside quotes */
	/*
	 * libcsv grows its field buffer by a fixed block, 128 bytes by
	 * default: a 64 MB cell took half a million reallocs, each a
	 * copy.  A block as big as the buffer, and chunks of input no
	 * bigger (one realloc a chunk at most), double it instead.
	 */
	for (off = 0; off < (size_t)n; off += k) {
		blk = MAX((size_t)128, csv_get_buffer_size(&r->cp));
		csv_set_blk_size(&r->cp, blk);
		k = MIN((size_t)n - off, MAX(blk, (size_t)4096));
		if (csv_parse(&r->cp, s + off, k, onfield, onrow, r) != k) {
			r->err = csv_strerror(csv_error(&r->cp));
			return -1;
		}
	}
	/* the line a quoted field opened on, for the error at EOF */
	if (!inquote)
		r->qline = r->lineno;
	return 1;
}

int
csvr_next(struct csvr *r)
{
	struct csvr_row *w, t;
	size_t i;
	int st;

	if (r->qhead >= r->nq) {
		/* Every queued row was handed out: reuse the slots, keeping
		 * the half-built row (a quoted field may span lines). */
		if (r->nq > 0) {
			building(r);
			t = r->q[0];
			r->q[0] = r->q[r->nq];
			r->q[r->nq] = t;
		}
		r->nq = r->qhead = 0;
		while (r->nq == 0) {
			if (r->eof)
				return 0;
			if ((st = feed(r)) < 0)
				return -1;
		}
	}
	w = &r->q[r->qhead++];
	i = r->fcap;
	tl_grow((void **)&r->f, &r->fcap, w->nf + 1, sizeof(*r->f));
	if (r->fcap != i || r->flen == NULL)
		r->flen = tl_realloc(r->flen, r->fcap * sizeof(*r->flen));
	for (i = 0; i < w->nf; i++) {
		r->f[i] = w->data + w->off[i];
		r->flen[i] = (i + 1 < w->nf ? w->off[i + 1] : w->len) -
		    w->off[i] - 1;
	}
	r->nf = w->nf;
	r->rowline = w->lineno;
	r->rowno++;
	return 1;
}

int
csvr_read(struct csvr *r)
{
	int st = csvr_next(r);

	if (st < 0)
		tl_die("%s: line %zu: %s", r->name, r->lineno, r->err);
	return st;
}

/* The number of key s in st, with occ and cnt grown to hold it, zeroed. */
static size_t
pdname(struct strtab *st, const char *s, size_t **occ, size_t **cnt,
    size_t *cap)
{
	size_t id = (size_t)strtab_get(st, s, strlen(s)), old = *cap;

	if (id >= *cap) {
		tl_grow((void **)occ, cap, id + 1, sizeof(**occ));
		*cnt = tl_realloc(*cnt, *cap * sizeof(**cnt));
		memset(*occ + old, 0, (*cap - old) * sizeof(**occ));
		memset(*cnt + old, 0, (*cap - old) * sizeof(**cnt));
	}
	return id;
}

/*
 * pandas' C parser: the named columns first, then the unnamed; a name
 * already counted gets the first ".N" from its count on that no column
 * has.  With a table of the names (how many columns have each, and
 * pandas' counts), linear: a header of 2,000 columns of one name took
 * seconds, searching all the names for each try.
 */
void
csvr_pdnames(char **nm, size_t n)
{
	struct strtab st = { 0 };
	struct buf b = { 0 };
	size_t *occ = NULL, *cnt = NULL, cap = 0, *order, no = 0, i, j, c;
	size_t id, oid;
	char t[32];

	order = tl_calloc(n + 1, sizeof(*order));
	for (j = 0; j < n; j++)
		if (nm[j][0] != '\0')
			order[no++] = j;
	for (j = 0; j < n; j++)
		if (nm[j][0] == '\0') {
			snprintf(t, sizeof(t), "Unnamed: %zu", j);
			free(nm[j]);
			nm[j] = tl_strdup(t);
			order[no++] = j;
		}
	for (j = 0; j < n; j++) {
		/* (the call first: it may move occ) */
		id = pdname(&st, nm[j], &occ, &cnt, &cap);
		occ[id]++;
	}
	for (i = 0; i < n; i++) {
		j = order[i];
		id = oid = pdname(&st, nm[j], &occ, &cnt, &cap);
		c = cnt[oid];
		if (c > 0) {
			while (c > 0) {
				cnt[oid] = c + 1;
				buf_reset(&b);
				buf_adds(&b, nm[j]);
				snprintf(t, sizeof(t), ".%zu", c);
				buf_adds(&b, t);
				id = pdname(&st, b.s, &occ, &cnt, &cap);
				c = occ[id] > 0 ? c + 1 : cnt[id];
			}
			occ[oid]--;
			occ[id]++;
			free(nm[j]);
			nm[j] = tl_strdup(b.s);
		}
		cnt[id] = c + 1;
	}
	strtab_free(&st);
	buf_free(&b);
	free(occ);
	free(cnt);
	free(order);
}
