/* See LICENSE file for copyright and license details. */
/*
 * table.c: ranked rows and the tables that keep the best N of them (a
 * heap each), and filing a completed row into its section.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"
#include "rank.h"

/* ---- rows and tables ---- */

void
ent_init(struct ent *e, size_t ntag)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->x = tl_malloc(3 * ntag * sizeof(*e->x));
	for (i = 0; i < 3 * ntag; i++)
		e->x[i] = NAN;
}

void
ent_free(struct ent *e)
{
	free(e->name);
	free(e->extra);
	free(e->x);
	memset(e, 0, sizeof(*e));
}

/* 1 when a ranks before b. */
static int
better(const struct ent *a, const struct ent *b)
{
	int c;

	if (a->rank != b->rank)
		return a->rank > b->rank;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c < 0;
	return a->seq < b->seq;
}

static void
swapent(struct ent *a, struct ent *b)
{
	struct ent t = *a;

	*a = *b;
	*b = t;
}

/* Restore the heap below i: no child is worse than its parent. */
static void
siftdown(struct top *t, size_t i)
{
	size_t c;

	for (; (c = 2 * i + 1) < t->n; i = c) {
		if (c + 1 < t->n && better(&t->e[c], &t->e[c + 1]))
			c++;
		if (!better(&t->e[i], &t->e[c]))
			break;
		swapent(&t->e[i], &t->e[c]);
	}
}

/* Offer e; the table (topn rows) takes it (and its memory) or frees it. */
void
top_offer(struct top *t, struct ent *e, long topn)
{
	size_t i, p;

	t->rows++;
	if (t->e == NULL)
		t->e = tl_calloc((size_t)topn, sizeof(*t->e));
	if (t->n < (size_t)topn) {
		i = t->n++;
		t->e[i] = *e;
		for (; i > 0 && better(&t->e[p = (i - 1) / 2], &t->e[i]); i = p)
			swapent(&t->e[i], &t->e[p]);
	} else if (better(e, &t->e[0])) {
		ent_free(&t->e[0]);
		t->e[0] = *e;
		siftdown(t, 0);
	} else
		ent_free(e);
	memset(e, 0, sizeof(*e));
}

static int
entcmp(const void *a, const void *b)
{
	return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

/* Best first, once every row was offered. */
void
top_sort(struct top *t)
{
	if (t->n > 0)
		qsort(t->e, t->n, sizeof(*t->e), entcmp);
}

void
top_free(struct top *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		ent_free(&t->e[i]);
	free(t->e);
	memset(t, 0, sizeof(*t));
}

/* ---- filing rows ---- */

void
section_free(struct section *s)
{
	top_free(&s->both);
	top_free(&s->one);
	free(s->gross);
}

/*
 * Complete the changes of a row with values: a variant's change and
 * percent, when absent, come from its values (the comparison leaves
 * them out where the baseline lacks the row); a row on one side only
 * changes by its whole time.  Then rank it by its largest change.
 */
void
complete(struct ent *e, size_t ntag)
{
	size_t i;
	int b = !isnan(V(e, 0)), v;

	e->rank = 0;
	for (i = 1; i < ntag; i++) {
		v = !isnan(V(e, i));
		if (isnan(D(e, i)) && b && v) {
			D(e, i) = V(e, i) - V(e, 0);
			if (V(e, 0) != 0)
				P(e, i) = 100 * (D(e, i) / V(e, 0));
		} else if (isnan(D(e, i)) && b != v)
			D(e, i) = v ? V(e, i) : -V(e, 0);
		if (!isnan(D(e, i)) && fabs(D(e, i)) > e->rank)
			e->rank = fabs(D(e, i));
	}
}

/* File a completed row into its section: in both reports, or one. */
void
file(struct ctx *c, struct section *s, struct ent *e, size_t ntag,
    const char *sheet, int split)
{
	size_t i;
	int b = !isnan(V(e, 0)), v = 0;

	if (s->gross == NULL)
		s->gross = tl_calloc(ntag, sizeof(*s->gross));
	for (i = 1; i < ntag; i++) {
		v |= !isnan(V(e, i));
		if (!isnan(D(e, i)))
			s->gross[i] += fabs(D(e, i));
	}
	if (sheet != NULL)
		gate_row(c, sheet, e, ntag);
	if (b && v && e->rank == 0) {
		s->both.same++;
		ent_free(e);
	} else if (!b && !v)
		ent_free(e);
	else
		top_offer(split && !(b && v) ? &s->one : &s->both, e,
		    c->opt->topn);
}
