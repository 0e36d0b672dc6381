/* See LICENSE file for copyright and license details. */
/*
 * rocprof.h: read rocprofv3 (ROCprofiler-SDK) JSON results as tl(7)
 * records, without holding the file.
 *
 * A results file is one object whose key rocprofiler-sdk-tool holds a
 * list of per-process results: metadata, agents, kernel_symbols,
 * buffer_records (kernel_dispatch, memory_copy ...) and more.  The
 * scanner (rp_*) is fed the JSON text in chunks of any size; it checks
 * the whole text against the JSON grammar (its scalars through jlex.h,
 * as jscan.c does), while it follows the path to the parts that become
 * records.  Each of those (a process's metadata, a kernel symbol, a
 * dispatch, a memory copy) is gathered whole, its members found by
 * jwalk.h, and handed to a callback as one record.  Everything else is checked and skipped.
 *
 * Memory: one record's text, and the current process's kernel symbol
 * table (one name per kernel id), so that a dispatch gets its name as
 * it passes.  A dispatch read before its process's kernel_symbols has
 * no name yet: its symbol field is empty, and the consumer joins it
 * with the kernel_symbol records by kernel_id (by sort).
 */
#ifndef ROCPROF_H
#define ROCPROF_H

#include <stddef.h>
#include <stdint.h>

#include "jlex.h"

#define RP_KEY "rocprofiler-sdk-tool"	/* the top-level key */
#define RP_MAXDEPTH 1024		/* deepest nesting accepted */
#define RP_NUMMAX 1024			/* longest number written without exponent */

struct buf;

/* The fields a record can fill, in rp_deffields order. */
enum {
	RF_UID, RF_PH, RF_CAT, RF_NAME, RF_PROCESS, RF_PID, RF_TID, RF_TS,
	RF_DUR, RF_START, RF_END, RF_STREAM, RF_QUEUE, RF_AGENT, RF_CORR,
	RF_EXT, RF_KID, RF_DISP, RF_SYMBOL, RF_GX, RF_GY, RF_GZ, RF_BX,
	RF_BY, RF_BZ, RF_BYTES, RF_SRC, RF_DST, NRF
};

/* One field's value. */
struct rpval {
	const char *s;	/* its text, valid during the callback */
	uint32_t n;	/* its length */
	char how;	/* 0 missing; 's' JSON string body; 'j' other JSON value; 'x' tl(7) text */
};

/* One record: its fields, by RF_ index. */
struct rprec {
	struct rpval v[NRF];	/* missing fields have how 0 */
};

typedef void rp_fn(void *arg, const struct rprec *r);

/* A symbol table entry: a kernel id and the name TraceLens gives it. */
struct rpsym {
	char *key;	/* the id, typed as Python would compare it; owned */
	char *name;	/* the name as a tl(7) field; owned; NULL: empty slot */
	size_t keylen;	/* length of key */
	size_t namelen;	/* length of name */
};

/*
 * The scanner's state between two chunks.  Ownership: the scanner owns
 * cap and syms; the caller owns arg.
 */
struct rpscan {
	size_t maxrec;		/* a record longer than this is an error */
	rp_fn *onrec;		/* called for each record */
	void *arg;		/* passed to onrec */

	uint64_t off;		/* stream offset of the next chunk's first byte */
	uint64_t nrec;		/* records done: the UID of the next one */
	uint64_t lastend;	/* offset just past the last complete record */
	int seenrec;		/* some record was handed out */
	int state;		/* where scanning resumes (enum in rocprof.c) */
	int iskey;		/* the string being read is an object key */
	int keep;		/* ... and its text is kept in key */
	struct jlex lx;		/* the string, number or literal being read */
	unsigned depth;		/* open objects and arrays */
	char kind[RP_MAXDEPTH];	/* '{' or '[' for each open level */
	char role[RP_MAXDEPTH];	/* what each open level is (enum in rocprof.c) */
	int pending;		/* the role of the value after the last key */
	char key[24];		/* raw text of a key that may matter */
	size_t keylen;		/* its length (may exceed sizeof key) */
	uint64_t keyoff;	/* stream offset of its opening quote */
	int seentool;		/* the rocprofiler-sdk-tool key was read */
	int inrec;		/* a record's text is being gathered */
	unsigned recdepth;	/* depth outside the record being gathered */
	int rectype;		/* what it is (enum in rocprof.c) */
	unsigned inarr;		/* depth of the records array we are in, 0 outside */
	char *cap;		/* the record's text, when it straddles chunks */
	size_t caplen;		/* bytes of it gathered */
	size_t capcap;		/* allocated size of cap */

	uint64_t proc;		/* index of the current process result */
	int seen;		/* keys seen in it (bits, enum in rocprof.c) */
	int symdone;		/* its kernel_symbols array is complete */
	struct rpsym *syms;	/* its symbol table (open addressing) */
	size_t nsym;		/* entries used */
	size_t symcap;		/* slots, a power of two */

	const char *err;	/* what went wrong, or NULL */
	uint64_t erroff;	/* stream offset of the offending byte */
	int errinrec;		/* the error is inside a records array */
	int truncated;		/* the error is an early end of input */
	char errbuf[64];	/* err, when it has to be formatted */
};

/* The default fields of rocprofv3 records, comma-separated. */
extern const char rp_deffields[];

/*
 * Does the text p[0..n) start a rocprofv3 file (an object whose first
 * key is rocprofiler-sdk-tool)?  1 yes, 0 no, -1 cannot tell yet.
 */
int rp_sniff(const char *p, size_t n);
/* The RF_ index of the field called name, or -1. */
int rp_field(const char *name);
/* Start a new stream (s zeroed, or used before); maxrec 0: 64 MiB. */
void rp_init(struct rpscan *s, size_t maxrec, rp_fn *fn, void *arg);
/* Scan the next n bytes; 0, or -1 with s->err set. */
int rp_feed(struct rpscan *s, const char *p, size_t n);
/* The stream ended; 0 if it was whole, else -1 with s->err set. */
int rp_end(struct rpscan *s);
void rp_free(struct rpscan *s);
/*
 * Append record r to b as one tl(7) line: the fields map[0..n) (RF_
 * indexes, -1 for a field it has not), TAB-separated, then a newline.
 * A number with an exponent is written as a plain decimal; 0, or i + 1
 * when field i is one too large for RP_NUMMAX bytes (b is then partial).
 */
int rp_format(struct buf *b, const struct rprec *r, const int *map, size_t n);

#endif
