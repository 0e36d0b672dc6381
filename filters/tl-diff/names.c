/* See LICENSE file for copyright and license details. */
/*
 * names.c: names as TraceDiff compares them: TraceLens's normalisation
 * (addresses, line numbers, paths and launch APIs masked) and equality.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "diff.h"

/* Python's re \s, for the ASCII range and the common Unicode spaces. */
static size_t
pyspace(const unsigned char *s)
{
	if (*s == ' ' || (*s >= '\t' && *s <= '\r') || (*s >= 0x1c && *s <= 0x1f))
		return 1;
	if (s[0] == 0xc2 && (s[1] == 0x85 || s[1] == 0xa0))
		return 2;
	if (s[0] == 0xe2 && s[1] == 0x80 && ((s[2] >= 0x80 && s[2] <= 0x8a) ||
	    s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf))
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f)
		return 3;
	if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80)
		return 3;
	if (s[0] == 0xe1 && s[1] == 0x9a && s[2] == 0x80)
		return 3;
	return 0;
}

static int
ishex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * TraceLens's _normalize_name_for_comparison: hex addresses and .py line
 * numbers masked; with strip, a trailing ": word" and a path before a
 * .py file name dropped; two launch APIs made equal.  Returns owned text.
 */
char *
normalize(const char *name, int strip)
{
	struct buf b = {0};
	const char *p, *q;
	size_t k;

	for (p = name; *p;) {
		/* (the bytes that start no pattern, in one copy: the names
		 * are most of tl-diff's work) */
		if ((k = strcspn(p, "0.")) > 0) {
			buf_add(&b, p, k);
			p += k;
			continue;
		}
		if (p[0] == '0' && p[1] == 'x' && ishex((unsigned char)p[2])) {
			buf_adds(&b, "0xXXXX");
			for (p += 2; ishex((unsigned char)*p); p++)
				;
			continue;
		}
		if (strncmp(p, ".py(", 4) == 0 && p[4] >= '0' && p[4] <= '9') {
			for (q = p + 4; *q >= '0' && *q <= '9'; q++)
				;
			if (q[0] == ')' && q[1] == ':') {
				buf_adds(&b, ".py:");
				p = q + 2;
				continue;
			}
		}
		buf_addc(&b, *p++);
	}
	buf_adds(&b, "");
	if (strip) {
		/* :\s+\S+$ at the leftmost ':' where it matches */
		for (k = 0; k < b.len; k++) {
			size_t w, m = k + 1, n;
			int ws = 0, nws = 0;

			if (b.s[k] != ':')
				continue;
			while (m < b.len && (w = pyspace((unsigned char *)b.s + m)) > 0) {
				m += w;
				ws = 1;
			}
			for (n = m; n < b.len && pyspace((unsigned char *)b.s + n) == 0; n++)
				nws = 1;
			if (ws && nws && n == b.len) {
				b.s[k] = '\0';
				b.len = k;
				break;
			}
		}
		/* ^.*\/([^/]+\.py)$ -> \1 (. does not match a newline) */
		if ((q = strrchr(b.s, '/')) != NULL && strlen(q + 1) >= 4 &&
		    strcmp(q + 1 + strlen(q + 1) - 3, ".py") == 0 &&
		    memchr(b.s, '\n', (size_t)(q - b.s)) == NULL) {
			char *t = tl_strdup(q + 1);

			free(b.s);
			return t;
		}
	}
	if (strcmp(b.s, "hipModuleLaunchKernel") == 0 ||
	    strcmp(b.s, "cuLaunchKernel") == 0) {
		free(b.s);
		return tl_strdup("__kernel_launch__");
	}
	return b.s;
}

/* Names compared as TraceLens compares them: None equals only None. */
int
nameeq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}
