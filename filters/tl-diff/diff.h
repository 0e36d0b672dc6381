/* See LICENSE file for copyright and license details. */
/*
 * diff.h: what the parts of tl-diff (the files beside it) share, for
 * them and tl-diff.c alone: a root group's nodes, the lists and steps
 * of an alignment, the merge in progress, and the functions each part
 * gives the others.  Include after tl.h.
 */
#ifndef TL_DIFF_H
#define TL_DIFF_H

/* Text fields of a node, copied from its record (unescaped). */
enum { T_CAT, T_NAME, T_TS, T_DUR, T_NGPU, T_CPUOP, T_CPUOPNAME, T_DIMS,
	T_TYPES, T_STRIDES, T_CONCRETE, NTXT };

/* Input columns: rank, UID, parent, then the text fields (side.c's incols). */
enum { NIN = 3 + NTXT };

/* One host or GPU event of a root group. */
struct node {
	long long uid;		/* UID in its trace */
	long long parent;	/* parent UID (the runtime for GPU events) */
	int hasparent;		/* parent is set */
	int par;		/* index of the parent in the group, -1 for none */
	double ts;		/* ts as Python's float() reads it */
	char *t[NTXT];		/* text fields, in one block, t[0]'s, owned */
	char *norm;		/* normalised name, owned; NULL for an empty name */
	int gpuev;		/* a GPU event (kernel, gpu_memcpy, gpu_memset) */
	int gpupath;		/* on a GPU path (not TraceLens's non_gpu_path) */
	int dispatch;		/* cuda_runtime/cuda_driver, not a graph launch */
	int cpuop;		/* cat is cpu_op */
	int extra;		/* linked to a runtime but off the GPU path (cuda_sync ...) */
	int *kids;		/* children indices, owned */
	size_t nkids;		/* children used */
	size_t kcap;		/* children allocated */
};

/* One input: its reader and the current root group. */
struct side {
	struct rec_reader r;	/* the reader */
	FILE *fp;		/* the stream, owned unless stdin */
	int col[NIN];		/* column index of each incols[] entry */
	int pending;		/* r holds a record of the next group */
	int eof;		/* no more records */
	char *rank;		/* rank of the current group, owned */
	char *prevrank;		/* rank of the previous group, owned */
	struct node *n;		/* nodes of the group, owned */
	size_t nn;		/* nodes used */
	size_t cap;		/* nodes allocated */
	int *byuid;		/* node indices sorted by UID, owned */
	int root;		/* index of the node the merge starts at */
};

/* An alignment step: match (i, j), delete i or insert j. */
struct op {
	char t;			/* 'm', 'd' or 'i' */
	int i;			/* index in list 1, -1 for an insert */
	int j;			/* index in list 2, -1 for a delete */
};

/* A list of node indices. */
struct ilist {
	int *v;			/* indices, owned */
	size_t n;		/* used */
	size_t cap;		/* allocated */
};

/* A list of ops. */
struct oplist {
	struct op *v;		/* ops, owned */
	size_t n;		/* used */
	size_t cap;		/* allocated */
};

/*
 * One merged node whose children are still to be merged: TraceLens's
 * traverse_and_merge recurses here, tl-diff keeps a stack of these, so
 * that the depth of a call tree is bounded by memory, not by the C stack.
 */
struct frame {
	struct oplist ops;	/* the children's alignment, owned */
	struct ilist c1, c2;	/* the children of each side, owned */
	long long id;		/* the merged node's id, the children's parent */
	size_t next;		/* the next step of ops to merge */
};

/* The merge of one pair of root groups. */
struct merge {
	struct side *s[2];	/* the two groups, not owned */
	long long nextid;	/* next merged id (over all roots) */
	long long rootidx;	/* position of the root pair */
	long long *seen;	/* hash set of (index1+1, index2+1) pairs merged, 0 = free; owned */
	size_t nseen;		/* pairs in the set */
	size_t seencap;		/* slots, a power of two */
	size_t *used;		/* slots filled since unmark(), owned */
	size_t usedcap;		/* allocated size of used */
	FILE *out;		/* merged records */
	struct frame *stack;	/* merge's stack of open nodes, owned */
	size_t stackcap;	/* frames allocated */
};

static inline void
ipush(struct ilist *l, int v)
{
	tl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = v;
}

static inline void
opush(struct oplist *l, char t, int i, int j)
{
	tl_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n].t = t;
	l->v[l->n].i = i;
	l->v[l->n].j = j;
	l->n++;
}

/* ---- names.c ---- */

char *normalize(const char *name, int strip);
int nameeq(const char *a, const char *b);

/* ---- side.c ---- */

void side_open(struct side *s, const char *path);
void side_free_group(struct side *s);
int side_next(struct side *s);

/* ---- wf.c ---- */

void sortts(struct side *s, int *v, size_t n);
void gpukids(struct side *s, int k, struct ilist *out);
void alignedwf(struct merge *m, const int *a, size_t na, const int *b,
    size_t nb, int strip, struct oplist *ops);

/* ---- children.c ---- */

int anydispatch(struct side *s, const int *v, size_t n);
int collapse(struct side *s, int k, struct ilist *kids);
void childlists(struct merge *m, int u1, int u2, struct ilist *c1,
    struct ilist *c2);
int reconcile(struct merge *m, struct oplist *ops, struct ilist *c1,
    struct ilist *c2);
void recollapse(struct merge *m, struct oplist *ops, struct ilist *c1,
    struct ilist *c2);

/* ---- merge.c ---- */

void tldiff(struct side *a, struct side *b, FILE *out);

#endif
