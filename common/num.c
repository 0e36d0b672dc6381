/* See LICENSE file for copyright and license details. */
/*
 * Numbers.  Trace times are decimal microseconds with up to three
 * decimals; they are parsed exactly (integer nanoseconds) or as an IEEE
 * double, the way TraceLens's Python does, and each filter says which
 * it uses.  Output follows Python's repr(float), so tl's CSV cells read
 * like TraceLens's: 0.000605184, 1e-05, 220.0.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

int
num_us_to_ns(const char *s, size_t len, int64_t *ns)
{
	const char *p = s, *end = s + len;
	int neg = 0, ndig = 0, frac = 0, indot = 0, eneg = 0;
	long exp = 0;
	__int128 v = 0;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			if (v > (__int128)1 << 100)
				return -1;
			v = v * 10 + (*p - '0');
			ndig++;
			if (indot)
				frac++;
		} else if (*p == '.' && !indot) {
			indot = 1;
		} else
			break;
	}
	if (ndig == 0)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		if (p == end)
			return -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if ((exp = exp * 10 + (*p - '0')) > 400)
				return -1;
		if (eneg)
			exp = -exp;
	}
	if (p != end)
		return -1;
	/* value = v * 10^(exp - frac) us = v * 10^(exp - frac + 3) ns */
	exp = exp - frac + 3;
	for (; exp > 0; exp--) {
		v *= 10;
		if (v > INT64_MAX)
			return -1;
	}
	for (; exp < 0; exp++) {
		if (v % 10 != 0)
			return -1;
		v /= 10;
	}
	if (v > INT64_MAX)
		return -1;
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int
num_double(const char *s, size_t len, double *d)
{
	char buf[64], *end;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*d = strtod(buf, &end);
	if (*end != '\0' || end == buf)
		return -1;
	return 0;
}

int
num_int64(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;
	long long x;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (*end != '\0' || errno == ERANGE)
		return -1;
	*v = x;
	return 0;
}

/*
 * Python's repr(float): the shortest digit string that reads back as
 * the same double, in positional notation when the decimal exponent
 * lies in [-4, 16) and in scientific notation otherwise.
 */
char *
num_pyrepr(double d, char *buf, size_t size)
{
	char dig[40], *p, *q;
	int prec, e, nd, i, pos;
	char *w = buf;

	if (isnan(d)) {
		snprintf(buf, size, "nan");
		return buf;
	}
	if (isinf(d)) {
		snprintf(buf, size, d < 0 ? "-inf" : "inf");
		return buf;
	}
	if (d == 0) {
		snprintf(buf, size, signbit(d) ? "-0.0" : "0.0");
		return buf;
	}
	/*
	 * If p digits after the point read back as d, so do p + 1: bisect
	 * for the shortest, after the common case of needing all 17.
	 */
	snprintf(dig, sizeof(dig), "%.*e", 15, d);
	if (strtod(dig, NULL) != d)
		snprintf(dig, sizeof(dig), "%.*e", 16, d);
	else {
		int lo = 0, hi = 15;

		while (lo < hi) {
			prec = (lo + hi) / 2;
			snprintf(dig, sizeof(dig), "%.*e", prec, d);
			if (strtod(dig, NULL) == d)
				hi = prec;
			else
				lo = prec + 1;
		}
		snprintf(dig, sizeof(dig), "%.*e", lo, d);
	}
	/* dig is "[-]D.DDDDe[+-]XX": split into digits and exponent */
	p = dig;
	if (*p == '-') {
		*w++ = '-';
		p++;
	}
	q = strchr(p, 'e');
	e = atoi(q + 1);
	*q = '\0';
	nd = 0;
	{
		char digits[40];

		for (; *p; p++)
			if (*p != '.')
				digits[nd++] = *p;
		while (nd > 1 && digits[nd - 1] == '0')
			nd--;
		digits[nd] = '\0';
		pos = e + 1;	/* digits before the decimal point */
		if (e >= -4 && e < 16) {
			if (pos <= 0) {
				*w++ = '0';
				*w++ = '.';
				for (i = 0; i < -pos; i++)
					*w++ = '0';
				for (i = 0; i < nd; i++)
					*w++ = digits[i];
			} else {
				for (i = 0; i < pos; i++)
					*w++ = i < nd ? digits[i] : '0';
				*w++ = '.';
				if (nd > pos)
					for (i = pos; i < nd; i++)
						*w++ = digits[i];
				else
					*w++ = '0';
			}
			*w = '\0';
		} else {
			*w++ = digits[0];
			if (nd > 1) {
				*w++ = '.';
				for (i = 1; i < nd; i++)
					*w++ = digits[i];
			}
			snprintf(w, size - (size_t)(w - buf), "e%c%02d",
			    e < 0 ? '-' : '+', e < 0 ? -e : e);
		}
	}
	return buf;
}

char *
num_ns_to_us(int64_t ns, char *buf, size_t size)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	int n;

	n = snprintf(buf, size, "%s%llu", ns < 0 ? "-" : "",
	    (unsigned long long)(a / 1000));
	if (a % 1000 != 0 && (size_t)n < size) {
		snprintf(buf + n, size - (size_t)n, ".%03u", (unsigned)(a % 1000));
		n += 4;
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
	}
	return buf;
}
