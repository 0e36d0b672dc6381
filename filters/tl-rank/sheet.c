/* See LICENSE file for copyright and license details. */
/*
 * sheet.c: reading the comparison's CSV sheets: their columns, the
 * reports' tags in them, and their cells as numbers.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"
#include "rank.h"

/* Open DIR/NAME.csv and read its header; 0 when it is absent or empty. */
int
sheet_open(struct sheet *s, const char *dir, const char *name)
{
	struct buf p = { 0 };
	size_t i;

	memset(s, 0, sizeof(*s));
	buf_adds(&p, dir);
	buf_addc(&p, '/');
	buf_adds(&p, name);
	buf_adds(&p, ".csv");
	if ((s->fp = fopen(p.s, "r")) == NULL) {
		if (errno != ENOENT)
			tl_die("%s:", p.s);
		buf_free(&p);
		return 0;
	}
	s->path = p.s;
	csvr_open(&s->r, s->fp, s->path);
	if (csvr_read(&s->r) == 0) {
		csvr_close(&s->r);
		fclose(s->fp);
		free(s->path);
		memset(s, 0, sizeof(*s));
		return 0;
	}
	s->nhdr = s->r.nf;
	s->hdr = tl_malloc(s->nhdr * sizeof(*s->hdr));
	for (i = 0; i < s->nhdr; i++)
		s->hdr[i] = tl_strndup(s->r.f[i], s->r.flen[i]);
	return 1;
}

void
sheet_close(struct sheet *s)
{
	size_t i;

	for (i = 0; i < s->nhdr; i++)
		free(s->hdr[i]);
	free(s->hdr);
	csvr_close(&s->r);
	if (s->fp != NULL && ferror(s->fp))
		tl_die("%s: read error", s->path);
	if (s->fp != NULL)
		fclose(s->fp);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

/* Index of the column named a followed by b (may be ""), or -1. */
int
col2(char *const *hdr, size_t n, const char *a, const char *b)
{
	size_t i, la = strlen(a);

	for (i = 0; i < n; i++)
		if (strncmp(hdr[i], a, la) == 0 && strcmp(hdr[i] + la, b) == 0)
			return (int)i;
	return -1;
}

/* col2, but a missing column is bad data. */
int
need2(char *const *hdr, size_t n, const char *path, const char *a,
    const char *b)
{
	int i = col2(hdr, n, a, b);

	if (i < 0)
		tl_die("%s: no column %s%s", path, a, b);
	return i;
}

/* Column "tag::name" of every report, into idx[ntag]. */
void
sidecols(const struct ctx *c, char *const *hdr, size_t n, const char *path,
    const char *name, int *idx)
{
	struct buf b = { 0 };
	size_t i;

	for (i = 0; i < c->ntag; i++) {
		buf_reset(&b);
		buf_adds(&b, c->tag[i]);
		buf_adds(&b, "::");
		idx[i] = need2(hdr, n, path, b.s, name);
	}
	buf_free(&b);
}

/* Columns "name__tag_diff" and "name__tag_pct" of every variant. */
void
diffcols(const struct ctx *c, char *const *hdr, size_t n, const char *path,
    const char *name, int *di, int *pi)
{
	struct buf b = { 0 };
	size_t i;

	di[0] = pi[0] = -1;
	for (i = 1; i < c->ntag; i++) {
		buf_reset(&b);
		buf_adds(&b, name);
		buf_adds(&b, "__");
		buf_adds(&b, c->tag[i]);
		di[i] = need2(hdr, n, path, b.s, "_diff");
		pi[i] = need2(hdr, n, path, b.s, "_pct");
	}
	buf_free(&b);
}

/*
 * The reports' tags, from the columns "TAG::name" in order: the first
 * sheet read sets them, the others must agree.
 */
void
tags(struct ctx *c, char *const *hdr, size_t n, const char *path,
    const char *name)
{
	size_t i, k = 0, ln = strlen(name), lh;

	for (i = 0; i < n; i++) {
		lh = strlen(hdr[i]);
		if (lh < ln + 3 || strcmp(hdr[i] + lh - ln, name) != 0 ||
		    strncmp(hdr[i] + lh - ln - 2, "::", 2) != 0)
			continue;
		if (c->tagsrc == NULL) {
			c->tag = tl_realloc(c->tag, (k + 1) * sizeof(*c->tag));
			c->tag[k] = tl_strndup(hdr[i], lh - ln - 2);
		} else if (k >= c->ntag || strlen(c->tag[k]) != lh - ln - 2 ||
		    strncmp(c->tag[k], hdr[i], lh - ln - 2) != 0)
			tl_die("%s: its reports are not those of %s", path,
			    c->tagsrc);
		k++;
	}
	if (c->tagsrc == NULL) {
		if (k < 2)
			tl_die("%s: not a comparison: no two columns TAG::%s",
			    path, name);
		c->ntag = k;
		c->tagsrc = tl_strdup(path);
	} else if (k != c->ntag)
		tl_die("%s: its reports are not those of %s", path, c->tagsrc);
}

/* A cell as a number; NAN when empty or one of pandas' missing values. */
double
num(const char *s, size_t len, const char *path, size_t line)
{
	static const char *const na[] = {
		"nan", "NaN", "NAN", "-nan", "-NaN", "None", "NA", "<NA>",
		"N/A", "n/a", "null", "NULL"
	};
	double d;
	size_t i;

	if (len == 0)
		return NAN;
	for (i = 0; i < LEN(na); i++)
		if (strlen(na[i]) == len && memcmp(s, na[i], len) == 0)
			return NAN;
	if (num_double(s, len, &d) != 0)
		tl_die("%s: line %zu: not a number: %.*s", path, line,
		    (int)MIN(len, 40), s);
	return d;
}

/* Cell i of the sheet's current row ("" past its end). */
const char *
cell(const struct sheet *s, int i, size_t *len)
{
	if (i < 0 || (size_t)i >= s->r.nf) {
		*len = 0;
		return "";
	}
	*len = s->r.flen[i];
	return s->r.f[i];
}

double
cellnum(const struct sheet *s, int i)
{
	size_t len;
	const char *v = cell(s, i, &len);

	return num(v, len, s->path, s->r.rowline);
}
