/* See LICENSE file for copyright and license details. */
/*
 * keys.c: numbers and sort keys appended to a buf.  Keys are fixed
 * width, or self-delimiting, so that sort(1) with LC_ALL=C, comparing
 * bytes, orders them as their values.
 */
#include <stdio.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"

void
buf_num(struct buf *b, long long v)
{
	char t[24], *p = num_lld(v, t + sizeof(t));

	buf_add(b, p, (size_t)(t + sizeof(t) - 1 - p));
}

void
buf_hex(struct buf *b, unsigned long long v, int width)
{
	static const char hex[] = "0123456789abcdef";
	char t[16];
	int i;

	for (i = width - 1; i >= 0; i--, v >>= 4)
		t[i] = hex[v & 15];
	buf_add(b, t, (size_t)width);
}

uint64_t
key_dbits(double d)
{
	uint64_t u;

	if (d == 0)
		d = 0;		/* -0.0 equals 0.0 */
	memcpy(&u, &d, sizeof(u));
	/* (the sign bit set for a positive d, every bit flipped for a
	 * negative one: unsigned order is the doubles' order) */
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

void
key_double(struct buf *b, double d)
{
	buf_hex(b, key_dbits(d), 16);
}

void
key_uid(struct buf *b, long long uid)
{
	if (uid > 0xffffffffLL)
		tl_die("UID %lld does not fit the 8-digit sort key", uid);
	buf_hex(b, (unsigned long long)uid, UIDW);
}

void
key_dec(struct buf *b, const char *s)
{
	char k[1 + 24 + 9], *p = k + 1;
	const char *d, *f;
	size_t ni, nf, i;
	int neg = *s == '-', zero = 1;

	if (neg)
		s++;
	for (d = s; *d >= '0' && *d <= '9'; d++)
		;
	ni = (size_t)(d - s);
	nf = 0;
	f = *d == '.' ? d + 1 : d;
	while (f[nf] >= '0' && f[nf] <= '9')
		nf++;
	while (ni > 0 && *s == '0')
		s++, ni--;
	if (ni > 24)
		tl_die("%.40s: a number too long for a sort key", s);
	memset(p, '0', 24 + 9);
	memcpy(p + 24 - ni, s, ni);
	memcpy(p + 24, f, MIN(nf, 9));
	for (i = 0; i < 24 + 9; i++)
		zero &= p[i] == '0';
	/* (a negative number's digits complemented: it sorts below) */
	if (neg && !zero) {
		k[0] = '0';
		for (i = 0; i < 24 + 9; i++)
			p[i] = (char)('9' - (p[i] - '0'));
	} else
		k[0] = '1';
	buf_add(b, k, sizeof(k));
}

void
key_int(struct buf *b, long long v)
{
	char t[24];

	snprintf(t, sizeof(t), "%012lld", v < 0 ? 0 : v);
	buf_adds(b, t);
}
