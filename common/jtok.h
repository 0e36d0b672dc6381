/* See LICENSE file for copyright and license details. */
/*
 * jtok.h: walking jsmn's tokens (include <jsmn.h> first).  jtok.c.
 */

/*
 * Index of the token after token i and everything inside it, never
 * past nt, the token count (the tokens of a bad document may claim
 * more children than follow).
 */
int jtok_skip(const jsmntok_t *t, int i, int nt);
