/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for the number parsers and printers (common/num.c)
 * that tl-roofline, tl-aggregate and tl-tree read fields with, built
 * and run by tests/fuzz/run.  The input is a field (in a buffer of its
 * exact size, so a read past it is caught).  For each input it checks
 * that:
 * - num_us_to_ns, num_double and num_int64 accept it or refuse it
 *   without a sanitizer report;
 * - a time num_us_to_ns accepts prints back (num_ns_to_us) as text
 *   that reads back to the same nanoseconds, and agrees with strtod;
 * - a double num_double accepts, and the first 8 bytes taken as any
 *   double, print (num_pyrepr, Python's repr) as text that reads back
 *   to the same double, in the fewest digits that do, within the
 *   buffer size tl uses;
 * - an integer num_int64 accepts prints back to itself.
 */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size ? size : 1), buf[64];
	int64_t ns, ns2, v, v2;
	double d;

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
		repr(d);
	}
	if (num_int64(s, size, &v) == 0) {
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
		CHECK(num_int64(buf, strlen(buf), &v2) == 0 && v2 == v);
		CHECK(num_double(buf, strlen(buf), &d) == 0);
	}
	if (size >= sizeof(d)) {
		memcpy(&d, data, sizeof(d));
		repr(d);
	}
	free(s);
	return 0;
}
