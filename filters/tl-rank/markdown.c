/* See LICENSE file for copyright and license details. */
/*
 * markdown.c: the summary as Markdown: values with their units, names
 * cut to the width, the headline, the tables and the gates.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"
#include "rank.h"

char *
fmtval(char *buf, size_t size, double x, int unit, int sign)
{
	double us = unit == U_MS ? x * 1000 : x, y = x;
	const char *u, *p;
	char n[48];
	int prec = 3;

	if (isnan(x)) {
		snprintf(buf, size, "—");
		return buf;
	}
	if (unit == U_TFLOPS || unit == U_TBS) {
		/* four significant digits, down to 0.000001 */
		u = unit == U_TFLOPS ? "TFLOPS/s" : "TB/s";
		prec = x == 0 ? 0 : 3 - (int)floor(log10(fabs(x)));
		prec = prec < 0 ? 0 : prec > 6 ? 6 : prec;
	} else if (fabs(us) >= 1e6) {
		y = us / 1e6;
		u = "s";
	} else if (fabs(us) >= 1e3) {
		y = unit == U_MS ? x : us / 1e3;
		u = "ms";
	} else {
		y = us;
		u = "µs";
	}
	/* (no time or throughput comes near 1e15; garbage might) */
	snprintf(n, sizeof(n), fabs(y) < 1e15 ? "%.*f" : "%.*e", prec, y);
	/* no sign on what rounds to zero */
	p = n + (n[0] == '-');
	if (strspn(p, "0.") == strlen(p))
		snprintf(buf, size, "%s %s", p, u);
	else
		snprintf(buf, size, "%s%s %s", sign && y > 0 ? "+" : "", n, u);
	return buf;
}

static char *
fmtpct(char *buf, size_t size, double p, int sign)
{
	char n[48];
	const char *q;

	snprintf(n, sizeof(n), fabs(p) < 1e15 ? sign ? "%+.1f" : "%.1f" :
	    sign ? "%+.1e" : "%.1e", p);
	q = n + (n[0] == '-' || n[0] == '+');
	snprintf(buf, size, "%s%%", strspn(q, "0.") == strlen(q) ? q : n);
	return buf;
}

/* Append s[0..len) cut to w characters (UTF-8), "…" marking the cut. */
void
cutn(struct buf *b, const char *s, size_t len, long w)
{
	size_t i, n = 0, at = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && (long)n++ == w - 1)
			at = i;
	if (w <= 0 || (long)n <= w)
		buf_add(b, s, len);
	else {
		buf_add(b, s, at);
		buf_adds(b, "…");
	}
}

/*
 * Append s cut to the -w width; a TraceDiff name "name1 | name2" is
 * cut on each side, so that both show.
 */
static void
cut(struct buf *b, const char *s, long width)
{
	const char *bar = strstr(s, " | ");
	long w = (width - 3) / 2;

	if (width > 0 && bar != NULL && w > 0 && (long)strlen(s) > width) {
		cutn(b, s, (size_t)(bar - s), w);
		buf_adds(b, " | ");
		cutn(b, bar + 3, strlen(bar + 3), w);
	} else
		cutn(b, s, strlen(s), width);
}

/* Write s, cut to width, as a Markdown code span a table cell can hold. */
static void
mdcode(FILE *o, const char *s, long width)
{
	struct buf b = { 0 };
	size_t i, len, run = 0, most = 0;
	const unsigned char *p;
	int pad;

	cut(&b, s, width);
	p = (const unsigned char *)(b.s != NULL ? b.s : "");
	len = b.len;
	for (i = 0; i < len; i++) {
		run = p[i] == '`' ? run + 1 : 0;
		most = MAX(most, run);
	}
	/* a longer run of backquotes fences it; a space keeps one off an end */
	pad = len > 0 && (p[0] == '`' || p[len - 1] == '`');
	for (i = 0; i <= most; i++)
		putc('`', o);
	if (pad)
		putc(' ', o);
	for (i = 0; i < len; i++) {
		if (p[i] == '|')
			fputs("\\|", o);
		else if (p[i] == '\t')
			fputs("\\t", o);
		else if (p[i] == '\n')
			fputs("\\n", o);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			fprintf(o, "\\x%02x", p[i]);
		else
			putc(p[i], o);
	}
	if (pad)
		putc(' ', o);
	for (i = 0; i <= most; i++)
		putc('`', o);
	buf_free(&b);
}

/* Write a report's tag as table header text. */
static void
mdtext(FILE *o, const char *s)
{
	for (; *s != '\0'; s++) {
		if (strchr("|\\`*_[]<>", *s) != NULL)
			putc('\\', o);
		putc((unsigned char)*s < 0x20 ? ' ' : *s, o);
	}
}

/* The headers of a table's columns of values: each report's, then each
 * variant's change (and share). */
static void
tagheads(FILE *o, char *const *tag, size_t ntag, int share)
{
	size_t i;

	for (i = 0; i < ntag; i++) {
		putc(' ', o);
		mdtext(o, tag[i]);
		fputs(" |", o);
	}
	for (i = 1; i < ntag; i++) {
		fputs(" Δ ", o);
		mdtext(o, tag[i]);
		fputs(" |", o);
		if (share)
			fputs(" share |", o);
	}
}

/* How a ranked table looks. */
struct tabspec {
	const char *what;	/* header of the name column */
	const char *extra;	/* header of the extra column, or NULL */
	char *const *tag;	/* the reports' tags */
	size_t ntag;		/* reports shown */
	const double *gross;	/* per variant: share denominators; NULL: no share */
	long width;		/* names cut to this many characters; 0 never */
};

static void
table(FILE *o, const struct tabspec *ts, const struct top *t)
{
	char a[FMTSZ], p[FMTSZ];
	const struct ent *e;
	size_t i, k, ntag = ts->ntag;

	fprintf(o, "| # | %s |", ts->what);
	if (ts->extra != NULL)
		fprintf(o, " %s |", ts->extra);
	tagheads(o, ts->tag, ntag, ts->gross != NULL);
	fputs("\n|--:|:--|", o);
	if (ts->extra != NULL)
		fputs(":--|", o);
	for (i = 0; i < ntag; i++)
		fputs("--:|", o);
	for (i = 1; i < ntag; i++)
		fputs(ts->gross != NULL ? "--:|--:|" : "--:|", o);
	putc('\n', o);
	for (k = 0; k < t->n; k++) {
		e = &t->e[k];
		fprintf(o, "| %zu | ", k + 1);
		mdcode(o, e->name, ts->width);
		fputs(" |", o);
		if (ts->extra != NULL) {
			putc(' ', o);
			mdcode(o, e->extra != NULL ? e->extra : "", ts->width);
			fputs(" |", o);
		}
		for (i = 0; i < ntag; i++)
			fprintf(o, " %s |", fmtval(a, sizeof(a), V(e, i),
			    e->unit, 0));
		for (i = 1; i < ntag; i++) {
			fprintf(o, " %s", fmtval(a, sizeof(a), D(e, i), e->unit, 1));
			if (isnan(D(e, i)))
				;
			else if (isnan(V(e, 0)))
				fputs(" (new)", o);
			else if (isnan(V(e, i)))
				fputs(" (gone)", o);
			else if (!isnan(P(e, i)))
				fprintf(o, " (%s)", fmtpct(p, sizeof(p), P(e, i), 1));
			fputs(" |", o);
			if (ts->gross == NULL)
				continue;
			if (isnan(D(e, i)) || ts->gross[i] <= 0)
				fputs(" — |", o);
			else
				fprintf(o, " %s |", fmtpct(p, sizeof(p),
				    100 * fabs(D(e, i)) / ts->gross[i], 0));
		}
		putc('\n', o);
	}
}

/* Link a chart in dir: end its alt text, give its path. */
static void
chart(FILE *o, const char *dir, const char *name)
{
	fprintf(o, "](%s/%s.svg)\n", dir, name);
}

/*
 * How many rows changed, of how many there are ("2 of 30"), or with
 * one set only the rows ("2"); and how many are shown.
 */
static void
nof(FILE *o, const struct top *t, int one)
{
	if (one)
		fprintf(o, "%zu", t->rows);
	else if (t->rows == 0 && t->same == 0)
		fputs("none", o);
	else if (t->rows == 0)
		fprintf(o, "none of %zu", t->same);
	else
		fprintf(o, "%zu of %zu", t->rows, t->rows + t->same);
	if (t->rows > t->n)
		fprintf(o, ", the top %zu shown", t->n);
}

static void
headline(FILE *o, const struct ctx *c)
{
	const struct ent *t = &c->tl[TT_TOTAL], *b = &c->tl[TT_BUSY];
	const struct ent *id = &c->tl[TT_IDLE];
	size_t i, ntag = c->ntag;
	char x[FMTSZ], y[FMTSZ], z[FMTSZ], p[FMTSZ];

	fputs("# Summary: ", o);
	mdtext(o, c->tag[0]);
	fputs(" (baseline) vs ", o);
	for (i = 1; i < ntag; i++) {
		if (i > 1)
			fputs(", ", o);
		mdtext(o, c->tag[i]);
	}
	fputs("\n\n", o);
	if (!c->hastl || t->name == NULL)
		return;
	for (i = 1; i < ntag; i++) {
		fputs("- **", o);
		mdtext(o, c->tag[i]);
		if (isnan(P(t, i)) || isnan(D(t, i)))
			fputs("** against **", o);
		else if (fabs(P(t, i)) < 0.05)
			fputs("** takes the same GPU time as **", o);
		else
			fprintf(o, "** takes %s %s GPU time than **",
			    fmtpct(p, sizeof(p), fabs(P(t, i)), 0),
			    P(t, i) < 0 ? "less" : "more");
		mdtext(o, c->tag[0]);
		fprintf(o, "**: total %s -> %s (%s)",
		    fmtval(x, sizeof(x), V(t, 0), U_MS, 0),
		    fmtval(y, sizeof(y), V(t, i), U_MS, 0),
		    fmtval(z, sizeof(z), D(t, i), U_MS, 1));
		if (b->name != NULL)
			fprintf(o, "; busy %s", fmtval(x, sizeof(x), D(b, i),
			    U_MS, 1));
		if (id->name != NULL)
			fprintf(o, ", idle %s", fmtval(x, sizeof(x), D(id, i),
			    U_MS, 1));
		fputs(".\n", o);
	}
	fputs("\n## GPU timeline\n\n|  |", o);
	tagheads(o, c->tag, ntag, 0);
	fputs("\n|:--|", o);
	for (i = 1; i < 2 * ntag; i++)
		fputs("--:|", o);
	putc('\n', o);
	for (t = c->tl; t < c->tl + LEN(c->tl); t++) {
		if (t->name == NULL)
			continue;
		fprintf(o, "| %s |", tltype[t - c->tl].label);
		for (i = 0; i < ntag; i++)
			fprintf(o, " %s |", fmtval(x, sizeof(x), V(t, i), U_MS, 0));
		for (i = 1; i < ntag; i++) {
			fprintf(o, " %s", fmtval(x, sizeof(x), D(t, i), U_MS, 1));
			if (!isnan(P(t, i)))
				fprintf(o, " (%s)", fmtpct(p, sizeof(p), P(t, i), 1));
			fputs(" |", o);
		}
		putc('\n', o);
	}
	if (c->opt->linkdir != NULL) {
		fputs("\n![GPU timeline", o);
		chart(o, c->opt->linkdir, "timeline");
	}
}

/*
 * A section of two tables: rows in both reports that changed, and rows
 * on one side only.  what: "ops" and so on; which: what changed.
 */
static void
twotables(FILE *o, const struct ctx *c, const struct section *s,
    const char *head, const char *what, const char *which,
    const char *share, const char *plot)
{
	struct tabspec ts = { head, NULL, c->tag, c->ntag, s->gross,
	    c->opt->width };

	fprintf(o, "%c%s in %s whose %s changed: ",
	    toupper((unsigned char)what[0]), what + 1, c->ntag > 2 ?
	    "the baseline and a variant" : "both reports", which);
	nof(o, &s->both, 0);
	if (s->both.rows > 0)
		fputs(", by the size of the change, regressions and "
		    "improvements together", o);
	fputs(".\n", o);
	if (s->both.rows > 0) {
		fprintf(o, "Share: the %s's part of the sum of every %s's |Δ|"
		    "%s.\n\n", head, head, share);
		table(o, &ts, &s->both);
		if (plot != NULL && c->opt->linkdir != NULL) {
			fputs("\n![", o);
			fprintf(o, "%c%s by change", toupper((unsigned char)what[0]),
			    what + 1);
			chart(o, c->opt->linkdir, plot);
		}
	}
	if (s->one.rows == 0)
		return;
	fprintf(o, "\n### %c%s on one side only\n\n",
	    toupper((unsigned char)what[0]), what + 1);
	fprintf(o, "%c%s that some report lacks: ",
	    toupper((unsigned char)what[0]), what + 1);
	nof(o, &s->one, 1);
	fputs(", by their time.\n\n", o);
	table(o, &ts, &s->one);
}

void
markdown(FILE *o, struct ctx *c)
{
	struct tabspec ts = { "op", "shape", c->tag, 2, NULL, c->opt->width };
	struct tabspec ls = { "subtree", "id", c->tag, 2, NULL, c->opt->width };
	const struct gate *g;
	char *pair[2];
	size_t i;

	headline(o, c);
	if (c->hasops) {
		fputs("\n## Ops by kernel-time change\n\n", o);
		twotables(o, c, &c->ops, "op", "ops", "total direct kernel "
		    "time (ops_summary)", ", new and gone ones included", "ops");
	}
	if (c->haskern) {
		fputs("\n## Kernels by time change\n\n", o);
		twotables(o, c, &c->kern, "kernel", "kernels", "total "
		    "duration (kernel_summary, a kernel's rows summed)",
		    ", new and gone ones included", NULL);
	}
	if (c->hascats) {
		fputs("\n## Op categories by kernel-time change\n\n", o);
		twotables(o, c, &c->cats, "category", "categories", "ops' "
		    "total direct kernel time (ops_summary, by Categories; "
		    "several join with +)", "", "categories");
	}
	for (i = 1; i < c->ntag; i++) {
		if (c->roof[i].e == NULL)
			continue;
		fputs("\n## Modelled ops by throughput change", o);
		if (c->ntag > 2) {
			fputs(" (", o);
			mdtext(o, c->tag[i]);
			putc(')', o);
		}
		fputs("\n\nShapes in both reports (the perf-model sheets' "
		    "intersect splits) whose mean achieved throughput "
		    "(TFLOPS/s for GEMM, SDPA and CONV, TB/s for elementwise "
		    "ops) changed: ", o);
		nof(o, &c->roof[i], 0);
		if (c->roof[i].rows > 0)
			fputs(", by the size of the percent change", o);
		fputs(".\n", o);
		if (c->roof[i].rows == 0)
			continue;
		pair[0] = c->tag[0];
		pair[1] = c->tag[i];
		ts.tag = pair;
		putc('\n', o);
		table(o, &ts, &c->roof[i]);
	}
	if (c->haslca) {
		fputs("\n## Subtrees by time change (TraceDiff)\n\n", o);
		if (c->lcasame) {
			fputs("The two traces give the same TraceDiff rows: no "
			    "subtree differs.\n", o);
		} else {
			fputs("Lowest common ancestors of the merged call tree "
			    "(diff_stats: where the two trees differ, op names "
			    "across hardware or libraries included) whose busy "
			    "GPU time changed: ", o);
			nof(o, &c->lca.both, 0);
			if (c->lca.both.rows > 0)
				fputs(", by the size of the change", o);
			fputs("; trace1 is ", o);
			mdtext(o, c->tag[0]);
			fputs(", trace2 ", o);
			mdtext(o, c->tag[1]);
			fputs(".\n", o);
		}
		if (!c->lcasame && c->lca.both.rows > 0) {
			fputs("Share: the subtree's part of the sum of every "
			    "subtree's |Δ|.\n\n", o);
			ls.gross = c->lca.gross;
			table(o, &ls, &c->lca.both);
		}
	}
	if (c->opt->ngate > 0) {
		fputs("\n## Regression gates\n\n", o);
		for (i = 0; i < c->opt->ngate; i++) {
			g = &c->opt->gates[i];
			fputs("- ", o);
			mdcode(o, g->spec, c->opt->width);
			if (g->over > 0)
				fprintf(o, ": **exceeded** (%zu)\n", g->over);
			else
				fputs(": passed\n", o);
		}
	}
}
