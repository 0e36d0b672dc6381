/* See LICENSE file for copyright and license details. */
/*
 * gentrace.h: what the source files of tl-gentrace share: its output
 * (out.c: a buffer drained to the -o file, through deflate with -z,
 * and the JSON writer of the Kineto trace), and the kinds of trace
 * other than the Kineto training run (tl-gentrace.c and the parts
 * model.h joins), each in a file of its own, reached from main()
 * through one option;
 * ranks.c makes the ranks of a rank set (-R) differ from one another;
 * rocprof.c writes the same training steps as rocprofv3 results (-F):
 * it gets the output layer, and the current step's GPU work as plain
 * values, so that both formats show the same workload.
 */
#ifndef GENTRACE_H
#define GENTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Output, through the generator's buffer (and deflate with -z): out.c. */
void out_start(FILE *fp, const char *name, int gz);
void out_finish(void);
void put(const char *s, size_t n);
void putch(int c);
void putu(uint64_t v);
void puti(int64_t v);
void putus(int64_t ns);
void putfix(int64_t micro);
#define PUTS(s)	put((s), sizeof(s) - 1)

/*
 * The JSON writer (out.c).  One call sequence serves the three layouts
 * (json_layout): Kineto's own (several members a line; jbr, jglue and
 * jpad are its hints), compact and Python's indent=N.  jopen's ml: 1,
 * members break on hints, 2, always.
 */
enum { ST_KINETO, ST_COMPACT, ST_INDENT };
void json_layout(int style, int indw);
void jopen(int c, int ml);
void jclose(int c);
void jkey(const char *k, size_t n, int pad);
void jstr(const char *s);
void jel(void);
void jbr(void);
void jglue(void);
void jpad(int n);
void kstr(const char *k, size_t n, const char *v);
void knum(const char *k, size_t n, int64_t v);
void jdim3(uint32_t x, uint32_t y, uint32_t z);
#define JK(k)		jkey((k), sizeof(k) - 1, 0)
#define JKP(k, p)	jkey((k), sizeof(k) - 1, (p))
#define JS(s)	PUTS("\"" s "\"")
#define KS(k, v)	kstr((k), sizeof(k) - 1, (v))
#define KN(k, v)	knum((k), sizeof(k) - 1, (v))

/* What a GPU event is (gtev.cat). */
enum { GT_KERNEL, GT_MEMCPY, GT_MEMSET, GT_OTHER };

/* One GPU event of the current step. */
struct gtev {
	int64_t ts;		/* start, ns, on the generator's clock */
	int64_t dur;		/* duration, ns */
	int64_t corr;		/* correlation id of the launch */
	int64_t bytes;		/* a copy's or fill's size */
	int cat;		/* GT_* */
	int role;		/* a kernel's index for gt_kernel, else -1 */
	int dir;		/* a copy's direction: 0 host to device, 1 back */
	int stream;		/* the stream id, as the Kineto trace shows it */
	int thread;		/* the launching thread's id */
	uint32_t grid[3];	/* a kernel's grid, in work-items */
};

/* Facts of the whole trace. */
struct gtinfo {
	uint64_t seed;		/* -s */
	int64_t t0;		/* profiler start, ns */
	int pid;		/* host process */
	const char *gpu;	/* device name */
	int cus;		/* its compute units */
	int rank;		/* the process's rank */
};

/* The generator's state (model.h), which main() owns. */
struct gen;

/* Kernels: the number of roles, and role r's name (JSON-escaped) and shape. */
int gt_nkernels(void);
const char *gt_kernel(const struct gen *gen, int r, int *bx, int *by,
    int *smem);
/* The current step's GPU events, in the generator's order. */
int gt_nevents(const struct gen *gen);
void gt_event(const struct gen *gen, int i, struct gtev *e);
void gt_info(const struct gen *gen, struct gtinfo *i);

/* rocprof.c: a rocprofv3 results file, begun, one step at a time, ended. */
void rocprof_begin(const struct gen *gen);
void rocprof_step(const struct gen *gen);
void rocprof_end(const struct gen *gen);

/* worst.c: write the worst-case trace KIND:N to fp; -1 on a bad spec. */
int worst_write(FILE *fp, const char *spec);

/*
 * change.c: known changes, -c.  Two traces of one seed, one written
 * with a change, differ by that change alone: every random draw is the
 * same, so a comparison of the two must find exactly it.
 */
/* Add one change (see tl-gentrace(1)); -1 when spec is not one. */
int change_add(const char *spec);
/*
 * The duration, in ns, of a GPU event of duration dur launched inside
 * the cpu_op named op (NULL for none), the event named name (JSON text,
 * as written in the trace).
 */
int64_t change_dur(const char *op, const char *name, int64_t dur);
/* The name (JSON text) to write for a GPU event named name. */
const char *change_name(const char *name);
/* Extra host time before each step, ns: the GPU idles that long. */
int64_t change_gap(void);

/* Append n bytes to the output. */
void gt_put(const void *p, size_t n);
/* Bytes of (uncompressed) output so far. */
uint64_t gt_written(void);

/*
 * -r: write the real trace at path again, its events repeated (copies
 * of them, or as many as reach size bytes, whichever is given; 0 for
 * none) with shifted times and fresh ids.
 */
void replicate(const char *path, int64_t copies, int64_t size);

/* GPUs a node has in a rank set of world ranks: 8, or world if fewer. */
int rank_gpus(int world);
/*
 * Parse -R's "rank/world"; 0, or -1 when it is not two whole numbers
 * with 0 <= rank < world, 2 <= world <= RANK_MAXWORLD.
 */
#define RANK_MAXWORLD 65536
int rank_parse(const char *s, int *rank, int *world);
/*
 * The arrival of rank r at collective number c of a process group of
 * members [first, first + n) in a job of world ranks: *delay is how
 * long after the earliest possible start it arrives, *late the delay
 * of the group's straggler, the largest, and *endj a jitter of its end
 * (0, 250 or 500 ns).  All in ns; every rank of the group gets the
 * same *late.
 */
void rank_arrival(uint64_t seed, int64_t c, int world, int first, int n,
    int r, int64_t *delay, int64_t *late, int64_t *endj);
/*
 * The split sizes of all_to_allv number c over world ranks, as rank r
 * sees them: in[j] elements it sends to rank j, out[j] those it
 * receives from j.  One rank is a hot spot that receives three times
 * as much.
 */
void rank_splits(uint64_t seed, int64_t c, int world, int r, int64_t *in,
    int64_t *out);

#endif
