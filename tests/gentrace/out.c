/* See LICENSE file for copyright and license details. */
/*
 * The output of tl-gentrace (gentrace.h): a big buffer drained to the
 * -o file, through deflate with -z, and the JSON writer that serves the
 * three layouts of the Kineto trace.  The writer fills the buffer
 * itself: a call per byte would cost more than the byte.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <zlib.h>

#include "gentrace.h"
#include "tl.h"

/* ------------------------------------------------------------------ */
/* Output: a big buffer drained to stdio, optionally through deflate. */

#define OCAP	(1 << 22)
#define ZCAP	(1 << 18)

static int		 gz;		/* -z: deflate */
static char		*obuf;		/* pending output */
static size_t		 olen;		/* bytes pending in obuf */
static uint64_t		 otot;		/* bytes drained so far */
static FILE		*ofp;		/* sink */
static const char	*oname;		/* sink name for messages */
static z_stream		 zs;		/* deflate state with -z */
static unsigned char	*zbuf;		/* deflate output */

static void
sink(const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, ofp) != n)
		tl_die("%s: %s", oname, strerror(errno));
}

static void
oflush(int fin)
{
	int r;

	if (!gz) {
		sink(obuf, olen);
	} else {
		zs.next_in = (unsigned char *)obuf;
		zs.avail_in = (uInt)olen;
		for (;;) {
			zs.next_out = zbuf;
			zs.avail_out = ZCAP;
			r = deflate(&zs, fin ? Z_FINISH : Z_NO_FLUSH);
			if (r == Z_STREAM_ERROR)
				tl_die("deflate failed");
			sink(zbuf, ZCAP - zs.avail_out);
			if (fin ? r == Z_STREAM_END : zs.avail_out != 0)
				break;
		}
	}
	otot += olen;
	olen = 0;
}

static uint64_t
written(void)
{
	return otot + olen;
}

static inline void
need(size_t n)
{
	if (olen + n > OCAP)
		oflush(0);
}

void
put(const char *s, size_t n)
{
	need(n);
	memcpy(obuf + olen, s, n);
	olen += n;
}

void
gt_put(const void *p, size_t n)
{
	put(p, n);
}

uint64_t
gt_written(void)
{
	return written();
}

void
putch(int c)
{
	need(1);
	obuf[olen++] = (char)c;
}

void
putu(uint64_t v)
{
	char b[24];
	int i = 24;

	do
		b[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	put(b + i, (size_t)(24 - i));
}

void
puti(int64_t v)
{
	if (v < 0) {
		putch('-');
		putu((uint64_t)0 - (uint64_t)v);
	} else
		putu((uint64_t)v);
}

/* Kineto prints times as microseconds with exactly three decimals. */
void
putus(int64_t ns)
{
	char b[4];

	if (ns < 0) {
		putch('-');
		ns = -ns;
	}
	putu((uint64_t)(ns / 1000));
	b[0] = '.';
	b[1] = (char)('0' + ns / 100 % 10);
	b[2] = (char)('0' + ns / 10 % 10);
	b[3] = (char)('0' + ns % 10);
	put(b, 4);
}

/* A value in millionths, printed the shortest way a float would be. */
void
putfix(int64_t micro)
{
	char b[8];
	int64_t f;
	int n;

	if (micro < 0) {
		putch('-');
		micro = -micro;
	}
	putu((uint64_t)(micro / 1000000));
	if ((f = micro % 1000000) == 0)
		return;
	b[0] = '.';
	for (n = 6; n > 0; n--, f /= 10)
		b[n] = (char)('0' + f % 10);
	for (n = 6; b[n] == '0'; n--)
		;
	put(b, (size_t)n + 1);
}

/* ------------------------------------------------------------------ */
/* JSON writer.  One call sequence serves the three layouts: Kineto's */
/* own (several members a line), compact and Python's indent=N.       */

#define MAXLVL	16

static int		 lvl;		/* depth of the innermost container */
static unsigned char	 fresh[MAXLVL];	/* container has no member yet */
static unsigned char	 mlin[MAXLVL];	/* 1: members break on hints, 2: always */
static int		 nlnext;		/* Kineto: next member on a new line */
static int		 glue;		/* Kineto: next comma has no blank */
static int		 padn;		/* Kineto: blanks after next comma */
static int		 style;		/* the layout, ST_* */
static int		 indw;		/* ST_INDENT: blanks per level */

static void
nlind(int d)
{
	int n;

	if (style == ST_INDENT)
		n = indw * d;
	else if (style == ST_KINETO)
		n = d <= 1 ? 2 * d : 2 * (d - 1);
	else
		n = 0;
	need((size_t)n + 1);
	obuf[olen++] = '\n';
	memset(obuf + olen, ' ', (size_t)n);
	olen += (size_t)n;
}

static int
multi(int d)
{
	return style == ST_INDENT || mlin[d];
}

static void
sep(void)
{
	if (fresh[lvl]) {
		fresh[lvl] = 0;
		if (multi(lvl))
			nlind(lvl);
	} else if (style == ST_INDENT || mlin[lvl] == 2 ||
	    (nlnext && mlin[lvl])) {
		putch(',');
		nlind(lvl);
	} else if (glue) {
		putch(',');
	} else {
		need(2 + (size_t)padn);
		obuf[olen++] = ',';
		memset(obuf + olen, ' ', 1 + (size_t)padn);
		olen += 1 + (size_t)padn;
	}
	nlnext = glue = padn = 0;
}

/* Layout hints only Kineto's own writer follows. */
void jbr(void) { nlnext = style == ST_KINETO; }
void jglue(void) { glue = style == ST_KINETO; }
void jpad(int n) { padn = style == ST_KINETO ? n : 0; }

void
jopen(int c, int ml)
{
	putch(c);
	if (++lvl >= MAXLVL)
		tl_die("JSON nesting too deep");
	fresh[lvl] = 1;
	mlin[lvl] = (unsigned char)ml;
}

void
jclose(int c)
{
	if (!fresh[lvl] && multi(lvl))
		nlind(lvl - 1);
	putch(c);
	lvl--;
}

void
jkey(const char *k, size_t n, int pad)
{
	sep();
	need(n + 4 + (size_t)pad);
	obuf[olen++] = '"';
	memcpy(obuf + olen, k, n);
	olen += n;
	obuf[olen++] = '"';
	obuf[olen++] = ':';
	if (style != ST_KINETO)
		pad = 0;
	memset(obuf + olen, ' ', 1 + (size_t)pad);
	olen += 1 + (size_t)pad;
}


void
jstr(const char *s)
{
	size_t n = strlen(s);

	need(n + 2);
	obuf[olen++] = '"';
	memcpy(obuf + olen, s, n);
	olen += n;
	obuf[olen++] = '"';
}


void jel(void) { sep(); }

/* Member shorthands: key and value in one call. */
void
kstr(const char *k, size_t n, const char *v)
{
	jkey(k, n, 0);
	jstr(v);
}

void
knum(const char *k, size_t n, int64_t v)
{
	jkey(k, n, 0);
	puti(v);
}

void
jdim3(uint32_t x, uint32_t y, uint32_t z)
{
	jopen('[', 0);
	jel(); putu(x);
	jel(); putu(y);
	jel(); putu(z);
	jclose(']');
}

/* ------------------------------------------------------------------ */
/* Setup and teardown.                                                */

/* Begin the output to fp, name in messages, deflated when gzip is set. */
void
out_start(FILE *fp, const char *name, int gzip)
{
	ofp = fp;
	oname = name;
	gz = gzip;
	obuf = tl_realloc(NULL, OCAP);
	if (gz) {
		zbuf = tl_realloc(NULL, ZCAP);
		/* windowBits 31: a gzip wrapper with a zero mtime. */
		if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 31, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			tl_die("deflateInit2 failed");
	}
}

/* Drain the output and close its file. */
void
out_finish(void)
{
	oflush(1);
	if (gz)
		deflateEnd(&zs);
	if (fflush(ofp) == EOF || ferror(ofp))
		tl_die("%s: %s", oname, strerror(errno));
	if (fclose(ofp) == EOF)
		tl_die("%s: %s", oname, strerror(errno));
}

/* The JSON layout from now on: ST_*, and ST_INDENT's blanks a level. */
void
json_layout(int st, int w)
{
	style = st;
	indw = w;
}
