/* See LICENSE file for copyright and license details. */
/*
 * The record stream of tl(7): one record a line, fields separated by
 * TAB, the first line a header of field names.  Inside a field, TAB,
 * LF, CR, NUL and backslash are written as \t, \n, \r, \0 and \\, so a
 * line is always a whole record and awk, sort and cut work on it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

void
rec_open(struct rec_reader *r, FILE *fp, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->name = name;
}

void
rec_close(struct rec_reader *r)
{
	size_t i;

	for (i = 0; i < r->nhdr; i++)
		free(r->hdr[i]);
	free(r->hdr);
	free(r->line);
	free(r->buf);
	free(r->f);
	memset(r, 0, sizeof(*r));
}

/* The field [s, tab) of r, its TAB made its end. */
static inline void
addfield(struct rec_reader *r, char *s, char *tab)
{
	if (r->nf == r->fcap)
		tl_grow((void **)&r->f, &r->fcap, r->nf + 1, sizeof(*r->f));
	*tab = '\0';
	r->f[r->nf].s = s;
	r->f[r->nf].len = (size_t)(tab - s);
	r->nf++;
}

/*
 * Split the line s[0..n) (NUL at s[n]) into r's fields.  Most records
 * are wide: 16 bytes at a time, the TABs of each block as a bit mask
 * (SSE2, in every x86-64), its bits the field ends; the last bytes by
 * rec_tabchr.
 */
static void
fields(struct rec_reader *r, char *p, size_t n)
{
	char *end = p + n, *s = p, *tab;

	if (n > 0 && end[-1] == '\r')
		tl_die("%s: line %zu: CR before LF: not a tl record stream",
		    r->name, r->lineno);
	r->nf = 0;
#ifdef TL_TABMASK
	for (; end - p >= 16; p += 16)
		tab_fields16(p, &s, &r->f, &r->nf, &r->fcap, 1);
#endif
	/* (s, the field's start, is at or before p, where the scan goes on) */
	for (;;) {
		tab = rec_tabchr(p, end);
		addfield(r, s, tab);
		if (tab == end)
			break;
		p = s = tab + 1;
	}
}

/*
 * The records are read in large blocks into r->buf and split in
 * place: no copy of each line, as getline makes.  (The header comes by
 * getline, so that a program may go on reading the stream itself
 * after it; after a record, the stream is this reader's.)
 */
int
rec_read(struct rec_reader *r)
{
	if (!rec_next(r))
		return 0;
	rec_split(r);
	return 1;
}

/*
 * The line is read into r->buf as rec_read reads it, but not split:
 * a merge join that skips most records of a file (the ops of
 * ops.tsv that are not launchers) reads only the key of each.
 */
int
rec_next(struct rec_reader *r)
{
	char *nl;
	size_t n;

	for (;;) {
		nl = r->end > r->beg ?
		    memchr(r->buf + r->beg, '\n', r->end - r->beg) : NULL;
		if (nl != NULL)
			break;
		if (r->eof) {
			if (r->end > r->beg) {
				r->lineno++;
				tl_die("%s: line %zu: no newline at end of input "
				    "(truncated?)", r->name, r->lineno);
			}
			return 0;
		}
		if (r->beg > 0) {
			memmove(r->buf, r->buf + r->beg, r->end - r->beg);
			r->end -= r->beg;
			r->beg = 0;
		}
		if (r->end + 1 >= r->bcap)
			tl_grow((void **)&r->buf, &r->bcap,
			    r->bcap ? 2 * r->bcap : TL_IOBUF, 1);
		errno = 0;
		n = fread(r->buf + r->end, 1, r->bcap - r->end - 1, r->fp);
		if (n == 0) {
			if (ferror(r->fp))
				tl_die("%s: read error:", r->name);
			r->eof = 1;
		}
		r->end += n;
	}
	r->lineno++;
	*nl = '\0';
	n = (size_t)(nl - (r->buf + r->beg));
	r->cur = r->buf + r->beg;
	r->curlen = n;
	r->beg = (size_t)(nl + 1 - r->buf);
	return 1;
}

void
rec_split(struct rec_reader *r)
{
	fields(r, r->cur, r->curlen);
}

void
rec_read_header(struct rec_reader *r)
{
	ssize_t n;
	size_t i;

	if (r->buf != NULL) {
		/* (records were read: the stream is in our buffer) */
		if (!rec_read(r))
			tl_die("%s: empty input: no header line", r->name);
	} else {
		errno = 0;
		n = getline(&r->line, &r->cap, r->fp);
		if (n < 0) {
			if (ferror(r->fp))
				tl_die("%s: read error:", r->name);
			tl_die("%s: empty input: no header line", r->name);
		}
		r->lineno++;
		if (r->line[n - 1] != '\n')
			tl_die("%s: line %zu: no newline at end of input "
			    "(truncated?)", r->name, r->lineno);
		r->line[--n] = '\0';
		fields(r, r->line, (size_t)n);
	}
	r->hdr = tl_calloc(r->nf, sizeof(*r->hdr));
	r->nhdr = r->nf;
	for (i = 0; i < r->nf; i++) {
		r->f[i].len = rec_unescape(r->f[i].s, r->f[i].len);
		r->hdr[i] = tl_strndup(r->f[i].s, r->f[i].len);
	}
}

/*
 * A stream without a header line: its fields are named by names,
 * comma-separated, as if its header had been read.
 */
void
rec_name_header(struct rec_reader *r, const char *names)
{
	const char *p, *e;
	size_t n = 1;

	for (p = names; *p != '\0'; p++)
		n += *p == ',';
	r->hdr = tl_calloc(n, sizeof(*r->hdr));
	r->nhdr = n;
	for (n = 0, p = names;; p = e + 1) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		r->hdr[n++] = tl_strndup(p, (size_t)(e - p));
		if (*e == '\0')
			break;
	}
}

int
rec_col(const struct rec_reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nhdr; i++)
		if (strcmp(r->hdr[i], name) == 0)
			return (int)i;
	return -1;
}

int
rec_need(const struct rec_reader *r, const char *name)
{
	int i = rec_col(r, name);

	if (i < 0)
		tl_die("%s: no field '%s' in the header", r->name, name);
	return i;
}

const char *
rec_get(const struct rec_reader *r, int i, size_t *len)
{
	if (i < 0 || (size_t)i >= r->nf) {
		if (len)
			*len = 0;
		return "";
	}
	if (len)
		*len = r->f[i].len;
	return r->f[i].s;
}

int
rec_double(const struct rec_reader *r, int i, double *d)
{
	const char *s;
	size_t len;

	s = rec_get(r, i, &len);
	if (len == 0)
		return 0;
	if (num_double(s, len, d) < 0)
		tl_die("%s: line %zu: %s: not a number: %.*s", r->name, r->lineno,
		    r->hdr[i], (int)MIN(len, 40), s);
	return 1;
}

void
rec_check_width(const struct rec_reader *r)
{
	if (r->nf != r->nhdr)
		tl_die("%s: line %zu: %zu fields, header has %zu",
		    r->name, r->lineno, r->nf, r->nhdr);
}

void
rec_strs(const struct rec_reader *r, const int *col, size_t n, char **out)
{
	size_t k, len, all = 0;
	const char *f;
	char *blk;

	/* (the escaped lengths bound the unescaped ones) */
	for (k = 0; k < n; k++) {
		rec_get(r, col[k], &len);
		all += len + 1;
	}
	blk = tl_malloc(all ? all : 1);
	for (k = 0; k < n; k++) {
		f = rec_get(r, col[k], &len);
		memcpy(blk, f, len);
		len = rec_unescape(blk, len);
		blk[len] = '\0';
		out[k] = blk;
		blk += len + 1;
	}
}

size_t
rec_unescape(char *s, size_t len)
{
	char *w, *p, *end = s + len;

	p = memchr(s, '\\', len);
	if (p == NULL)
		return len;
	for (w = p; p < end; p++) {
		if (*p != '\\' || p + 1 == end) {
			*w++ = *p;
			continue;
		}
		switch (*++p) {
		case 't': *w++ = '\t'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case '0': *w++ = '\0'; break;
		default: *w++ = *p; break;
		}
	}
	*w = '\0';
	return (size_t)(w - s);
}

/* The letter after the backslash that stands for c in a field; 0: none. */
static char
escletter(char c)
{
	switch (c) {
	case '\t': return 't';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\0': return '0';
	case '\\': return '\\';
	default: return 0;
	}
}

void
rec_put(FILE *fp, const char *s, size_t len)
{
	const char *p, *end = s + len;
	char e;

	for (p = s; p < end; p++) {
		p += plainrun(p, (size_t)(end - p), 0);
		if (p == end)
			break;
		if ((e = escletter(*p)) == 0)
			continue;
		fwrite(s, 1, (size_t)(p - s), fp);
		putc('\\', fp);
		putc(e, fp);
		s = p + 1;
	}
	fwrite(s, 1, (size_t)(end - s), fp);
}

void
rec_bput(struct buf *b, const char *s, size_t len)
{
	const char *p, *end = s + len;
	char e;

	for (p = s; p < end; p++) {
		p += plainrun(p, (size_t)(end - p), 0);
		if (p == end)
			break;
		if ((e = escletter(*p)) == 0)
			continue;
		buf_add(b, s, (size_t)(p - s));
		buf_addc(b, '\\');
		buf_addc(b, e);
		s = p + 1;
	}
	buf_add(b, s, (size_t)(end - s));
}

void
rec_puts(FILE *fp, const char *s)
{
	rec_put(fp, s, strlen(s));
}

void
rec_write(FILE *fp, const char *const *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			putc('\t', fp);
		if (fields[i] != NULL)
			rec_puts(fp, fields[i]);
	}
	putc('\n', fp);
}
