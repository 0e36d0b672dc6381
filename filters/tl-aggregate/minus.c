/* See LICENSE file for copyright and license details. */
/*
 * minus.c: tl-aggregate's minus, B - A1 [- A2]: TraceLens's
 * subtract_intervalsA_from_B on the merged intervals of three classes
 * of one group, done as the intervals come, in start order.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "agg.h"

static void
ivpush(struct ivlist *l, struct iv iv)
{
	tl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = iv;
}

/*
 * The streaming subtraction.  Why it may run as the intervals come: the
 * input is in start order, so an interval whose end is before the
 * latest start (the sweep) can grow no more, and every interval that
 * starts before it has been seen.  A base interval is final once the
 * sweep passes its end; so are the subtrahend intervals that start
 * before it, the open one's end included as far as it matters.  The
 * pieces, and so the rounding of their sum, are those of the whole
 * lists subtracted at the end.
 */

/* Intervals of S's subtrahend ending at or before f meet no later base. */
static void
sb_floor(int exact, struct subtr *S, union tv f)
{
	while (S->qh < S->q.n && ival_cmp(exact, S->q.v[S->qh].e, f) <= 0)
		S->qh++;
	if (S->qh == S->q.n)
		S->qh = S->q.n = 0;
	else if (S->qh > 64 && S->qh > S->q.n / 2) {
		memmove(S->q.v, S->q.v + S->qh, (S->q.n - S->qh) * sizeof(*S->q.v));
		S->q.n -= S->qh;
		S->qh = 0;
	}
}

static void sb_base(struct minus *mn, int k, struct iv b,
    const struct merger *open);

/* A piece of stage k's base not covered by its subtrahend. */
static void
sb_piece(struct minus *mn, int k, union tv s, union tv e)
{
	struct iv p;

	if (k == 0 && mn->two) {
		p.s = s;
		p.e = e;
		/* the sweep is past e: the piece is final */
		mn->sb[1].cur = s;
		sb_floor(mn->exact, &mn->sb[1], s);
		sb_base(mn, 1, p, &mn->m[2]);
	} else
		mn->sb[k].sum = ival_add(mn->exact, mn->sb[k].sum,
		    ival_sub(mn->exact, e, s));
}

/* One subtrahend interval t against the base interval ending at be. */
static void
sb_step(struct minus *mn, int k, struct iv t, union tv be)
{
	struct subtr *S = &mn->sb[k];

	if (ival_cmp(mn->exact, t.s, S->cur) > 0)
		sb_piece(mn, k, S->cur, ival_cmp(mn->exact, be, t.s) < 0 ? be : t.s);
	if (ival_cmp(mn->exact, t.e, S->cur) > 0)
		S->cur = t.e;
}

/*
 * The final base interval b of stage k (S->cur set where its uncovered
 * part starts): the rest of its pieces, against the queued subtrahend
 * intervals and the one still open.
 */
static void
sb_base(struct minus *mn, int k, struct iv b, const struct merger *open)
{
	struct subtr *S = &mn->sb[k];
	size_t i;

	for (i = S->qh; i < S->q.n &&
	    ival_cmp(mn->exact, S->q.v[i].s, b.e) < 0; i++) {
		sb_step(mn, k, S->q.v[i], b.e);
		if (ival_cmp(mn->exact, S->cur, b.e) >= 0)
			goto done;
	}
	if (open->open && ival_cmp(mn->exact, open->cur.s, b.e) < 0) {
		sb_step(mn, k, open->cur, b.e);
		if (ival_cmp(mn->exact, S->cur, b.e) >= 0)
			goto done;
	}
	sb_piece(mn, k, S->cur, b.e);
done:
	sb_floor(mn->exact, S, b.e);
	S->inb = 0;
}

/* Merger i of a minus is final: hand its interval on. */
static void
sb_close(struct minus *mn, int i)
{
	struct merger *m = &mn->m[i];
	struct iv iv = m->cur;

	mg_close(m);
	if (i == 0) {
		if (mn->sb[0].inb)
			sb_base(mn, 0, iv, &mn->m[1]);
	} else
		ivpush(&mn->sb[i - 1].q, iv);
}

/* Close the mergers of a minus whose intervals end before t (all: NULL). */
static void
sb_sweep(struct minus *mn, const union tv *t)
{
	/* the subtrahends first: a base interval needs them queued */
	static const int order[] = { 1, 2, 0 };
	size_t j;
	struct merger *m;

	for (j = 0; j < 3; j++) {
		m = &mn->m[order[j]];
		if (m->open &&
		    (t == NULL || ival_cmp(mn->exact, m->cur.e, *t) < 0))
			sb_close(mn, order[j]);
	}
}

/*
 * Interval [s, e] of class mi (0: B, 1: A1, 2: A2) of a minus (sint,
 * eint: s and e are Python ints); field (its start's) names it in errors.
 */
void
mn_add(struct minus *mn, int mi, union tv s, union tv e, int sint, int eint,
    const char *field, struct rec_reader *r)
{
	struct subtr *S = &mn->sb[0];
	int was;

	if (mn->m[0].seen || mn->m[1].seen || mn->m[2].seen) {
		if (ival_cmp(mn->exact, s, mn->sweep) < 0)
			tl_die("%s: line %zu: minus: '%s' decreases within the group "
			    "(interval operations need the group in start order)",
			    r->name, r->lineno, field);
	}
	mn->sweep = s;
	sb_sweep(mn, &s);
	was = mn->m[mi].open;
	if (mg_add(&mn->m[mi], s, e, sint, eint) < 0)
		tl_die("%s: line %zu: minus: '%s' decreases within the group "
		    "(interval operations need the group in start order)",
		    r->name, r->lineno, field);
	if (mi == 0 && !was) {
		S->inb = 1;
		S->cur = s;
		sb_floor(mn->exact, S, s);
	}
	if (S->inb) {
		/* closed intervals end before the sweep, so before the base's end */
		while (S->qh < S->q.n) {
			sb_step(mn, 0, S->q.v[S->qh], mn->m[0].cur.e);
			S->qh++;
		}
		S->qh = S->q.n = 0;
	} else
		sb_floor(mn->exact, S, s);
	if (mn->two)
		sb_floor(mn->exact, &mn->sb[1], S->inb ? S->cur : s);
}

/* Start a group: m are the mergers of B, A1 and A2; two: A2 is given. */
void
mn_reset(struct minus *mn, struct merger *m, int two, int exact)
{
	int i;

	mn->m = m;
	mn->two = two;
	mn->exact = exact;
	for (i = 0; i < 2; i++) {
		mn->sb[i].q.n = mn->sb[i].qh = 0;
		mn->sb[i].inb = 0;
		mn->sb[i].sum = ival_zero(exact);
	}
}

/* The group is over: what is left of B. */
union tv
mn_sum(struct minus *mn)
{
	sb_sweep(mn, NULL);
	return mn->sb[mn->two].sum;
}

void
mn_free(struct minus *mn)
{
	free(mn->sb[0].q.v);
	free(mn->sb[1].q.v);
}
