/* See LICENSE file for copyright and license details. */
/*
 * The scalar lexer of jlex.h.  Like the scanners that call it, it is a
 * resumable state machine: each state is a label, and when the bytes
 * run out the label to resume at is saved in l->state.
 */
#include <stddef.h>

#include "jlex.h"


/* Steps inside a number (l->sub). */
enum { N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

const unsigned char jlex_cls[256] = {
	2, 2, 2, 2, 2, 2, 2, 2, 2, 11, 11, 2, 2, 11, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	9, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

#define ISDIGIT(c) (jlex_cls[(c)] & JL_DIGIT)
#define NEED(st) do { if (p == end) { l->state = (st); goto more; } } while (0)
#define FAIL(msg) do { l->err = (msg); *pp = p; return JL_FAIL; } while (0)

int
jlex_utf8lead(int c, int *lo, int *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf)
		return 1;
	if (c >= 0xe0 && c <= 0xef) {
		if (c == 0xe0)
			*lo = 0xa0;
		else if (c == 0xed)
			*hi = 0x9f;	/* no surrogates */
		return 2;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (c == 0xf0)
			*lo = 0x90;
		else if (c == 0xf4)
			*hi = 0x8f;
		return 3;
	}
	return 0;
}

void
jlex_scalar(struct jlex *l, int c)
{
	l->exp = 0;
	switch (c) {
	case '-':
		l->state = JL_S_NUM;
		l->sub = N_MINUS;
		break;
	case '0':
		l->state = JL_S_NUM;
		l->sub = N_ZERO;
		break;
	case 't':
	case 'f':
	case 'n':
		l->state = JL_S_LIT;
		l->lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
		l->sub = 1;
		break;
	default:
		l->state = JL_S_NUM;
		l->sub = N_INT;
	}
}

int
jlex_step(struct jlex *l, const unsigned char **pp, const unsigned char *end)
{
	const unsigned char *p = *pp;
	int c, v;

	switch (l->state) {
	case JL_S_STR: goto str;
	case JL_S_ESC: goto esc;
	case JL_S_UHEX: goto uhex;
	case JL_S_SURR1: goto surr1;
	case JL_S_SURR2: goto surr2;
	case JL_S_UTF8: goto utf8cont;
	case JL_S_NUM: goto num;
	default: goto lit;
	}

str:
	p = jlex_strscan(p, end);
	NEED(JL_S_STR);
	c = *p;
	if (c == '"') {
		*pp = p + 1;
		return JL_DONE;
	}
	if (c == '\\') {
		p++;
		goto esc;
	}
	if (c < 0x20)
		FAIL("control character in string");
	if ((l->need = jlex_utf8lead(c, &l->lo, &l->hi)) == 0)
		FAIL("invalid UTF-8 in string");
	p++;
utf8cont:
	while (l->need > 0) {
		NEED(JL_S_UTF8);
		if (*p < l->lo || *p > l->hi)
			FAIL("invalid UTF-8 in string");
		l->lo = 0x80;
		l->hi = 0xbf;
		l->need--;
		p++;
	}
	goto str;

esc:
	NEED(JL_S_ESC);
	switch (*p) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
	case 't':
		p++;
		l->esc = 1;
		goto str;
	case 'u':
		l->esc = 1;
		p++;
		l->sub = 0;
		l->hex = 0;
		goto uhex;
	default:
		FAIL("invalid escape in string");
	}

uhex:
	while (l->sub < 4) {
		NEED(JL_S_UHEX);
		if ((v = jlex_hexval(*p)) < 0)
			FAIL("invalid \\u escape in string");
		l->hex = l->hex << 4 | (unsigned)v;
		l->sub++;
		p++;
	}
	/*
	 * A surrogate without its other half is valid JSON to Python,
	 * read as U+FFFD (jstr_decode) and counted: nlone.
	 */
	if (l->hisurr) {
		l->hisurr = 0;
		if (l->hex >= 0xdc00 && l->hex <= 0xdfff)
			goto str;
		l->nlone++;	/* the high half before; this one as it is */
	}
	if (l->hex >= 0xdc00 && l->hex <= 0xdfff) {
		l->nlone++;
		goto str;
	}
	if (l->hex < 0xd800 || l->hex > 0xdbff)
		goto str;
	l->hisurr = 1;
surr1:
	NEED(JL_S_SURR1);
	if (*p != '\\') {
		l->hisurr = 0;
		l->nlone++;
		goto str;
	}
	p++;
surr2:
	NEED(JL_S_SURR2);
	if (*p != 'u') {
		/* Another escape after the lone high half. */
		l->hisurr = 0;
		l->nlone++;
		goto esc;
	}
	p++;
	l->sub = 0;
	l->hex = 0;
	goto uhex;

num:
	switch (l->sub) {
	case N_MINUS: goto nminus;
	case N_ZERO: goto nzero;
	case N_INT: goto nint;
	case N_DOT: goto ndot;
	case N_FRAC: goto nfrac;
	case N_E: goto ne;
	case N_ESIGN: goto nesign;
	default: goto nexp;
	}
nminus:
	NEED(JL_S_NUM);
	if (*p == '0') {
		p++;
		l->sub = N_ZERO;
		goto nzero;
	}
	if (!ISDIGIT(*p))
		FAIL(*p == 'I' ? NOTJSON : "invalid number");
	p++;
	l->sub = N_INT;
nint:
	while (p < end && ISDIGIT(*p))
		p++;
nzero:
	NEED(JL_S_NUM);
	if (*p == '.') {
		p++;
		l->sub = N_DOT;
		goto ndot;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		l->sub = N_E;
		goto ne;
	}
	goto nend;
ndot:
	NEED(JL_S_NUM);
	if (!ISDIGIT(*p))
		FAIL("invalid number");
	p++;
	l->sub = N_FRAC;
nfrac:
	while (p < end && ISDIGIT(*p))
		p++;
	NEED(JL_S_NUM);
	if (*p == 'e' || *p == 'E') {
		p++;
		l->sub = N_E;
		goto ne;
	}
	goto nend;
ne:
	NEED(JL_S_NUM);
	if (*p == '+' || *p == '-') {
		p++;
		l->sub = N_ESIGN;
		goto nesign;
	}
	if (!ISDIGIT(*p))
		FAIL("invalid number");
	p++;
	l->sub = N_EXP;
	goto nexp;
nesign:
	NEED(JL_S_NUM);
	if (!ISDIGIT(*p))
		FAIL("invalid number");
	p++;
	l->sub = N_EXP;
nexp:
	while (p < end && ISDIGIT(*p))
		p++;
	NEED(JL_S_NUM);
nend:
	if (!(jlex_cls[*p] & JL_DELIM))
		FAIL("invalid number");
	l->exp = l->sub == N_EXP;
	*pp = p;
	return JL_DONE;

lit:
	while (l->lit[l->sub] != '\0') {
		NEED(JL_S_LIT);
		if (*p != (unsigned char)l->lit[l->sub])
			FAIL("invalid literal");
		p++;
		l->sub++;
	}
	NEED(JL_S_LIT);
	if (!(jlex_cls[*p] & JL_DELIM))
		FAIL("invalid literal");
	*pp = p;
	return JL_DONE;

more:
	*pp = p;
	return JL_MORE;
}
