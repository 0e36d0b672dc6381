/* See LICENSE file for copyright and license details. */
/*
 * jscan.h: find the events of a Chrome/Kineto trace in a byte stream
 * without holding the trace, and the keys of each event.
 *
 * The scanner (jscan_*) is fed the JSON text in chunks of any size.  It
 * checks the whole text against the JSON grammar (strings: escapes,
 * UTF-8; numbers; nesting up to JSCAN_MAXDEPTH) while
 * holding only a depth stack, and hands every element of the
 * traceEvents array (or of a bare top-level array) to a callback as one
 * contiguous, valid JSON object.  Everything else in the trace
 * (metadata, deviceProperties ...) is checked and skipped.
 *
 * Along with each event come its members: where each key and value
 * of the event object lies in its text, and those of every object
 * that is a value of the event object (args).  Fields of a record can
 * name nothing deeper, so nothing deeper is taken apart: a second pass
 * with a tokeniser (jsmn) costs as much again as the whole scan.
 * jstr_tsv and jval_tsv render one value as a tl(7) field.
 *
 * Inside the events array, whole events are scanned a 64-byte block at
 * a time (simdjson's way: bit masks of quotes, structural characters
 * and string bodies, then only the tokens visited), with SSE2 or AVX2
 * where the CPU has them.  Anything that block scan cannot vouch for
 * (an event cut by the end of a chunk, any error) is scanned again
 * byte by byte, which alone decides what is an error and where.
 */
#ifndef JSCAN_H
#define JSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "jlex.h"

#define JSCAN_MAXDEPTH 1024		/* deepest nesting accepted */
#define JSCAN_MAXEVENT (64 << 20)	/* default largest event, bytes */
#define JSCAN_MAXMEMBERS (1 << 20)	/* most keys recorded for one event */
#define JSCAN_WANT 512			/* size of jscan.want */

/* How events are scanned (jscan.mode; TL_JSCAN names them). */
enum {
	JSCAN_BYTES = 1,	/* byte by byte only: "bytes" */
	JSCAN_SCALAR,		/* blocks classified in plain C: "scalar" */
	JSCAN_SSE2,		/* ... with SSE2: "sse2" */
	JSCAN_AVX2		/* ... with AVX2: "avx2" */
};

/* Flags of a member (jmember.esc). */
enum {
	JM_KEYESC = 1,	/* the key has \ escapes */
	JM_VALESC = 2,	/* the string value has \ escapes */
	JM_VALEXP = 4	/* the number value has an exponent */
};

/*
 * One key of an event object, or of an object that is the value of
 * one.  Offsets count from the event's first byte.
 */
struct jmember {
	uint32_t key;		/* the key's text, without quotes */
	uint32_t keylen;	/* its length in bytes */
	uint32_t val;		/* a string's text without quotes, else the value */
	uint32_t vallen;	/* its length in bytes */
	int parent;		/* the member whose value holds this key, or -1 */
	char type;		/* '"' string, '{' object, '[' array, '0' number, 't' literal */
	char esc;		/* JM_KEYESC, JM_VALESC, JM_VALEXP */
};

/*
 * Receives one event: its text ev[0..len) and its members m[0..nm) in
 * text order (a member's own members follow it), all valid until the
 * callback returns.
 */
typedef void jscan_fn(void *arg, const char *ev, size_t len,
    const struct jmember *m, size_t nm);

/*
 * The scanner's state between two chunks.  Ownership: the scanner owns
 * evbuf; the caller owns what arg points to.
 */
struct jscan {
	size_t maxevent;	/* an event longer than this is an error */
	jscan_fn *onevent;	/* called for each complete event */
	void *arg;		/* passed to onevent */
	int mode;		/* JSCAN_BYTES ... JSCAN_AVX2 */

	uint64_t off;		/* stream offset of the next chunk's first byte */
	uint64_t nevent;	/* events done: the UID of the one being read or handed out */
	uint64_t evoff;		/* stream offset of the event handed out */
	uint64_t lone0;		/* lx.nlone when the event handed out began */
	uint64_t lastend;	/* offset just past the last complete event */
	int state;		/* where scanning resumes (enum in jscan.c) */
	int iskey;		/* the string being read is an object key */
	int topkey;		/* ... and a key of the top-level object */
	int top;		/* top-level value: 0 not yet, '{' or '[' */
	int wantev;		/* the next value is traceEvents's */
	int seenev;		/* the events array was found */
	unsigned depth;		/* open objects and arrays */
	unsigned evdepth;	/* depth inside the events array, 0 outside it */
	int inev;		/* inside an event */
	struct jlex lx;		/* the string, number or literal being read */
	char kind[JSCAN_MAXDEPTH];	/* '{' or '[' for each open level */
	char key[80];		/* raw text of the current top-level key */
	size_t keylen;		/* its length (may exceed sizeof key) */
	char *evbuf;		/* an event that straddles chunks, owned */
	size_t evlen;		/* bytes of it gathered so far */
	size_t evcap;		/* allocated size of evbuf */
	int filter;		/* record only the second-level keys in want */
	unsigned char want[JSCAN_WANT];	/* 1: keys of this hash are wanted */
	struct jmember *mem;	/* members of the current event, owned */
	size_t nmem;		/* members recorded so far */
	size_t memcap;		/* allocated size of mem */
	int cur1;		/* the last member of the event object itself */
	int strrec;		/* the string being read is a member's key or value */

	const char *err;	/* what went wrong, or NULL */
	uint64_t erroff;	/* stream offset of the offending byte */
	int errinev;		/* the error is inside the events array */
	int truncated;		/* the error is an early end of input */
	char errbuf[64];	/* err, when it has to be formatted */
};

/*
 * Start scanning a new stream; maxevent 0 means JSCAN_MAXEVENT.  s is
 * zeroed memory or a scanner used before, whose buffers are reused.
 * The mode is the best this CPU has, or the environment's TL_JSCAN
 * (bytes, scalar, sse2, avx2: for tests; a mode the CPU lacks is fatal).
 */
void jscan_init(struct jscan *s, size_t maxevent, jscan_fn *fn, void *arg);
/*
 * Record the key k[0..n) of an object that is the value of an event's
 * member; once this is called, the block scanner may leave out the
 * others (and their values) from the members it hands out, whereas
 * the byte scanner keeps them all.  Keys of the event object itself,
 * and keys with escapes, are always there.  A null k wants none (yet).
 * jscan_init forgets them.
 */
void jscan_want(struct jscan *s, const char *k, size_t n);
/* Scan in mode (JSCAN_BYTES ...); -1 if this CPU cannot. */
int jscan_setmode(struct jscan *s, int mode);
/* Scan the next n bytes; 0, or -1 with s->err set. */
int jscan_feed(struct jscan *s, const char *p, size_t n);
/* The stream ended; 0 if the trace was whole, else -1 with s->err set. */
int jscan_end(struct jscan *s);
void jscan_free(struct jscan *s);

/*
 * Write the JSON string body s[0..n) (no quotes, valid) decoded and
 * escaped as a tl(7) field into out, which has room for n bytes (no
 * escape grows); returns the bytes written.
 */
size_t jstr_tsv(char *out, const char *s, size_t n);
/*
 * Decode the JSON string body s[0..n) into out (room for n bytes).  A
 * \u surrogate without its other half, which Python reads as a lone
 * surrogate, becomes U+FFFD: UTF-8 cannot hold it.
 */
size_t jstr_decode(char *out, const char *s, size_t n);
/*
 * Write the valid JSON value s[0..n) as compact JSON text (whitespace
 * outside strings removed), escaped as a tl(7) field, into out (room
 * for 2n bytes); returns the bytes written.
 */
size_t jval_tsv(char *out, const char *s, size_t n);

#endif
