/* See LICENSE file for copyright and license details. */
/*
 * coll.c: typed cells of collective records (coll.h): taken from a
 * kernel's args JSON, printed the way pandas prints their column.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#include <jsmn.h>

#include "tl.h"
#include "jtok.h"
#include "coll.h"
#include "treeio.h"

const char *const coll_argname[NCA] = {
	"Process Group Name", "Process Group Ranks", "Collective name",
	"Group size", "dtype", "In msg nelems", "Out msg nelems",
	"In split size", "Out split size", "stream",
	"correlation", "External id"
};

/* A JSON number's cell: i for an integer orjson reads, else f. */
static int
numcell(struct buf *b, const char *s, size_t len)
{
	char tmp[40];
	int64_t v;
	double d;

	if (memchr(s, '.', len) == NULL && memchr(s, 'e', len) == NULL &&
	    memchr(s, 'E', len) == NULL) {
		if (num_int64(s, len, &v) < 0)
			return -2;
		snprintf(tmp, sizeof(tmp), "i%lld", (long long)v);
		buf_adds(b, tmp);
		return 0;
	}
	if (num_double(s, len, &d) < 0 || !isfinite(d))
		return -2;
	buf_addc(b, 'f');
	buf_adds(b, num_pyrepr(d, tmp, sizeof(tmp)));
	return 0;
}

/* The cell of one JSON value (a token of the args text). */
static int
tokcell(struct buf *b, const char *js, const jsmntok_t *t)
{
	const char *s = js + t->start;
	size_t n = (size_t)(t->end - t->start);
	struct buf dec = {0};

	buf_reset(b);
	switch (t->type) {
	case JSMN_STRING:
		buf_addc(b, 's');
		if (json_unescape(&dec, s, n) < 0) {
			buf_free(&dec);
			return -1;
		}
		rec_bput(b, dec.s ? dec.s : "", dec.len);
		buf_free(&dec);
		return 0;
	case JSMN_ARRAY:
	case JSMN_OBJECT:
		buf_addc(b, t->type == JSMN_ARRAY ? 'l' : 'o');
		rec_bput(b, s, n);
		return 0;
	default:
		if (n == 4 && memcmp(s, "null", 4) == 0) {
			buf_addc(b, 'z');
			return 0;
		}
		if (n == 4 && memcmp(s, "true", 4) == 0) {
			buf_adds(b, "bTrue");
			return 0;
		}
		if (n == 5 && memcmp(s, "false", 5) == 0) {
			buf_adds(b, "bFalse");
			return 0;
		}
		return numcell(b, s, n);
	}
}

int
coll_args(struct buf cell[NCA], const char *args, size_t len)
{
	static jsmntok_t *tok;		/* reused across calls */
	static size_t ntok;
	jsmn_parser p;
	const char *k;
	size_t kl;
	int nt, i, m, a, st;

	for (;;) {
		if (ntok == 0) {
			ntok = 256;
			tok = tl_malloc(ntok * sizeof(*tok));
		}
		jsmn_init(&p);
		nt = jsmn_parse(&p, args, len, tok, (unsigned)ntok);
		if (nt != JSMN_ERROR_NOMEM)
			break;
		ntok *= 2;
		tok = tl_realloc(tok, ntok * sizeof(*tok));
	}
	if (nt < 1 || tok[0].type != JSMN_OBJECT)
		return -1;
	for (a = 0; a < NCA; a++) {
		buf_reset(&cell[a]);
		buf_addc(&cell[a], 'z');
	}
	for (m = 0, i = 1; m < tok[0].size && i + 1 < nt; m++) {
		k = args + tok[i].start;
		kl = (size_t)(tok[i].end - tok[i].start);
		for (a = 0; a < NCA; a++)
			if (strlen(coll_argname[a]) == kl &&
			    memcmp(coll_argname[a], k, kl) == 0)
				break;
		if (a < NCA && (st = tokcell(&cell[a], args, &tok[i + 1])) < 0)
			return st == -1 ? -1 : -2;
		i = jtok_skip(tok, i + 1, nt);
	}
	return 0;
}

int
coll_numcell(struct buf *cell, const char *s, size_t len)
{
	size_t i = 0;

	buf_reset(cell);
	/* a JSON number: -?digits(.digits)?([eE][+-]?digits)? */
	if (i < len && s[i] == '-')
		i++;
	if (i == len || s[i] < '0' || s[i] > '9')
		return -1;
	return numcell(cell, s, len) < 0 ? -1 : 0;
}

unsigned
coll_fact(const char *cell, size_t len)
{
	switch (len ? cell[0] : 'z') {
	case 'z': return F_Z;
	case 'i': return F_I;
	case 'f': return F_F;
	case 's': return F_S;
	default: return F_X;
	}
}

int
coll_class(unsigned f)
{
	if (f & (F_S | F_X))
		return K_OBJ;
	if (!(f & (F_I | F_F)))
		return K_NONE;
	if (f & (F_F | F_Z))
		return K_FLOAT;
	return K_INT;
}

int
coll_num(const char *cell, size_t len, struct cnum *v)
{
	if (len < 2 || (cell[0] != 'i' && cell[0] != 'f'))
		return -1;
	v->isint = cell[0] == 'i';
	if (v->isint) {
		if (num_int64(cell + 1, len - 1, &v->i) < 0)
			return -1;
		v->d = (double)v->i;
		return 0;
	}
	v->i = 0;
	return num_double(cell + 1, len - 1, &v->d);
}

void
coll_putnum(struct buf *b, const struct cnum *v)
{
	char tmp[40];

	if (v->isint)
		snprintf(tmp, sizeof(tmp), "%lld", (long long)v->i);
	else if (v->d != v->d)
		return;		/* NaN: an empty cell */
	else
		num_pyrepr(v->d, tmp, sizeof(tmp));
	buf_adds(b, tmp);
}

void
coll_render(struct buf *b, const char *cell, size_t len, int k)
{
	struct cnum v;
	char tmp[40];

	if (len == 0 || cell[0] == 'z')
		return;
	if (k == K_FLOAT && cell[0] == 'i' && coll_num(cell, len, &v) == 0) {
		buf_adds(b, num_pyrepr(v.d, tmp, sizeof(tmp)));
		return;
	}
	if (cell[0] == 'l' || cell[0] == 'o') {
		/* list_to_tuple: a list prints as a tuple */
		pylit_field(b, cell + 1, len - 1);
		return;
	}
	buf_add(b, cell + 1, len - 1);
}

/* Skip blanks as Python's tokenizer does. */
static const char *
skipws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

/*
 * A blank to int(): ASCII's space, \t \n \v \f \r (not \x1c..\x1f,
 * which str.isspace() takes) and, above ASCII, str.isspace().
 */
static int
pyspace(unsigned long c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 || c == 0xa0 ||
	    c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
	    c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/* n hex digits at p[0..e) into *c; 0, or -1 when there are fewer. */
static int
hexn(const char *p, const char *e, int n, unsigned long *c)
{
	int i, d;

	if (e - p < n)
		return -1;
	for (*c = 0, i = 0; i < n; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f')
			d = (p[i] | 0x20) - 'a' + 10;
		else
			return -1;
		*c = *c * 16 + (unsigned long)d;
	}
	return 0;
}

/*
 * A string literal at p[0..e) as ast.literal_eval (json: JSON) reads
 * it: Python's prefixes u, r, b, rb and its quotes (JSON's "), its
 * escapes decoded (\\ \' \" \a \b \f \n \r \t \v, octal, \x, \u,
 * \U, a backslash-newline; JSON's \/ and \u with surrogate pairs).
 * Into t[0..*n) goes what int() reads of the text: each blank of
 * pyspace() a space, ASCII as it is.  The end of the literal, or NULL
 * when it is none, or when its text has a character
 * int() could not take or tl does not read: a backslash left in it
 * (an unknown escape), any other non-ASCII character (int() reads
 * every Unicode decimal digit; tl only 0-9), \N{name}, or more than
 * max - 1 characters.
 */
static const char *
pystring(const char *p, const char *e, int json, char *t, size_t max, size_t *n)
{
	const char *q, *end;
	unsigned long c, lo;
	int raw = 0, bytes = 0, quote, triple, k, len;

	for (q = p; !json && q < e && q - p < 2 && *q != '\0' &&
	    strchr("bBrRuU", *q) != NULL; q++) {
		if ((*q | 0x20) == 'r')
			raw++;
		else if ((*q | 0x20) == 'b')
			bytes++;
	}
	/* one of each at most, and u alone */
	if (q == e || (*q != '"' && (json || *q != '\'')) || raw > 1 || bytes > 1 ||
	    (q - p == 2 && raw + bytes != 2))
		return NULL;
	quote = *q;
	triple = !json && e - q >= 3 && q[1] == quote && q[2] == quote;
	q += triple ? 3 : 1;
	*n = 0;
	for (;;) {
		if (q == e)
			return NULL;
		if (*q == quote && (!triple || (e - q >= 3 && q[1] == quote &&
		    q[2] == quote)))
			break;
		c = (unsigned char)*q++;
		if (c == '\n' && !triple)
			return NULL;
		if (c == '\\' && !raw) {
			if (q == e)
				return NULL;
			c = (unsigned char)*q++;
			switch (c) {
			case '\n': if (json) return NULL; continue;
			case '\\': case '\'': case '"': break;
			case '/': if (!json) return NULL; break;
			case 'a': if (json) return NULL; c = 7; break;
			case 'b': c = 8; break;
			case 'f': c = 12; break;
			case 'n': c = 10; break;
			case 'r': c = 13; break;
			case 't': c = 9; break;
			case 'v': if (json) return NULL; c = 11; break;
			case 'x':
				if (json || hexn(q, e, 2, &c) < 0)
					return NULL;
				q += 2;
				break;
			case 'u': case 'U':
				len = c == 'u' ? 4 : 8;
				if ((json && len == 8) || bytes || hexn(q, e, len, &c) < 0 ||
				    c > 0x10ffff)
					return NULL;
				q += len;
				/* JSON: a surrogate pair is one character */
				if (json && c >= 0xd800 && c < 0xdc00 && e - q >= 6 &&
				    q[0] == '\\' && q[1] == 'u' && hexn(q + 2, e, 4, &lo) == 0 &&
				    lo >= 0xdc00 && lo < 0xe000) {
					c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
					q += 6;
				}
				break;
			default:
				if (json || c < '0' || c > '7')
					return NULL;	/* \N{...}, or a backslash left */
				c -= '0';
				for (k = 1; k < 3 && q < e && *q >= '0' && *q <= '7'; k++)
					c = c * 8 + (unsigned long)(*q++ - '0');
				break;
			}
		} else if (c == '\\') {
			return NULL;	/* raw: the backslash stays, int() fails */
		} else if (c >= 0x80) {
			/* the source's UTF-8 (bytes literals hold ASCII only) */
			len = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : -1;
			if (bytes || len < 0 || e - q < len)
				return NULL;
			for (c &= 0x3f >> len, k = 0; k < len; k++) {
				if ((q[k] & 0xc0) != 0x80)
					return NULL;
				c = c << 6 | (unsigned char)(q[k] & 0x3f);
			}
			q += len;
		}
		if (pyspace(c) && (!bytes || c < 0x80))
			c = ' ';
		else if (c >= 0x80)
			return NULL;
		if (*n + 1 >= max)
			return NULL;
		t[(*n)++] = (char)c;
	}
	end = q + (triple ? 3 : 1);
	t[*n] = '\0';
	return end;
}

/*
 * Python's digits of base b at p[0..e) (one '_' between two digits
 * allowed) into *v; the end, or NULL if there are none or they
 * overflow.
 */
static const char *
pydigits(const char *p, const char *e, int b, int64_t *v)
{
	const char *q = p;
	int d;

	for (*v = 0; q < e; q++) {
		if (*q == '_' && q > p && q + 1 < e && q[-1] != '_')
			continue;
		if (*q >= '0' && *q <= '9')
			d = *q - '0';
		else if ((*q | 0x20) >= 'a' && (*q | 0x20) <= 'f')
			d = (*q | 0x20) - 'a' + 10;
		else
			break;
		if (d >= b)
			break;
		if (*v > (INT64_MAX - d) / b)
			return NULL;
		*v = *v * b + d;
	}
	if (q == p || q[-1] == '_')
		return NULL;
	return q;
}

/*
 * int() of one number of a literal that ast.literal_eval reads, at
 * p[0..e): an optional sign, then an integer (decimal, 0x, 0o or 0b,
 * with '_' between digits: exact), a float (cut toward zero), or
 * True or False (true or false in JSON).  The end, or NULL.
 */
static const char *
pyint(const char *p, const char *e, int json, int64_t *v)
{
	static const char fch[] = "0123456789.eE+-_";
	const char *q, *c;
	char tmp[64], stmp[128], *end;
	size_t l, k;
	double d;
	int neg = 0, b = 0, sign = 0;

	if (p < e && (*p == '-' || *p == '+')) {
		neg = *p == '-';
		sign = 1;
		p = skipws(p + 1, e);
	}
	/* a string: int() of its text ("5", " -1_0 ", '\x35') */
	if (p < e && (*p == '"' || (!json && (*p == '\'' ||
	    (*p != '\0' && strchr("bBrRuU", *p) != NULL))))) {
		if (sign || (q = pystring(p, e, json, stmp, sizeof(stmp), &l)) == NULL)
			return NULL;
		for (c = stmp; *c == ' '; c++)
			;
		for (e = stmp + l; e > c && e[-1] == ' '; e--)
			;
		if (c < e && (*c == '-' || *c == '+'))
			neg = *c++ == '-';
		if (c == e || pydigits(c, e, 10, v) != e)
			return NULL;
		if (neg)
			*v = -*v;
		return q;
	}
	if ((size_t)(e - p) >= 4 && memcmp(p, json ? "true" : "True", 4) == 0)
		q = p + 4, *v = 1;
	else if ((size_t)(e - p) >= 5 &&
	    memcmp(p, json ? "false" : "False", 5) == 0)
		q = p + 5, *v = 0;
	else
		q = NULL;
	if (q != NULL) {
		/* -True is no literal */
		if (neg || (q < e && (*q == '_' || isalnum((unsigned char)*q))))
			return NULL;
		return q;
	}
	if (e - p > 2 && p[0] == '0') {
		switch (p[1] | 0x20) {
		case 'x': b = 16; break;
		case 'o': b = 8; break;
		case 'b': b = 2; break;
		}
	}
	if (b) {
		if (p[2] == '_')	/* 0x_1f */
			p++;
		q = pydigits(p + 2, e, b, v);
	} else {
		/* a float if it has '.' or an exponent */
		for (l = 0; p + l < e && (isdigit((unsigned char)p[l]) ||
		    p[l] == '_'); l++)
			;
		if (p + l < e && (p[l] == '.' || (p[l] | 0x20) == 'e')) {
			for (l = k = 0; p + l < e && p[l] != '\0' &&
			    strchr(fch, p[l]) &&
			    k < sizeof(tmp) - 1; l++) {
				if ((p[l] == '+' || p[l] == '-') &&
				    (l == 0 || (p[l - 1] | 0x20) != 'e'))
					break;
				if (p[l] != '_')
					tmp[k++] = p[l];
				else if (l == 0 || !isdigit((unsigned char)p[l - 1]) ||
				    p + l + 1 == e ||
				    !isdigit((unsigned char)p[l + 1]))
					return NULL;	/* 1_e2, 1__0.5 */
			}
			tmp[k] = '\0';
			if (k == 0 || k == sizeof(tmp) - 1 || tmp[0] == 'e' ||
			    tmp[0] == 'E')
				return NULL;
			d = strtod(tmp, &end);
			if (*end != '\0' || !isfinite(d) || d >= 9.2e18 ||
			    d <= -9.2e18)
				return NULL;
			q = p + l;
			if (q < e && (*q == '_' || isalnum((unsigned char)*q) ||
			    *q == '.'))
				return NULL;
			*v = (int64_t)(neg ? -d : d);
			return q;
		}
		/* 007 is no Python 3 integer; 000 is */
		if (l > 1 && p[0] == '0' && strspn(p, "0_") < l)
			return NULL;
		q = pydigits(p, e, 10, v);
	}
	if (q == NULL || (q < e && (*q == '_' || isalnum((unsigned char)*q) ||
	    *q == '.')))
		return NULL;
	if (neg)
		*v = -*v;
	return q;
}

/*
 * The numbers of a list or tuple literal p[0..e) into *v, as
 * [int(x) for x in ast.literal_eval(...)] reads them (JSON's if json).
 * -1 if it is not one.
 */
static long
intlist(const char *p, const char *e, int json, int64_t **v, size_t *cap)
{
	char close;
	const char *q;
	size_t n = 0;
	int64_t x;
	int comma = 0;

	p = skipws(p, e);
	if (p == e || (*p != '[' && *p != '('))
		return -1;
	close = *p == '[' ? ']' : ')';
	p = skipws(p + 1, e);
	while (p < e && *p != close) {
		if ((q = pyint(p, e, json, &x)) == NULL)
			return -1;
		tl_grow((void **)v, cap, n + 1, sizeof(**v));
		(*v)[n++] = x;
		p = skipws(q, e);
		comma = 0;
		if (p < e && *p == ',') {
			comma = 1;
			p = skipws(p + 1, e);
		} else if (p < e && *p != close)
			return -1;
	}
	if (p == e || skipws(p + 1, e) != e)
		return -1;
	/* (5) is 5, no tuple; (5,) is one */
	if (close == ')' && n == 1 && !comma)
		return -1;
	return (long)n;
}

enum { LIT_NONE, LIT_SEQ, LIT_OTHER };

/*
 * One Python literal that ast.literal_eval reads, at p[0..e): a number,
 * a string, None, True, False, or a list, tuple, set or dict of them.
 * Its end (*kind LIT_SEQ for a list or tuple, else LIT_OTHER), or NULL.
 * Complex numbers and string concatenation are not read.
 */
static const char *
pyliteral(const char *p, const char *e, int depth, int *kind)
{
	const char *q;
	char open, close, quote;
	int64_t x;
	int k, n, pairs, comma;

	p = skipws(p, e);
	if (p == e || depth > 100)
		return NULL;
	*kind = LIT_OTHER;
	if (*p == '[' || *p == '(' || *p == '{') {
		open = *p;
		close = open == '[' ? ']' : open == '(' ? ')' : '}';
		p = skipws(p + 1, e);
		n = 0;
		pairs = -1;
		comma = 0;
		while (p < e && *p != close) {
			if ((p = pyliteral(p, e, depth + 1, &k)) == NULL)
				return NULL;
			p = skipws(p, e);
			if (open == '{') {
				/* all k: v, or none */
				if ((p < e && *p == ':') != (pairs == 1) &&
				    pairs != -1)
					return NULL;
				pairs = p < e && *p == ':';
				if (pairs && (p = pyliteral(p + 1, e, depth + 1,
				    &k)) == NULL)
					return NULL;
				p = skipws(p, e);
			}
			n++;
			comma = 0;
			if (p < e && *p == ',') {
				comma = 1;
				p = skipws(p + 1, e);
			} else if (p < e && *p != close)
				return NULL;
		}
		if (p == e)
			return NULL;
		if (open == '[' || (open == '(' && (n != 1 || comma)))
			*kind = LIT_SEQ;
		else if (open == '(')
			*kind = k;	/* (x) is x */
		return p + 1;
	}
	/* strings: a prefix of b, r, u (not f), then quotes */
	for (q = p; q < e && q - p < 2 && strchr("bBrRuU", *q) != NULL; q++)
		;
	if (q < e && (*q == '\'' || *q == '"')) {
		quote = *q;
		if (e - q >= 3 && q[1] == quote && q[2] == quote) {
			for (q += 3; q + 2 < e; q++) {
				if (*q == '\\') {
					q++;
					continue;
				}
				if (q[0] == quote && q[1] == quote &&
				    q[2] == quote)
					return q + 3;
			}
			return NULL;
		}
		for (q++; q < e && *q != quote && *q != '\n'; q++)
			if (*q == '\\' && q + 1 < e)
				q++;
		return q < e && *q == quote ? q + 1 : NULL;
	}
	if ((size_t)(e - p) >= 4 && memcmp(p, "None", 4) == 0 &&
	    (p + 4 == e || !(isalnum((unsigned char)p[4]) || p[4] == '_')))
		return p + 4;
	return pyint(p, e, 0, &x);
}

long
coll_splits(const char *cell, size_t len, int64_t **v, size_t *cap)
{
	char *t;
	long n;

	if (len < 1 || (cell[0] != 'l' && cell[0] != 's'))
		return -1;
	t = tl_strndup(cell + 1, len - 1);
	len = rec_unescape(t, len - 1);
	/* a string is read only when it starts with '[' */
	if (cell[0] == 's' && *skipws(t, t + len) != '[')
		n = -1;
	else
		n = intlist(t, t + len, cell[0] == 'l', v, cap);
	free(t);
	return n;
}

size_t
coll_pgranks(const char *cell, size_t len, int64_t **v, size_t *cap)
{
	const char *p, *e;
	char *t, *u;
	long n;
	size_t k = 0;
	int kind, sub;

	if (len < 1 || (cell[0] != 'l' && cell[0] != 's'))
		return 0;
	t = tl_strndup(cell + 1, len - 1);
	len = rec_unescape(t, len - 1);
	n = intlist(t, t + len, cell[0] == 'l', v, cap);
	if (n >= 0 || cell[0] == 'l') {
		free(t);
		return n > 0 ? (size_t)n : 0;
	}
	/*
	 * Another literal: 5, '0,1', {0, 1} are no list (unknown); a bare
	 * tuple 0, 1 is one.  Not a literal: \d+ runs.
	 */
	e = t + len;
	if ((p = pyliteral(t, e, 0, &kind)) != NULL) {
		p = skipws(p, e);
		while (p < e && *p == ',') {
			kind = LIT_SEQ;
			p = skipws(p + 1, e);
			if (p == e)
				break;
			if ((p = pyliteral(p, e, 0, &sub)) == NULL) {
				kind = LIT_NONE;
				p = t;
				break;
			}
			p = skipws(p, e);
		}
		if (p == e && kind == LIT_OTHER) {
			free(t);
			return 0;
		}
		if (p == e && kind == LIT_SEQ && *skipws(t, e) != '[' &&
		    *skipws(t, e) != '(') {
			u = tl_malloc(len + 3);
			u[0] = '(';
			memcpy(u + 1, t, len);
			u[len + 1] = ')';
			u[len + 2] = '\0';
			n = intlist(u, u + len + 2, 0, v, cap);
			free(u);
			if (n >= 0) {
				free(t);
				return (size_t)n;
			}
		}
	}
	/* literal_eval or int() failed: \d+ runs */
	for (p = t; p < e;) {
		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		tl_grow((void **)v, cap, k + 1, sizeof(**v));
		(*v)[k] = 0;
		for (; p < e && *p >= '0' && *p <= '9'; p++)
			if ((*v)[k] < INT64_MAX / 10 - 10)
				(*v)[k] = (*v)[k] * 10 + (*p - '0');
		k++;
	}
	free(t);
	return k;
}

/*
 * The key of a JSON list of numbers (true and false are 1 and 0), which
 * pandas holds as a tuple: before any text, as its sort of a mixed
 * column puts them, and in tuple order: item by item, a shorter one
 * first.  -1, nothing added, for another list.
 */
static int
tuplekey(struct buf *b, const char *p, const char *e)
{
	size_t start = b->len, l;
	char tmp[64], *end;
	double d;

	p = skipws(p, e);
	if (p == e || *p++ != '[')
		return -1;
	buf_addc(b, 'q');
	for (p = skipws(p, e); p < e && *p != ']';) {
		if ((size_t)(e - p) >= 4 && memcmp(p, "true", 4) == 0)
			d = 1, l = 4;
		else if ((size_t)(e - p) >= 5 && memcmp(p, "false", 5) == 0)
			d = 0, l = 5;
		else {
			for (l = 0; p + l < e && l < sizeof(tmp) - 1 &&
			    p[l] != '\0' && strchr("+-0123456789.eE", p[l]);
			    l++)
				tmp[l] = p[l];
			tmp[l] = '\0';
			if (l == 0 || (d = strtod(tmp, &end), *end != '\0'))
				goto bad;
		}
		buf_addc(b, 0x02);
		key_double(b, d);
		p = skipws(p + l, e);
		if (p < e && *p == ',')
			p = skipws(p + 1, e);
		else if (p < e && *p != ']')
			goto bad;
	}
	if (p == e || skipws(p + 1, e) != e)
		goto bad;
	buf_addc(b, 0x01);
	return 0;
bad:
	b->len = start;
	return -1;
}

void
coll_sortkey(struct buf *b, const char *cell, size_t len)
{
	struct cnum v;
	char *t;
	size_t i, n;

	if (len == 0 || cell[0] == 'z') {
		buf_addc(b, 'z');
		return;
	}
	if (coll_num(cell, len, &v) == 0) {
		buf_addc(b, 'n');
		key_double(b, v.d);
		return;
	}
	t = tl_strndup(cell + 1, len - 1);
	n = rec_unescape(t, len - 1);
	if (cell[0] == 'l' && tuplekey(b, t, t + n) == 0) {
		free(t);
		return;
	}
	buf_addc(b, 's');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];

		if (c < 0x0e) {
			buf_addc(b, 0x01);
			buf_addc(b, (char)(0x0e + c));
		} else
			buf_addc(b, (char)c);
	}
	buf_add(b, "\x01\x01", 2);
	free(t);
}
