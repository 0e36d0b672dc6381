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

/*
 * num_us_to_ns's general case: any number of digits, an exponent.
 */
static int
us_to_ns_wide(const char *s, size_t len, int64_t *ns)
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

/* Are the 8 bytes at p all decimal digits? */
static inline int
eight_digits(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return ((v + 0x4646464646464646ULL) | (v - 0x3030303030303030ULL)) &
	    0x8080808080808080ULL ? 0 : 1;
}

/* The value of the 8 decimal digits at p: on a little-endian machine
 * by three multiplications (the method of fast_float), else one by
 * one. */
static inline uint64_t
eight_value(const char *p)
{
	uint64_t v = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, 8);
	v -= 0x3030303030303030ULL;
	v = v * 10 + (v >> 8);
	v = ((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32)) +
	    ((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32))) >> 32;
	return (uint32_t)v;
#else
	for (int i = 0; i < 8; i++)
		v = v * 10 + (uint64_t)(p[i] - '0');
	return v;
#endif
}

/*
 * Every ts and dur of a trace is read here, most of them plain decimals
 * of up to 18 digits (1736277483573523.123): those are done in 64 bits,
 * the same value and the same refusals as us_to_ns_wide, which takes
 * the others.
 */
int
num_us_to_ns(const char *s, size_t len, int64_t *ns)
{
	static const uint64_t p10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
		100000000, 1000000000, 10000000000, 100000000000,
		1000000000000, 10000000000000, 100000000000000,
		1000000000000000, 10000000000000000, 100000000000000000,
		1000000000000000000u
	};
	const char *p = s, *end = s + len;
	int neg = 0, ndig = 0, frac = 0, indot = 0;
	uint64_t v = 0, m;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	/* (a ts has 13 whole digits or more: the first 8 at once) */
	if (end - p >= 8 && eight_digits(p)) {
		v = eight_value(p);
		ndig = 8;
		p += 8;
	}
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			if (++ndig > 18)
				return us_to_ns_wide(s, len, ns);
			v = v * 10 + (uint64_t)(*p - '0');
			frac += indot;
		} else if (*p == '.' && !indot)
			indot = 1;
		else
			return us_to_ns_wide(s, len, ns);
	}
	if (ndig == 0)
		return -1;
	/* value = v * 10^(3 - frac) ns, frac <= 18 */
	if (frac <= 3) {
		m = p10[3 - frac];
		if (v > (uint64_t)INT64_MAX / m)
			return -1;
		v *= m;
	} else {
		m = p10[frac - 3];
		if (v % m != 0)
			return -1;
		v /= m;
	}
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/*
 * The sign of m / p - h * 2^e, for the odd h of a midpoint between two
 * doubles: exact, in 128 bits (the callers' m, p and e keep both sides
 * below 2^127).
 */
static int
midcmp(uint64_t m, uint64_t p, uint64_t h, int e)
{
	unsigned __int128 a = m, b = (unsigned __int128)h * p;

	if (e < 0)
		a <<= -e;
	else
		b <<= e;
	return a < b ? -1 : a > b;
}

/*
 * m / 10^k correctly rounded, as strtod rounds it (to nearest, ties to
 * even), for 0 < m < 10^19 and 0 < k <= 19: the quotient in doubles is
 * within an ulp or two, and the midpoints on either side of it, compared
 * exactly with m / 10^k, say which double is nearest.  -1: not settled
 * (never seen; the caller falls back to strtod).
 */
static int
divround(uint64_t m, int k, double *d)
{
	static const uint64_t p10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
		100000000, 1000000000, 10000000000, 100000000000,
		1000000000000, 10000000000000, 100000000000000,
		1000000000000000, 10000000000000000, 100000000000000000,
		1000000000000000000u, 10000000000000000000u
	};
	uint64_t p = p10[k], mm;
	double c = (double)m / (double)p;
	int i, e, s;

	for (i = 0; i < 4; i++) {
		/* c = mm * 2^e, mm of 53 bits */
		mm = (uint64_t)ldexp(frexp(c, &e), 53);
		e -= 53;
		s = midcmp(m, p, 2 * mm + 1, e - 1);
		if (s > 0 || (s == 0 && (mm & 1))) {
			c = nextafter(c, INFINITY);
			continue;
		}
		/* (below a power of two, the next double down is half as far) */
		if (mm == (uint64_t)1 << 52)
			s = midcmp(m, p, ((uint64_t)1 << 54) - 1, e - 2);
		else
			s = midcmp(m, p, 2 * mm - 1, e - 1);
		if (s < 0 || (s == 0 && (mm & 1))) {
			c = nextafter(c, 0);
			continue;
		}
		*d = c;
		return 0;
	}
	return -1;
}

int
num_double(const char *s, size_t len, double *d)
{
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19
	};
	char buf[64], *end;
	uint64_t m = 0;
	size_t i = 0;
	int nd = 0, frac = -1;

	/*
	 * Most fields are plain decimals (2.278, 0.30000000000000004): when
	 * m is at most 2^53 (all of 15 digits, and the 16 of a trace's ts
	 * in us, 1.4e15), m and 10^frac (up to 10^19: 5^19 is below 2^53)
	 * are exact doubles and their quotient is rounded once, so it is the
	 * correctly rounded value strtod gives, without strtod's cost;
	 * with more (repr's doubles, epoch times in ns), divround finds
	 * that value exactly.
	 */
	if (len > 0 && s[0] == '-')
		i = 1;
	for (; i < len && nd <= 19; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			m = m * 10 + (uint64_t)(s[i] - '0');
			nd++;
			if (frac >= 0)
				frac++;
		} else if (s[i] == '.' && frac < 0)
			frac = 0;
		else
			break;
	}
	if (i == len && nd > 0 && nd <= 19 && m <= (uint64_t)1 << 53) {
		*d = frac > 0 ? (double)m / p10[frac] : (double)m;
		if (s[0] == '-')
			*d = -*d;
		return 0;
	}
	if (i == len && nd > 15 && nd <= 19) {
		/* (a whole m is rounded once, by the conversion) */
		if (m == 0 || frac <= 0)
			*d = (double)m;
		else if (divround(m, frac, d) < 0)
			goto slow;
		if (s[0] == '-')
			*d = -*d;
		return 0;
	}
slow:
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

/*
 * s[0..len), an optional minus and 1 to 19 digits (which an unsigned
 * 64-bit sum holds), read by hand into *v: 0; -1 out of int64's range,
 * as strtoll's ERANGE; 1 when it is not of that form (the caller
 * decides).  The nanosecond clocks of rocprofv3: strtoll's cost twice
 * a record.
 */
static int
digits64(const char *s, size_t len, int64_t *v)
{
	size_t k = len > 0 && s[0] == '-';
	uint64_t u = 0;

	if (len == k || len - k > 19)
		return 1;
	for (; k < len && s[k] >= '0' && s[k] <= '9'; k++)
		u = u * 10 + (unsigned)(s[k] - '0');
	if (k < len)
		return 1;
	if (s[0] != '-') {
		if (u > (uint64_t)INT64_MAX)
			return -1;
		*v = (int64_t)u;
	} else if (u > (uint64_t)INT64_MAX + 1)
		return -1;
	else
		*v = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
	return 0;
}

int
num_int64(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;
	long long x;
	int r;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	if ((r = digits64(s, len, v)) != 1)
		return r;
	/* (a plus sign, leading blanks, 20 digits or more: strtoll's) */
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (*end != '\0' || errno == ERANGE)
		return -1;
	*v = x;
	return 0;
}

char *
num_lld(long long v, char *end)
{
	/* (two digits a division: the tree's records are mostly numbers) */
	static const char d2[] =
	    "00010203040506070809101112131415161718192021222324252627282930"
	    "31323334353637383940414243444546474849505152535455565758596061"
	    "6263646566676869707172737475767778798081828384858687888990919293"
	    "949596979899";
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
	    (unsigned long long)v;
	char *p = end - 1;

	*p = '\0';
	while (u >= 100) {
		p -= 2;
		memcpy(p, d2 + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, d2 + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	return p;
}

int
num_jsonint(const char *s, size_t len, int64_t *v)
{
	size_t i = len > 0 && s[0] == '-';
	int r;

	/* (one scan for the short ones, nearly all) */
	if ((r = digits64(s, len, v)) != 1)
		return r;
	if (i == len)
		return -1;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	return num_int64(s, len, v);
}

int
num_isint(const char *s, size_t len)
{
	int64_t v;

	return num_jsonint(s, len, &v) == 0;
}

char *
num_pyint(double d, char *buf, size_t size)
{
	/* (+ 0.0: no -0) */
	snprintf(buf, size, "%.0f", d + 0.0);
	return buf;
}

/* g[0..n) cut there and one unit up into out, exponent e into *ne. */
static void
unitup(const char *g, int e, int n, char *out, int *ne)
{
	int i;

	memcpy(out, g, (size_t)n);
	*ne = e;
	for (i = n - 1; i >= 0 && out[i] == '9'; i--)
		out[i] = '0';
	if (i >= 0)
		out[i]++;
	else {
		/* 99.9 became 100: one digit more in front */
		out[0] = '1';
		(*ne)++;
	}
}

/*
 * The n significant digits (1 <= n < 17) of |d| correctly rounded,
 * from its 17 digits g (correctly rounded too) and their exponent e:
 * into out, with the exponent they take in *ne.  Rounding g again is
 * rounding d, except when the digits cut off are exactly 5000...: g
 * may then have been rounded up to the halfway point, and only printf
 * knows.
 */
static void
rdigits(double d, const char *g, int e, int n, char *out, int *ne)
{
	int i, nz = 0;

	for (i = n + 1; i < 17; i++)
		nz |= g[i] != '0';
	if (g[n] == '5' && !nz) {
		char t[40], *p = t;

		snprintf(t, sizeof(t), "%.*e", n - 1, fabs(d));
		for (i = 0; *p != 'e'; p++)
			if (*p != '.')
				out[i++] = *p;
		*ne = atoi(p + 1);
		return;
	}
	if (g[n] > '5' || (g[n] == '5' && nz))
		unitup(g, e, n, out, ne);
	else {
		memcpy(out, g, (size_t)n);
		*ne = e;
	}
}

/* Do the n digits dg with exponent e read back as |d|? */
static int
readsback(double d, const char *dg, int n, int e)
{
	char t[48], *p = t + n;
	int x = e - n + 1, k;
	uint64_t m = 0;
	double v;

	/* (the common exponents without strtod: divround rounds as it
	 * does) */
	for (k = 0; k < n; k++)
		m = m * 10 + (uint64_t)(dg[k] - '0');
	if (m > 0 && x < 0 && x >= -19 && divround(m, -x, &v) == 0)
		return v == fabs(d);
	if (x == 0)
		return (double)m == fabs(d);
	memcpy(t, dg, (size_t)n);
	*p++ = 'e';
	if (x < 0) {
		*p++ = '-';
		x = -x;
	}
	/* (no printf: this runs a few times per number written) */
	k = x >= 100 ? 3 : x >= 10 ? 2 : 1;
	p[k] = '\0';
	while (k-- > 0) {
		p[k] = (char)('0' + x % 10);
		x /= 10;
	}
	return strtod(t, NULL) == fabs(d);
}

/*
 * Some n digits read back as |d|: the nearest ones into out (exponent
 * *ne), else, for a power of two, whose interval of numbers that read
 * back as it reaches twice as far above as below, the ones just above.
 */
static int
fits(double d, const char *g, int ge, int n, char *out, int *ne)
{
	int e;

	rdigits(d, g, ge, n, out, ne);
	if (readsback(d, out, n, *ne))
		return 1;
	if (frexp(fabs(d), &e) != 0.5)
		return 0;
	/* the digits above d */
	unitup(g, ge, n, out, ne);
	return readsback(d, out, n, *ne);
}

/*
 * num_pyrepr's short path: the digits of a, in [1e-4, 1e15), when 15
 * significant digits or fewer read back as it (most of a trace's
 * numbers: times on the clock's ticks, sums of a few of them), written
 * at w as Python writes them (positional, here); its length, or 0 for
 * num_pyrepr's search.  The integer m nearest a * 10^k, k for 15
 * digits, is within one of the computed one's; if exactly one of the
 * three reads back (m / 10^k, both exact, is correctly rounded as
 * strtod is), no other integer does, and m without its trailing zeros
 * is the shortest: a shorter string times 10^k would be a second one.
 * Two or none: the search decides.
 */
static size_t
pyrepr_short(double a, char *w)
{
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18
	};
	double x, m, c;
	int lead, k, i, n, hits = 0;
	uint64_t v;
	char t[24];
	size_t len = 0;

	if (!(a >= 1e-4 && a < 1e15))
		return 0;
	/* (lead, the leading digit's exponent, may be one off below 1: the
	 * tests below stay exact, and a miss goes to the search) */
	for (lead = 14; lead > 0 && a < p10[lead]; lead--)
		;
	if (lead == 0 && a < 1)
		for (lead = -1; lead > -4 && a * p10[-lead] < 1; lead--)
			;
	k = 14 - lead;
	if (k < 0 || k > 18)
		return 0;
	x = a * p10[k];
	if (x >= 9007199254740992.0)	/* 2^53: m would not be exact */
		return 0;
	m = nearbyint(x);
	for (i = -1; i <= 1; i++)
		if ((c = m + i) > 0 && c / p10[k] == a) {
			hits++;
			x = c;
		}
	if (hits != 1)
		return 0;
	v = (uint64_t)x;
	while (k > 0 && v % 10 == 0) {
		v /= 10;
		k--;
	}
	/* the digits, backwards */
	for (n = 0; v > 0 || n <= k; v /= 10)
		t[n++] = (char)('0' + v % 10);
	while (n > k)
		w[len++] = t[--n];
	w[len++] = '.';
	if (k == 0)
		w[len++] = '0';
	while (n > 0)
		w[len++] = t[--n];
	w[len] = '\0';
	return len;
}

/* num_pyrepr's cache: the text of recent doubles, by their bits. */
enum { MEMOBITS = 10 };
struct memo {
	uint64_t bits;	/* the double's bits */
	char s[32];	/* its text; "" for an empty slot */
};

/*
 * Python's repr(float): the shortest digit string that reads back as
 * the same double, in positional notation when the decimal exponent
 * lies in [-4, 16) and in scientific notation otherwise.
 */

char *
num_pyrepr(double d, char *buf, size_t size)
{
	static _Thread_local struct memo memo[1 << MEMOBITS];
	struct memo *slot;
	uint64_t bits;
	char g[40], digits[40], *p;
	int e, ge, nd, i, pos, lo, hi, mid, me;
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
	 * The same values come back again and again (a shape's GFLOPS in
	 * every step, kernel times on the profiler's clock ticks): a
	 * small cache by the bits of d spares most of the search below.
	 */
	memcpy(&bits, &d, sizeof(bits));
	slot = &memo[(bits * 0x9E3779B97F4A7C15ULL) >> (64 - MEMOBITS)];
	if (slot->s[0] != '\0' && slot->bits == bits) {
		/* (a copy, not snprintf: its set-up costs more than the rest
		 * of a hit) */
		size_t n = strlen(slot->s);

		if (n < size)
			memcpy(buf, slot->s, n + 1);
		else
			snprintf(buf, size, "%s", slot->s);
		return buf;
	}
	if (size >= 32) {
		char *sw = buf;

		if (d < 0)
			*sw++ = '-';
		if (pyrepr_short(fabs(d), sw) > 0)
			goto done;
	}
	/* all 17 digits once; the shorter candidates are rounded from them */
	snprintf(digits, sizeof(digits), "%.16e", fabs(d));
	for (i = 0, p = digits; *p != 'e'; p++)
		if (*p != '.')
			g[i++] = *p;
	ge = atoi(p + 1);
	/*
	 * If n digits read back as d, so do n + 1: bisect for the
	 * shortest, after the common case of needing all 17.
	 */
	nd = 16;
	if (!fits(d, g, ge, 16, digits, &e)) {
		memcpy(digits, g, 17);
		nd = 17;
		e = ge;
	} else {
		lo = 1;
		hi = 16;
		while (lo < hi) {
			char t[40];

			mid = (lo + hi) / 2;
			if (fits(d, g, ge, mid, t, &me))
				hi = mid;
			else
				lo = mid + 1;
		}
		nd = lo;
		fits(d, g, ge, lo, digits, &e);
	}
	if (d < 0)
		*w++ = '-';
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
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
done:
	if (strlen(buf) < sizeof(slot->s)) {
		slot->bits = bits;
		memcpy(slot->s, buf, strlen(buf) + 1);
	}
	return buf;
}

char *
num_ns_to_us(int64_t ns, char *buf, size_t size)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns, q = a / 1000;
	unsigned f = (unsigned)(a % 1000);
	char t[32], *p = t + sizeof(t);	/* written backwards */
	char d[3];			/* the fraction's digits */
	size_t n;
	int k;

	/* (by hand, not snprintf: the rocprofv3 reader calls this twice a record) */
	if (f != 0) {
		d[0] = (char)('0' + f / 100);
		d[1] = (char)('0' + f / 10 % 10);
		d[2] = (char)('0' + f % 10);
		for (k = 3; d[k - 1] == '0'; k--)
			;
		while (k > 0)
			*--p = d[--k];
		*--p = '.';
	}
	do
		*--p = (char)('0' + q % 10);
	while ((q /= 10) != 0);
	if (ns < 0)
		*--p = '-';
	if (size == 0)
		return buf;
	n = MIN((size_t)(t + sizeof(t) - p), size - 1);
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

size_t
num_plain(char *out, size_t size, const char *s, size_t len)
{
	const char *end = s + len, *p = s, *m;
	char d[64];		/* the mantissa's digits, point dropped */
	size_t nd = 0, w = 0, lo, hi;
	long point = -1, exp = 0, i;
	int neg = 0, eneg = 0;

	if (p < end && *p == '-')
		neg = *p++ == '-';
	for (m = p; p < end && ((*p >= '0' && *p <= '9') || *p == '.'); p++) {
		if (*p == '.')
			point = (long)nd;
		else if (nd < sizeof(d))
			d[nd++] = *p;
		else
			return 0;
	}
	if (point < 0)
		point = (long)nd;
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (; p < end; p++)
			if ((exp = exp * 10 + (*p - '0')) > 100000)
				exp = 100000;
	}
	(void)m;
	/* The value is 0.d[0..nd) times 10^point. */
	point += eneg ? -exp : exp;
	for (lo = 0; lo < nd && d[lo] == '0'; lo++)
		;
	if (lo == nd || point - (long)lo < -400) {
		/* Zero, or below 1e-400: zero as a double too. */
		if (size < 3 + (size_t)neg)
			return 0;
		memcpy(out, &"-0.0"[!neg], 3 + (size_t)neg);
		return 3 + (size_t)neg;
	}
	/* Whole part d[lo..point), fraction d[point..hi), zeros trimmed. */
	for (lo = 0; lo < nd && (long)lo < point && d[lo] == '0'; lo++)
		;
	for (hi = nd; hi > 0 && (long)hi > point && d[hi - 1] == '0'; hi--)
		;
#define PUT(c) do { if (w >= size) return 0; out[w++] = (c); } while (0)
	if (neg)
		PUT('-');
	if ((long)lo >= point)
		PUT('0');
	for (i = (long)lo; i < point; i++)
		PUT(i < (long)nd ? d[i] : '0');
	PUT('.');
	if ((long)hi <= point)
		PUT('0');
	for (i = point; i < (long)hi; i++)
		PUT(i < 0 ? '0' : d[i]);
#undef PUT
	return w;
}
