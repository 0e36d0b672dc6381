/* See LICENSE file for copyright and license details. */
/*
 * agg.h: what the parts of tl-aggregate (the files beside it) share,
 * for them and tl-aggregate.c alone: the kernel-list summaries of
 * kstats and ktrunc (klist.c), the streaming subtraction of minus
 * (minus.c), and the statistics they borrow from tl-aggregate.c.
 * Include after tl.h.
 */
#ifndef TL_AGG_H
#define TL_AGG_H

/* ---- klist.c: a group's kernel lists (kstats, ktrunc) ---- */

struct klist;
/* What kl_put writes of a group's kernel lists. */
enum klmode {
	KL_STATS,	/* kstats */
	KL_STATSNC,	/* kstats without the call_stacks */
	KL_TRUNC,	/* ktrunc */
	KL_CSFULL,	/* call_stack_full */
	KL_CSFLAT	/* call_stack_full's names flattened, each ended by 037 */
};
struct klist *kl_new(void);
void kl_reset(struct klist *o);
void kl_add(struct klist *o, const char *json, size_t len, const char *opname,
    const char *field, struct rec_reader *r);
void kl_put(FILE *fp, struct klist *o, enum klmode mode, int exact);
void kl_free(struct klist *o);

/* ---- minus.c: the streaming subtraction of minus ---- */

/* A growable array of intervals. */
struct ivlist {
	struct iv *v;	/* intervals, owned */
	size_t n;	/* used */
	size_t cap;	/* allocated */
};

/*
 * A subtraction base - sub in progress, fed with final intervals in
 * start order: TraceLens's subtract_intervalsA_from_B one interval of
 * the base at a time.  It holds only the intervals of sub that may
 * still meet the base interval in progress or a later one.
 */
struct subtr {
	struct ivlist q;	/* closed intervals of sub, those before qh used up */
	size_t qh;		/* first interval of q still needed */
	int inb;		/* a base interval is in progress */
	union tv cur;		/* where its part not yet covered starts */
	union tv sum;		/* lengths of the pieces left, in order */
};

/* A minus in progress: B - A1, then (B - A1) - A2 when A2 is given. */
struct minus {
	struct merger *m;	/* mergers of B, A1 and A2, not owned */
	struct subtr sb[2];	/* B - A1, then (B - A1) - A2 */
	union tv sweep;		/* start of the last interval */
	int two;		/* A2 is given */
	int exact;		/* -x: times are exact nanoseconds */
};

void mn_reset(struct minus *mn, struct merger *m, int two, int exact);
void mn_add(struct minus *mn, int mi, union tv s, union tv e, int sint,
    int eint, const char *field, struct rec_reader *r);
union tv mn_sum(struct minus *mn);
void mn_free(struct minus *mn);

/* ---- tl-aggregate.c ---- */

double median(double *a, size_t n);

#endif
