/* See LICENSE file for copyright and license details. */
/*
 * jwalk.h: chosen members of a JSON object whose text a scanner has
 * already checked against the grammar (the rocprofv3 reader's records),
 * found in one walk over the text that writes nothing but the values
 * asked for (include <jsmn.h> first).  jwalk.c.
 *
 * What is wanted is a tree of keys (struct jwant): keys of the object,
 * and below each, keys of its value when that is an object.  Values
 * are jsmn-shaped tokens, so that code written for jsmn's reads them:
 * type (JSMN_UNDEFINED: absent), start and end offsets in the text (a
 * string's body without its quotes; a container from its opening
 * bracket to just past its closing one), and size, which is 1 for a
 * container with some element and 0 otherwise: not jsmn's count.
 * A key given twice counts with its last value, as in Python: what was
 * found below its earlier value is forgotten.  Keys are compared
 * decoded.  jsmn is the oracle of the fuzz test (fuzz_jscan) on every
 * event.
 *
 * On text that is not valid JSON the results mean nothing, but no byte
 * outside js[0..n) is read.
 */
#ifndef JWALK_H
#define JWALK_H

/* A key wanted in an object, and the keys wanted in its value. */
struct jwant {
	const char *key;		/* plain text (no escapes), shorter than 32 bytes */
	int slot;			/* the index of its value in the result */
	const struct jwant *sub;	/* keys wanted in its value (an object); NULL: none */
	int nsub;			/* their count */
};

/*
 * The values the keys w[0..nw) (and those below them) have in the
 * object that the valid JSON text js[0..n) is (leading whitespace
 * skipped) into v, by slot: every slot of the tree absent when the
 * text is not an object.  The keys of one object are distinct.
 */
void jwalk(const char *js, int n, const struct jwant *w, int nw, jsmntok_t *v);

#endif
