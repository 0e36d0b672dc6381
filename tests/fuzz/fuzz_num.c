/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for the number parsers and printers (common/num.c)
 * that tl-roofline, tl-aggregate and tl-tree read fields with, built
 * and run by tests/fuzz/run.  The input is a field (in a buffer of its
 * exact size, so a read past it is caught).  For each input it checks
 * that:
 * - num_us_to_ns, num_double and num_int64 accept it or refuse it
 *   without a sanitizer report; a field num_double accepts, strtod
 *   reads whole as the same double;
 * - a time num_us_to_ns accepts prints back (num_ns_to_us) as text
 *   that reads back to the same nanoseconds, and agrees with strtod;
 * - a double num_double accepts, and the first 8 bytes taken as any
 *   double, print (num_pyrepr, Python's repr) as text that reads back
 *   to the same double, in the fewest digits that do, within the
 *   buffer size tl uses;
 * - an integer num_int64 accepts prints back to itself, and it accepts
 *   what strtoll reads whole without overflow (its own 19 digits by hand
 *   included), as the same value;
 * - a JSON number with a fraction or exponent prints (num_plain) as a
 *   plain decimal with a point and no exponent that strtod reads as the
 *   same double, or does not fit the 1024 bytes tl-parse gives it.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "fuzz_num: %s:%d: check failed: %s\n", \
	    __FILE__, __LINE__, #c); abort(); } } while (0)

/* num_pyrepr's text reads back as d, with no shorter text that does. */
static void
repr(double d)
{
	char buf[40], alt[40], *e;
	double back;
	int nd = 0;
	const char *p;

	num_pyrepr(d, buf, sizeof(buf));
	CHECK(strlen(buf) < 32);
	if (isnan(d)) {
		CHECK(strcmp(buf, "nan") == 0);
		return;
	}
	back = strtod(buf, &e);
	CHECK(*e == '\0');
	CHECK(memcmp(&back, &d, sizeof(d)) == 0);
	if (isinf(d) || d == 0)
		return;
	/* significant digits: all but leading zeros, up to the exponent */
	for (p = buf; *p && *p != 'e'; p++)
		if (*p >= '1' && *p <= '9')
			break;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			nd++;
	/* "220.0": the zeros before the point count, the ".0" does not */
	if (strchr(buf, 'e') == NULL && strlen(buf) > 2 &&
	    strcmp(buf + strlen(buf) - 2, ".0") == 0) {
		nd--;
		for (p = strchr(buf, '.') - 1; nd > 1 && *p == '0'; p--)
			nd--;
	}
	CHECK(nd >= 1 && nd <= 17);
	if (nd > 1) {
		snprintf(alt, sizeof(alt), "%.*e", nd - 2, d);
		CHECK(strtod(alt, NULL) != d);
	}
}

/* Is s[0..n) a JSON number (RFC 8259) with a fraction or exponent? */
static int
jsonfloat(const char *s, size_t n)
{
	size_t i = 0, d;
	int fl = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		return 0;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
		fl = 1;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
		fl = 1;
	}
	return fl && i == n;
}

/* num_plain of a JSON float: plain, and the same double. */
static void
plain(const char *s, size_t n)
{
	char out[1025], *in = malloc(n + 1), *e;
	size_t len;

	CHECK(in != NULL);
	memcpy(in, s, n);
	in[n] = '\0';
	if ((len = num_plain(out, sizeof(out) - 1, s, n)) > 0) {
		out[len] = '\0';
		CHECK(strchr(out, '.') && !strchr(out, 'e'));
		CHECK((out[0] == '-') == (s[0] == '-'));
		CHECK(strtod(out, &e) == strtod(in, NULL) && *e == '\0');
		/* no needless zeros before the point */
		CHECK(out[out[0] == '-'] != '0' || out[(out[0] == '-') + 1] == '.');
	}
	free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size ? size : 1), buf[64], *e;
	int64_t ns, ns2, v, v2;
	double d, d2;

	CHECK(s != NULL);
	memcpy(s, data, size);
	if (num_us_to_ns(s, size, &ns) == 0) {
		num_ns_to_us(ns, buf, sizeof(buf));
		CHECK(num_us_to_ns(buf, strlen(buf), &ns2) == 0 && ns2 == ns);
		if (num_double(s, size, &d) == 0 && fabs(d) < 1e12)
			CHECK(fabs(d * 1e3 - (double)ns) <= 1e-6 * fabs(d * 1e3) + 1);
	}
	if (num_double(s, size, &d) == 0) {
		CHECK(size < 64);
		/* the double strtod reads, whole (its fast paths included) */
		memcpy(buf, s, size);
		buf[size] = '\0';
		d2 = strtod(buf, &e);
		CHECK(*e == '\0' && memcmp(&d, &d2, sizeof(d)) == 0);
		repr(d);
	}
	if (num_int64(s, size, &v) == 0) {
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
		CHECK(num_int64(buf, strlen(buf), &v2) == 0 && v2 == v);
		CHECK(num_double(buf, strlen(buf), &d) == 0);
	}
	/* (strtoll, whole, in range: the same answer) */
	if (size > 0 && size < 32) {
		long long x;
		int ok;

		memcpy(buf, s, size);
		buf[size] = '\0';
		errno = 0;
		x = strtoll(buf, &e, 10);
		ok = *e == '\0' && errno != ERANGE;
		CHECK((num_int64(s, size, &v) == 0) == ok);
		CHECK(!ok || v == x);
	}
	if (size >= sizeof(d)) {
		memcpy(&d, data, sizeof(d));
		repr(d);
	}
	if (jsonfloat(s, size))
		plain(s, size);
	free(s);
	return 0;
}
