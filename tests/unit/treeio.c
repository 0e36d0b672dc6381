/* Unit checks of common/treeio.h's keys and tables: each expected value
 * checked by hand (sort -n's order of the numbers, for key_dec). */
#include <stdio.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"

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
expectn(const char *what, long long got, long long want)
{
	char g[32], w[32];

	snprintf(g, sizeof(g), "%lld", got);
	snprintf(w, sizeof(w), "%lld", want);
	expect(what, g, w);
}

/* key_dec of a and b compare as bytes as the numbers do (sort -n). */
static void
order(const char *a, const char *b, int want)
{
	struct buf ka = {0}, kb = {0};
	int c;

	key_dec(&ka, a);
	key_dec(&kb, b);
	c = strcmp(ka.s, kb.s);
	c = (c > 0) - (c < 0);
	expectn(a, c, want);
	buf_free(&ka);
	buf_free(&kb);
}

int
main(void)
{
	struct buf b = {0};
	struct strtab st = {0};
	char k[16];
	int i;

	expectn("atoid", atoid("12345"), 12345);
	expectn("atoid tab", atoid("42\tx"), 42);
	expectn("atoid long", atoid("123456789012345678901"), 9223372036854775807LL);
	buf_num(&b, -120);
	expect("buf_num", b.s, "-120");
	buf_reset(&b);
	buf_hex(&b, 0xbeef, 6);
	expect("buf_hex", b.s, "00beef");
	buf_reset(&b);
	key_uid(&b, 4294967295LL);
	expect("key_uid", b.s, "ffffffff");
	expectn("key_uidat", key_uidat(b.s), 4294967295LL);
	buf_reset(&b);
	key_int(&b, 42);
	expect("key_int", b.s, "000000000042");
	buf_reset(&b);
	key_int(&b, -3);
	expect("key_int negative", b.s, "000000000000");
	buf_reset(&b);
	key_dec(&b, "100.5");
	expect("key_dec", b.s,
	    "1000000000000000000000100500000000");
	buf_reset(&b);
	key_dec(&b, "-0.0");
	expect("key_dec -0", b.s,
	    "1000000000000000000000000000000000");
	order("2", "10", -1);
	order("-2", "-10", 1);
	order("-1", "0", -1);
	order("0.5", "0.25", 1);
	order("7", "7.0", 0);
	order("1e3", "2", -1);	/* sort -n reads 1 */

	/* numbers in order of first appearance, across growth */
	for (i = 0; i < 200; i++) {
		snprintf(k, sizeof(k), "k%d", i);
		expectn(k, strtab_get(&st, k, strlen(k)), i);
	}
	expectn("strtab again", strtab_get(&st, "k7", 2), 7);
	expectn("strtab prefix", strtab_get(&st, "k", 1), 200);
	expectn("strtab n", (long long)st.n, 201);
	strtab_free(&st);
	buf_free(&b);
	printf("unit treeio: %d checks, %d failed\n", runs, fails);
	return fails != 0;
}
