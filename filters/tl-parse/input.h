/* See LICENSE file for copyright and license details. */
/*
 * tl-parse/input.h: what tl-parse reads a trace with, apart from the
 * scanners: the -P progress lines, and a gzip file inflated by a thread
 * of its own (so that parsing overlaps decompression), handed over a
 * slot of text at a time.
 */
#ifndef TL_PARSE_INPUT_H
#define TL_PARSE_INPUT_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define ZINBUF (256 << 10)	/* bytes per read() of gzip input */
#define SLOTS 4			/* inflated chunks in flight */
/* (small: a fresh page costs a fault; 4 slots of 1 MiB took 8% of the
 * time of a 20 MB trace, in the 1,500 faults more they made) */
#define SLOTSZ (128 << 10)	/* bytes of text in one chunk */

/* How much of one trace has been read, for -P. */
struct progress {
	int fd;			/* -P's file, or -1: none */
	char id[48];		/* the trace's id: our pid, a dot, its number */
	uint64_t read;		/* bytes read of it so far */
	char size[24];		/* its size in decimal; empty when unknown */
	struct timespec last;	/* when the last line went; 0: none yet */
};

/* One buffer of inflated text passed from the inflater to the parser. */
struct slot {
	char *b;	/* SLOTSZ bytes, owned by the gz */
	size_t len;	/* bytes of text in b */
	int full;	/* 1: the parser's turn; 0: the inflater's */
	int last;	/* no slot follows this one */
	const char *err;	/* after the last slot: what went wrong, or NULL */
	int errnum;	/* ... or a read error's errno */
	int trunc;	/* the error is a truncated stream */
};

/* Inflating one gzip file in a thread of its own. */
struct gz {
	pthread_mutex_t mu;	/* guards full in the slots */
	pthread_cond_t cv;	/* signalled when a slot changes hands */
	struct slot slot[SLOTS];	/* filled in turn */
	int fd;			/* the compressed input, not owned */
	struct progress *pr;	/* its bytes read, counted by the thread */
	unsigned char *in;	/* compressed input buffer, owned */
	size_t inlen;		/* bytes already in it when the thread starts */
	pthread_t th;		/* the inflater thread */
	int next;		/* the slot the parser takes next */
	struct slot *cur;	/* the slot the parser holds, or NULL */
};

/* -P: n more bytes of the trace read (last: the trace's end). */
void progress(struct progress *p, size_t n, int last);
/* -P: a new trace, the i-th operand, on fd. */
void progressinit(struct progress *p, int fd, int i);
/* -P's file, or -1: none (a fifo nobody reads). */
int progressopen(const char *path);

/*
 * Inflate gzip input from fd, whose first bytes buf[0..n) were read
 * already, counting the bytes read in pr.  gz_next gives the slots of
 * text in turn, each once the one before is given back, and NULL after
 * the last; gz_end waits for the thread and returns the last slot (its
 * err, errnum and trunc say how the stream ended); gz_free frees g.
 */
void gz_start(struct gz *g, int fd, const char *buf, size_t n,
    struct progress *pr);
struct slot *gz_next(struct gz *g);
struct slot *gz_end(struct gz *g);
void gz_free(struct gz *g);

#endif
