/* See LICENSE file for copyright and license details. */
/*
 * TraceLens's interval arithmetic: intervals [ts, ts + dur] merged in
 * start order, their lengths summed in that order, in IEEE doubles of
 * microseconds as Python computes them, or in exact integer
 * nanoseconds.  tl-aggregate's union, span and gaps and tl-tree's
 * kernel times are this one code, so that they agree to the last bit.
 */
#include <stdio.h>
#include <string.h>

#include "tl.h"

int
ival_parse(int exact, const char *s, size_t len, union tv *t)
{
	if (exact)
		return num_us_to_ns(s, len, &t->n);
	return num_double(s, len, &t->d);
}

int
ival_parse_ns(int exact, const char *s, size_t len, union tv *t)
{
	int64_t n;

	/* Python: an int ns is made a float, then divided by 1000.0 */
	if (num_int64(s, len, &n) == 0) {
		if (exact)
			t->n = n;
		else
			t->d = (double)n / 1000.0;
		return 0;
	}
	if (exact || num_double(s, len, &t->d) < 0)
		return -1;
	t->d /= 1000.0;
	return 0;
}

union tv
ival_add(int exact, union tv a, union tv b)
{
	union tv r;

	if (exact)
		r.n = a.n + b.n;
	else
		r.d = a.d + b.d;
	return r;
}

union tv
ival_sub(int exact, union tv a, union tv b)
{
	union tv r;

	if (exact)
		r.n = a.n - b.n;
	else
		r.d = a.d - b.d;
	return r;
}

int
ival_cmp(int exact, union tv a, union tv b)
{
	if (exact)
		return (a.n > b.n) - (a.n < b.n);
	return (a.d > b.d) - (a.d < b.d);
}

union tv
ival_zero(int exact)
{
	union tv r;

	memset(&r, 0, sizeof(r));
	if (!exact)
		r.d = 0.0;
	return r;
}

char *
ival_fmt(int exact, union tv t, char *buf, size_t size)
{
	if (exact)
		return num_ns_to_us(t.n, buf, size);
	return num_pyrepr(t.d, buf, size);
}

char *
mg_fmt(const struct merger *m, union tv t, char *buf, size_t size)
{
	if (!m->exact && !m->nonint && m->seen)
		return num_pyint(t.d, buf, size);
	return ival_fmt(m->exact, t, buf, size);
}

void
mg_reset(struct merger *m)
{
	m->open = 0;
	m->seen = 0;
	m->nonint = 0;
}

void
mg_close(struct merger *m)
{
	if (!m->open)
		return;
	/* Python's end - start: a float unless both are ints */
	if (!m->sint || !m->eint)
		m->nonint = 1;
	m->sum = ival_add(m->exact, m->sum, ival_sub(m->exact, m->cur.e, m->cur.s));
	m->open = 0;
}

int
mg_add(struct merger *m, union tv s, union tv e, int sint, int eint)
{
	union tv gap;
	int c, x = m->exact;

	if (m->seen && ival_cmp(x, s, m->last) < 0)
		return -1;
	if (!m->seen) {
		m->first = s;
		m->sum = ival_zero(x);
		m->gsum = ival_zero(x);
	}
	m->seen = 1;
	m->last = s;
	if (m->open && ival_cmp(x, s, m->cur.e) <= 0) {
		/* max(last_end, end) keeps last_end, and its type, on a tie */
		if (ival_cmp(x, e, m->cur.e) > 0) {
			m->cur.e = e;
			m->eint = eint;
		}
		return 0;
	}
	if (m->open) {
		gap = ival_sub(x, s, m->cur.e);
		c = 1;
		if (m->cmp == '<')
			c = x ? (double)gap.n / 1000 < m->thresh : gap.d < m->thresh;
		else if (m->cmp == '>')
			c = x ? (double)gap.n / 1000 >= m->thresh : gap.d >= m->thresh;
		mg_close(m);
		if (c)
			m->gsum = ival_add(x, m->gsum, gap);
	}
	m->cur.s = s;
	m->cur.e = e;
	m->sint = sint;
	m->eint = eint;
	m->open = 1;
	return 0;
}

union tv
mg_union(struct merger *m)
{
	mg_close(m);
	return m->seen ? m->sum : ival_zero(m->exact);
}
