/* See LICENSE file for copyright and license details. */
/*
 * plot.c: the charts' data (-p): the timeline's parts and the ops' and
 * categories' changes, as tab-separated files for gnuplot.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"
#include "rank.h"

/* A label gnuplot reads back whole: at most 40 characters, no quote. */
static void
label(FILE *o, const char *s)
{
	struct buf b = { 0 };
	size_t i;

	cutn(&b, s, strlen(s), 40);
	for (i = 0; i < b.len; i++)
		putc(b.s[i] == '"' ? '\'' : (unsigned char)b.s[i] < 0x20 ?
		    ' ' : b.s[i], o);
	buf_free(&b);
}

/* Open dir/name for writing; path gets its name. */
static FILE *
datafile(const char *dir, const char *name, struct buf *path)
{
	buf_reset(path);
	buf_adds(path, dir);
	buf_addc(path, '/');
	buf_adds(path, name);
	return tl_fopen(path->s, "w");
}

/* A header of the variants' tags; then a line a row: the label, then
 * each variant's change in ms. */
static int
bars(const struct top *t, char *const *tag, size_t ntag, const char *dir,
    const char *name)
{
	struct buf path = { 0 };
	FILE *fp;
	size_t i, k;
	int st;

	if (t->n == 0)
		return 0;
	fp = datafile(dir, name, &path);
	fputs("name", fp);
	for (i = 1; i < ntag; i++) {
		putc('\t', fp);
		label(fp, tag[i]);
	}
	putc('\n', fp);
	for (k = 0; k < t->n; k++) {
		label(fp, t->e[k].name);
		for (i = 1; i < ntag; i++)
			fprintf(fp, "\t%.17g", t->e[k].x[ntag + i]);
		putc('\n', fp);
	}
	st = tl_fshut(fp, path.s);
	buf_free(&path);
	return st;
}

/*
 * timeline.tsv: a header, then per report its tag and the parts of its
 * total time in ms: computation, exposed communication, exposed memcpy
 * and idle time, or (rocprof's timeline) busy and idle time;
 * ops.tsv and categories.tsv: the tables' rows and changes.
 */
int
plotdata(const struct ctx *c)
{
	static const int torch[] = { TT_COMP, TT_XCOMM, TT_XMEMCPY, TT_IDLE };
	static const int roc[] = { TT_BUSY, TT_IDLE };
	struct buf path = { 0 };
	const struct ent *e;
	const int *part = torch;
	size_t i, k, ntag = c->ntag, npart = LEN(torch);
	double v;
	FILE *fp;
	int st = 0;

	if (c->hastl) {
		if (c->tl[TT_COMP].name == NULL) {
			part = roc;
			npart = LEN(roc);
		}
		fp = datafile(c->opt->datadir, "timeline.tsv", &path);
		fputs("report", fp);
		for (k = 0; k < npart; k++)
			fprintf(fp, "\t%s", tltype[part[k]].label);
		putc('\n', fp);
		for (i = 0; i < ntag; i++) {
			label(fp, c->tag[i]);
			for (k = 0; k < npart; k++) {
				e = &c->tl[part[k]];
				v = e->name != NULL ? V(e, i) : NAN;
				/* micro and macro idle time, when split */
				if (part[k] == TT_IDLE && e->name == NULL) {
					v = 0;
					if (c->tl[TT_MICRO].name != NULL)
						v += V(&c->tl[TT_MICRO], i);
					if (c->tl[TT_MACRO].name != NULL)
						v += V(&c->tl[TT_MACRO], i);
				}
				fprintf(fp, "\t%.17g", isnan(v) ? 0 : v);
			}
			putc('\n', fp);
		}
		st |= tl_fshut(fp, path.s);
	}
	st |= bars(&c->ops.both, c->tag, ntag, c->opt->datadir, "ops.tsv");
	st |= bars(&c->cats.both, c->tag, ntag, c->opt->datadir,
	    "categories.tsv");
	buf_free(&path);
	return st;
}
