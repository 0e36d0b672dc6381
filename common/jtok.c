/* See LICENSE file for copyright and license details. */
/* jtok.c: walking jsmn's tokens (jtok.h). */
#define JSMN_HEADER
#include <jsmn.h>

#include "jtok.h"

int
jtok_skip(const jsmntok_t *t, int i, int nt)
{
	int j = i + 1, k;

	for (k = 0; k < t[i].size && j < nt; k++)
		j = jtok_skip(t, j, nt);
	return j;
}
