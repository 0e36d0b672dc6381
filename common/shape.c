/* See LICENSE file for copyright and license details. */
/*
 * The compact-JSON argument fields of op records (see shape.h), and the
 * few Python literals found inside Concrete Inputs strings.  Parsers
 * here see untrusted trace text: they check every byte and never read
 * past len.
 */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "shape.h"

#define JDEPTH 64

/* Parser state over s[0..len). */
struct jp {
	struct jdoc *d;		/* document being filled */
	const char *s;		/* the text, not owned */
	size_t len;		/* its length */
	size_t pos;		/* next byte to read */
};

static int jvalue(struct jp *p, size_t at, int depth);

static void
jws(struct jp *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
	    p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static size_t
jnew(struct jdoc *d)
{
	tl_grow((void **)&d->v, &d->cap, d->nv + 1, sizeof(*d->v));
	memset(&d->v[d->nv], 0, sizeof(*d->v));
	return d->nv++;
}

/*
 * A string starting at the opening quote: its decoded bytes and a NUL go
 * to d->str.  Raw control characters are not JSON; escapes are decoded
 * by common/'s json_unescape (a lone surrogate kept as Python keeps it).
 */
static int
jstring(struct jp *p, size_t at)
{
	struct jdoc *d = p->d;
	size_t start = d->str.len, body = ++p->pos;

	while (p->pos < p->len && p->s[p->pos] != '"') {
		if ((unsigned char)p->s[p->pos] < 0x20)
			return -1;
		p->pos += p->s[p->pos] == '\\' ? 2 : 1;
	}
	if (p->pos >= p->len)
		return -1;
	if (json_unescape(&d->str, p->s + body, p->pos - body) < 0)
		return -1;
	p->pos++;
	/* every string gets its own NUL so jstr() can return it */
	buf_add(&d->str, "", 1);
	d->v[at].t = J_STR;
	d->v[at].s = start;
	d->v[at].len = d->str.len - 1 - start;
	return 0;
}

static int
jnumber(struct jp *p, size_t at)
{
	const char *s = p->s;
	size_t i = p->pos, start = p->pos;
	int isint = 1;
	char tmp[64], *end;
	struct jval *v;

	if (i < p->len && s[i] == '-')
		i++;
	if (i >= p->len || s[i] < '0' || s[i] > '9')
		return -1;
	if (s[i] == '0')
		i++;
	else
		while (i < p->len && s[i] >= '0' && s[i] <= '9')
			i++;
	if (i < p->len && s[i] == '.') {
		isint = 0;
		if (++i >= p->len || s[i] < '0' || s[i] > '9')
			return -1;
		while (i < p->len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
		isint = 0;
		i++;
		if (i < p->len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= p->len || s[i] < '0' || s[i] > '9')
			return -1;
		while (i < p->len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i - start >= sizeof(tmp))
		return -1;
	memcpy(tmp, s + start, i - start);
	tmp[i - start] = '\0';
	p->pos = i;
	v = &p->d->v[at];
	/* (most are short integers: no strtod or strtoll for them; the
	 * conversion of the exact integer rounds as strtod does) */
	if (isint && i - start <= 18) {
		long long x = 0;
		size_t k = s[start] == '-';

		for (k += start; k < i; k++)
			x = x * 10 + (s[k] - '0');
		v->i = s[start] == '-' ? -x : x;
		v->d = s[start] == '-' ? -(double)x : (double)x;	/* (-0) */
		v->t = J_INT;
		return 0;
	}
	if (num_double(tmp, i - start, &v->d) != 0)
		v->d = strtod(tmp, NULL);
	v->t = J_FLOAT;
	if (isint) {
		errno = 0;
		v->i = strtoll(tmp, &end, 10);
		if (errno == 0)
			v->t = J_INT;
	}
	return 0;
}

static int
jword(struct jp *p, const char *w)
{
	size_t n = strlen(w);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0)
		return -1;
	p->pos += n;
	return 0;
}

/* An array or object; children are linked in order through next. */
static int
jcontainer(struct jp *p, size_t at, int depth)
{
	int obj = p->s[p->pos] == '{';
	char close = obj ? '}' : ']';
	size_t prev = 0, n = 0, c;

	p->d->v[at].t = obj ? J_OBJ : J_ARR;
	p->pos++;
	jws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		jws(p);
		c = jnew(p->d);
		if (obj) {
			if (p->pos >= p->len || p->s[p->pos] != '"' ||
			    jstring(p, c) < 0)
				return -1;
			jws(p);
			if (p->pos >= p->len || p->s[p->pos++] != ':')
				return -1;
		} else if (jvalue(p, c, depth + 1) < 0)
			return -1;
		if (n == 0)
			p->d->v[at].first = c;
		else
			p->d->v[prev].next = c;
		prev = c;
		n++;
		if (obj) {
			jws(p);
			c = jnew(p->d);
			if (jvalue(p, c, depth + 1) < 0)
				return -1;
			p->d->v[prev].next = c;
			prev = c;
			n++;
		}
		jws(p);
		if (p->pos >= p->len)
			return -1;
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos++] != close)
			return -1;
		break;
	}
	p->d->v[at].n = n;
	return 0;
}

static int
jvalue(struct jp *p, size_t at, int depth)
{
	if (depth > JDEPTH)
		return -1;
	jws(p);
	if (p->pos >= p->len)
		return -1;
	switch (p->s[p->pos]) {
	case '[': case '{':
		return jcontainer(p, at, depth);
	case '"':
		return jstring(p, at);
	case 't':
		p->d->v[at].t = J_BOOL;
		p->d->v[at].i = 1;
		return jword(p, "true");
	case 'f':
		p->d->v[at].t = J_BOOL;
		return jword(p, "false");
	case 'n':
		p->d->v[at].t = J_NULL;
		return jword(p, "null");
	default:
		return jnumber(p, at);
	}
}

int
jdoc_parse(struct jdoc *d, const char *s, size_t len)
{
	struct jp p = { d, s, len, 0 };

	d->nv = 0;
	buf_reset(&d->str);
	d->ok = 0;
	jnew(d);
	if (jvalue(&p, 0, 0) < 0)
		return -1;
	jws(&p);
	if (p.pos != len)
		return -1;
	d->ok = 1;
	return 0;
}

void
jdoc_free(struct jdoc *d)
{
	free(d->v);
	buf_free(&d->str);
	memset(d, 0, sizeof(*d));
}

void
jdoc_clear(struct jdoc *d)
{
	d->ok = 0;
}

const struct jval *
jdoc_root(const struct jdoc *d)
{
	return d->ok ? &d->v[0] : NULL;
}

const struct jval *
jarr_at(const struct jdoc *d, const struct jval *a, size_t k)
{
	size_t i;

	if (a == NULL || a->t != J_ARR || k >= a->n)
		return NULL;
	for (i = a->first; k > 0; k--)
		i = d->v[i].next;
	return &d->v[i];
}

size_t
jarr_len(const struct jval *a)
{
	return a != NULL && a->t == J_ARR ? a->n : 0;
}

const char *
jstr(const struct jdoc *d, const struct jval *v)
{
	return v != NULL && v->t == J_STR ? d->str.s + v->s : NULL;
}

int
shape_get(const struct jdoc *d, const struct jval *v, struct shape *sh)
{
	const struct jval *e;
	size_t i;

	sh->n = 0;
	if (v == NULL || v->t != J_ARR || v->n > SHAPE_MAX)
		return -1;
	for (i = 0; i < v->n; i++) {
		e = jarr_at(d, v, i);
		if (e->t != J_INT)
			return -1;
		sh->d[sh->n++] = e->i;
	}
	return 0;
}

int
shape_prod(const struct shape *sh, int64_t *p)
{
	size_t i;

	*p = 1;
	for (i = 0; i < sh->n; i++)
		if (__builtin_mul_overflow(*p, sh->d[i], p))
			return -1;
	return 0;
}

static int
pyspace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

/* int(s[0..n)): optional blanks around an optionally signed decimal. */
static int
pyint(const char *s, size_t n, int64_t *v)
{
	size_t i = 0;
	int neg = 0, nd = 0;
	uint64_t u = 0;

	while (i < n && pyspace(s[i]))
		i++;
	while (n > i && pyspace(s[n - 1]))
		n--;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < n; i++) {
		if (s[i] == '_' && nd > 0 && i + 1 < n && s[i + 1] >= '0' &&
		    s[i + 1] <= '9')
			continue;
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (u > (UINT64_MAX - 9) / 10)
			return -1;
		u = u * 10 + (s[i] - '0');
		nd++;
	}
	if (nd == 0 || u > (uint64_t)INT64_MAX + neg)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

int
shape_pyint(const char *s, int64_t *v)
{
	return pyint(s, strlen(s), v);
}

int
shape_pyfloat(const char *s, double *v)
{
	char tmp[128], *end;
	size_t i = 0, n = strlen(s), j;

	while (i < n && pyspace(s[i]))
		i++;
	while (n > i && pyspace(s[n - 1]))
		n--;
	if (n == i || n - i >= sizeof(tmp))
		return -1;
	for (j = i; j < n; j++)
		if (s[j] == 'x' || s[j] == 'X' || s[j] == 'p' || s[j] == 'P' ||
		    s[j] == '_')
			return -1;
	memcpy(tmp, s + i, n - i);
	tmp[n - i] = '\0';
	*v = strtod(tmp, &end);
	if (*end != '\0')
		return -1;
	return 0;
}

/*
 * The items of a Python list or tuple literal, one call each: *b, *e
 * delimit the next item, trimmed.  Returns 1 for an item, 0 at the end,
 * -1 when s is no list.  A trailing comma is allowed, an empty item is
 * not.
 */
struct pyiter {
	const char *p;	/* next byte to scan */
	const char *end;	/* the closing bracket */
};

static int
pyiter_init(struct pyiter *it, const char *s)
{
	size_t n = strlen(s), i = 0;

	while (i < n && pyspace(s[i]))
		i++;
	while (n > i && pyspace(s[n - 1]))
		n--;
	if (n - i < 2 || !((s[i] == '[' && s[n - 1] == ']') ||
	    (s[i] == '(' && s[n - 1] == ')')))
		return -1;
	it->p = s + i + 1;
	it->end = s + n - 1;
	while (it->p < it->end && pyspace(*it->p))
		it->p++;
	return 0;
}

static int
pyiter_next(struct pyiter *it, const char **b, const char **e)
{
	const char *c;

	if (it->p >= it->end)
		return 0;
	for (c = it->p; c < it->end && *c != ','; c++)
		;
	*b = it->p;
	*e = c;
	while (*b < *e && pyspace(**b))
		(*b)++;
	while (*e > *b && pyspace((*e)[-1]))
		(*e)--;
	if (*b == *e)
		return -1;
	it->p = c < it->end ? c + 1 : c;
	while (it->p < it->end && pyspace(*it->p))
		it->p++;
	return 1;
}

int
shape_pylist(const char *s, struct shape *sh)
{
	return shape_pysize(s, sh, NULL, NULL, NULL);
}

/*
 * A Python float literal, b[0..e): optionally signed digits with a
 * point or an exponent, _ only between digits (1_000.5), as the
 * parser that ast.literal_eval runs takes it; inf and nan are names
 * there, not numbers.  0 or -1.
 */
static int
pyfloatlit(const char *b, const char *e, double *v)
{
	char tmp[64], *end;
	size_t j = 0;
	const char *c;
	int num = 0;

	for (c = b; c < e; c++) {
		if (*c == '_' && c > b && c + 1 < e && c[-1] >= '0' && c[-1] <= '9' &&
		    c[1] >= '0' && c[1] <= '9')
			continue;
		if (!((*c >= '0' && *c <= '9') || *c == '.' || *c == 'e' || *c == 'E' ||
		    *c == '+' || *c == '-'))
			return -1;
		num |= *c == '.' || *c == 'e' || *c == 'E';
		if (j >= sizeof(tmp) - 1)
			return -1;
		tmp[j++] = *c;
	}
	tmp[j] = '\0';
	if (!num || j == 0)
		return -1;
	*v = strtod(tmp, &end);
	return *end == '\0' ? 0 : -1;
}

int
shape_pysize(const char *s, struct shape *sh, unsigned *bools, double *fv,
    unsigned *floats)
{
	struct pyiter it;
	const char *b, *e;
	int r;

	sh->n = 0;
	if (bools)
		*bools = 0;
	if (floats)
		*floats = 0;
	if (pyiter_init(&it, s) < 0)
		return -1;
	while ((r = pyiter_next(&it, &b, &e)) > 0) {
		if (sh->n >= SHAPE_MAX)
			return -1;
		if (bools && ((e - b == 4 && memcmp(b, "True", 4) == 0) ||
		    (e - b == 5 && memcmp(b, "False", 5) == 0))) {
			sh->d[sh->n] = e - b == 4;
			*bools |= 1u << sh->n;
		} else if (pyint(b, e - b, &sh->d[sh->n]) == 0) {
			;
		} else if (floats && pyfloatlit(b, e, &fv[sh->n]) == 0) {
			sh->d[sh->n] = 0;
			*floats |= 1u << sh->n;
		} else
			return -1;
		sh->n++;
	}
	return r;
}

int
shape_pybools(const char *s, int *bv, size_t max, size_t *n)
{
	struct pyiter it;
	const char *b, *e;
	int r;

	*n = 0;
	if (pyiter_init(&it, s) < 0)
		return -1;
	while ((r = pyiter_next(&it, &b, &e)) > 0) {
		if (*n >= max)
			return -1;
		int64_t iv;
		double dv;
		char tmp[64];

		if (e - b == 4 && memcmp(b, "True", 4) == 0)
			bv[(*n)++] = 1;
		else if (e - b == 5 && memcmp(b, "False", 5) == 0)
			bv[(*n)++] = 0;
		else if (e - b == 4 && memcmp(b, "None", 4) == 0)
			bv[(*n)++] = 0;
		else if (pyint(b, e - b, &iv) == 0)	/* bool() of an int */
			bv[(*n)++] = iv != 0;
		else if (e - b < (ptrdiff_t)sizeof(tmp) && memchr(b, '.', e - b) != NULL &&
		    (memcpy(tmp, b, e - b), tmp[e - b] = '\0', shape_pyfloat(tmp, &dv) == 0))
			bv[(*n)++] = dv != 0;	/* bool() of a float */
		else
			return -1;
	}
	return r;
}

int
shape_split(const char *b, const char *e, struct shape *sh)
{
	const char *c;

	sh->n = 0;
	for (;;) {
		for (c = b; c < e && *c != ','; c++)
			;
		if (sh->n >= SHAPE_MAX || pyint(b, c - b, &sh->d[sh->n]) < 0)
			return -1;
		sh->n++;
		if (c == e)
			return 0;
		b = c + 1;
	}
}
