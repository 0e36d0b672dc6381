/* Unit checks of common/: each expected value was checked by hand or
 * against Python 3 (repr(float(x)), repr of tuples and strings). */
#include <string.h>

#define JSMN_HEADER
#ifndef JSMN_PARENT_LINKS	/* (as config.mk builds common/: the same jsmntok_t) */
#define JSMN_PARENT_LINKS
#endif
#include <jsmn.h>

#include "jwalk.h"
#include "tl.h"
#include "perfmodel.h"
#include "opcat.h"
#include "models/models.h"

static int fails, runs;

static void
expect(const char *what, const char *got, const char *want)
{
	runs++;
	if (strcmp(got, want) != 0) {
		fails++;
		printf("FAIL %s: got '%s', want '%s'\n", what, got, want);
	}
}

static void
repr(double d, const char *want)
{
	char b[64];

	expect("pyrepr", num_pyrepr(d, b, sizeof(b)), want);
}

static void
lit(const char *json, int tuples, const char *want)
{
	struct buf b = {0};
	int rc = pylit(&b, json, strlen(json), tuples);

	expect(json, rc < 0 ? "ERROR" : b.s, want);
	buf_free(&b);
}

/* A reader of an integer field (num_int64, num_us_to_ns) on s: its
 * value, or ERROR. */
static void
intof(int (*rd)(const char *, size_t, int64_t *), const char *s,
    const char *want)
{
	char b[64];
	int64_t v;

	if (rd(s, strlen(s), &v) < 0)
		expect(s, "ERROR", want);
	else {
		snprintf(b, sizeof(b), "%lld", (long long)v);
		expect(s, b, want);
	}
}

/* num_int64 (as strtoll reads a whole field) */
static void
i64(const char *s, const char *want)
{
	intof(num_int64, s, want);
}

static void
ns(const char *s, const char *want)
{
	intof(num_us_to_ns, s, want);
}

/*
 * jwalk on json, wanting a (and x in its value), b and c: each value's
 * text (a string's body), "-" when absent, joined by spaces.
 */
static void
walk(const char *json, const char *want)
{
	static const struct jwant wa[] = { { "x", 1, NULL, 0 } };
	static const struct jwant w[] = {
		{ "a", 0, wa, 1 }, { "b", 2, NULL, 0 }, { "c", 3, NULL, 0 }
	};
	jsmntok_t v[4];
	char got[256];
	size_t len = 0;
	int i;

	jwalk(json, (int)strlen(json), w, 3, v);
	for (i = 0; i < 4; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%.*s",
		    i ? " " : "", v[i].type == JSMN_UNDEFINED ? 1 :
		    v[i].end - v[i].start, v[i].type == JSMN_UNDEFINED ? "-" :
		    json + v[i].start);
	expect(json, got, want);
}

int
main(void)
{
	char b[64];
	char esc[] = "a\\tb\\\\c\\nd\\0e";
	size_t n;
	int64_t v;

	repr(220, "220.0");
	repr(1e-5, "1e-05");
	repr(0.0001, "0.0001");
	repr(0.000605184, "0.000605184");
	repr(1e16, "1e+16");
	repr(1e15, "1000000000000000.0");
	repr(8.1279296875, "8.1279296875");
	repr(1.5e-7, "1.5e-07");
	repr(-2.5, "-2.5");
	repr(0.1 + 0.2, "0.30000000000000004");
	repr(12345678901234567.0, "1.2345678901234568e+16");
	repr(0.0, "0.0");
	repr(-0.0, "-0.0");
	repr(1.0 / 3, "0.3333333333333333");
	repr(100, "100.0");
	repr(3.14159e-5, "3.14159e-05");
	/* num_pyrepr's short path (15 digits or fewer) and its edges */
	repr(999999999999999.9, "999999999999999.9");
	repr(99999999999999.99, "99999999999999.98");
	repr(nextafter(1e-4, 1), "0.00010000000000000002");
	repr(123456789012345.6, "123456789012345.6");
	repr(1234567.0000001, "1234567.0000001");
	repr(0.1, "0.1");
	repr(2.592041015625, "2.592041015625");
	repr(1e14 + 0.5, "100000000000000.5");
	repr(nextafter(1e-3, 0), "0.0009999999999999998");
	repr(1500.0, "1500.0");
	repr(2.675, "2.675");
	repr(3e-4, "0.0003");
	repr(nextafter(1e15, 0), "999999999999999.9");
	repr(123456789.12345679, "123456789.12345679");
	repr(0.000123456789012345, "0.000123456789012345");

	/* jwalk: the last of a key given twice, and nothing of the first's
	 * value below it; escaped keys; quotes escaped past 16 bytes */
	walk("{\"a\":{\"x\":1},\"b\":\"s\\\"q\",\"c\":[1]}", "{\"x\":1} 1 s\\\"q [1]");
	walk("{\"a\":{\"x\":1},\"a\":{\"y\":2}}", "{\"y\":2} - - -");
	walk("{\"a\":{\"x\":1},\"a\":5}", "5 - - -");
	walk("{\"a\":5,\"a\":{\"x\":[]}}", "{\"x\":[]} [] - -");
	walk("{\"\\u0062\":true,\"\":1}", "- - true -");
	walk("{\"b\":\"0123456789abcdefgh\\\\\\\"ij\\\\\",\"c\":null}",
	    "- - 0123456789abcdefgh\\\\\\\"ij\\\\ null");
	walk("[1]", "- - - -");
	walk(" { \"c\" : -1.5e3 , \"a\" : { } } ", "{ } - - -1.5e3");
	walk("{\"some \\\" very long key, escaped\":{\"b\":1},\"b\":2}", "- - 2 -");
	walk("{\"a\":{\"q\":{\"x\":7},\"x\":\"}\"}}", "{\"q\":{\"x\":7},\"x\":\"}\"} } - -");

	lit("[[4,197,768],[]]", 1, "((4, 197, 768), ())");
	lit("[[4,197,768],[]]", 0, "[[4, 197, 768], []]");
	lit("[[768],[]]", 1, "((768,), ())");
	lit("[\"c10::BFloat16\",\"float\",\"\"]", 1, "('c10::BFloat16', 'float', '')");
	lit("[\"it's\",\"a\\\"b\"]", 0, "[\"it's\", 'a\"b']");
	lit("[\"\\u00e9\\t\\\\\"]", 0, "['\xc3\xa9\\t\\\\']");
	lit("[1.0,1e5,true,false,null]", 0, "[1.0, 100000.0, True, False, None]");
	lit("{\"a\":[1]}", 1, "{'a': (1,)}");
	lit("[[", 1, "ERROR");
	lit("[\"\\q\"]", 1, "ERROR");
	lit("[\"\\ud83d\\ude00\"]", 0, "['\xf0\x9f\x98\x80']");
	lit("[1,]", 1, "ERROR");
	lit("[] x", 1, "ERROR");

	ns("1752839462723407.123", "1752839462723407123");
	ns("8.128", "8128");
	ns("0", "0");
	ns("-1.5", "-1500");
	ns("1.5e3", "1500000");
	ns("1.0001", "ERROR");
	ns("abc", "ERROR");
	ns("", "ERROR");
	expect("ns_to_us", num_ns_to_us(1752839462723407120, b, sizeof(b)),
	    "1752839462723407.12");
	expect("ns_to_us", num_ns_to_us(-1500, b, sizeof(b)), "-1.5");
	expect("ns_to_us", num_ns_to_us(8000, b, sizeof(b)), "8");

	n = rec_unescape(esc, strlen(esc));
	runs++;
	if (n != 9 || memcmp(esc, "a\tb\\c\nd\0e", 9) != 0) {
		fails++;
		printf("FAIL rec_unescape\n");
	}
	runs++;
	if (num_int64("12x", 3, &v) == 0) {
		fails++;
		printf("FAIL num_int64 accepted 12x\n");
	}
	/* (19 digits by hand, the rest by strtoll: the same answers) */
	i64("0", "0");
	i64("-0", "0");
	i64("007", "7");
	i64("1752850895533055342", "1752850895533055342");
	i64("999999999999999999", "999999999999999999");
	i64("-999999999999999999", "-999999999999999999");
	i64("9223372036854775807", "9223372036854775807");
	i64("-9223372036854775808", "-9223372036854775808");
	i64("9223372036854775808", "ERROR");
	i64("-9223372036854775809", "ERROR");
	i64("9999999999999999999", "ERROR");
	i64("-0009223372036854775808", "-9223372036854775808");
	i64("+5", "5");
	i64(" 5", "5");
	i64("-", "ERROR");
	i64("1.5", "ERROR");
	i64("", "ERROR");
	/* model_find's table: exact names sorted, the prefixes after them */
	{
		const struct model *m = model_table(&n);
		size_t i, np = n;
		char nm[256];

		while (np > 0 && m[np - 1].prefix)
			np--;
		for (i = 0; i < n; i++) {
			runs++;
			if ((i < np && m[i].prefix) ||
			    (i > 0 && i < np && strcmp(m[i - 1].op, m[i].op) >= 0)) {
				fails++;
				printf("FAIL model table at %zu (%s)\n", i, m[i].op);
			}
			/* each row is found: an exact name as is, a prefix as one */
			snprintf(nm, sizeof(nm), "%s%s", m[i].op, m[i].prefix ? "x_0" : "");
			runs++;
			if (model_find(nm) != &m[i]) {
				fails++;
				printf("FAIL model_find(%s)\n", nm);
			}
		}
		expect("model_find exact", model_find("aten::mm") ? "found" : "none", "found");
		expect("model_find prefix", model_find("triton_poi_fused_add_0") ? "found" : "none", "found");
		expect("model_find none", model_find("aten::view") ? "found" : "none", "none");
		expect("model_find empty", model_find("") ? "found" : "none", "none");
	}
	/*
	 * The op category of a modelled op is its model's, unless
	 * TraceLens's category-only names say otherwise (they win, as in
	 * its build_op_category_registry): the one such name is listed.
	 */
	{
		const struct model *m = model_table(&n);
		size_t i;
		const char *c;

		for (i = 0; i < n; i++) {
			if (m[i].prefix)
				continue;
			c = opcat_lookup(m[i].op);
			if (strcmp(m[i].op, "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip") == 0)
				expect(m[i].op, c ? c : "NULL", "MoE_aux");
			else
				expect(m[i].op, c ? c : "NULL", m[i].fam->cat);
		}
		expect("opcat category-only", opcat_lookup("aten::miopen_convolution"), "CONV_fwd");
		expect("opcat triton", opcat("triton_poi_fused_add_0", NULL), "triton");
		expect("opcat none", opcat_lookup("aten::view") ? "found" : "none", "none");
	}
	/* the params' ints, written by hand */
	{
		static const struct { int64_t v; const char *s; } iv[] = {
			{ 0, "0" }, { 7, "7" }, { -1, "-1" }, { 1234567890, "1234567890" },
			{ INT64_MAX, "9223372036854775807" },
			{ INT64_MIN, "-9223372036854775808" },
		};
		struct buf ib = {0};
		size_t i;

		for (i = 0; i < LEN(iv); i++) {
			buf_reset(&ib);
			vint(&ib, iv[i].v);
			buf_addc(&ib, '\0');
			expect("vint", ib.s, iv[i].s);
		}
		buf_free(&ib);
	}
	printf("%d passed, %d failed\n", runs - fails, fails);
	return fails != 0;
}
