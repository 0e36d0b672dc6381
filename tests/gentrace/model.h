/* See LICENSE file for copyright and license details. */
/*
 * model.h: what the parts of tl-gentrace's Kineto generator share: the
 * options, the trace's shape, the records of the step kept in memory
 * and the one struct gen that holds them, and the functions of each
 * part that the others call.  tl-gentrace.c sets up and runs the
 * steps; step.c builds a step's events; model.c, the model's passes;
 * emit.c writes them out.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>
#include <stdint.h>

/* Grow a per-step array so that index cnt is valid. */
#define GROW(arr, cnt, cap) do {					\
	if ((cnt) >= (cap)) {						\
		(cap) = (cap) ? (cap) * 2 : 1024;			\
		(arr) = xrealloc((arr), (cap), sizeof(*(arr)));		\
	}								\
} while (0)

/* xrealloc: tl_realloc of n elements of sz bytes, checked for overflow. */
void *xrealloc(void *p, size_t n, size_t sz);

/* ------------------------------------------------------------------ */
/* Options and the per-seed shape of the trace.                       */

/* The options, the one global (tl-gentrace.c). */
struct options {
	uint64_t	 seed;		/* -s */
	int64_t		 size;		/* -S in bytes, 0 if not given */
	int64_t		 steps;		/* -n, 0 if not given */
	int		 amd;		/* -g amd */
	int		 gz;		/* -z */
	int		 rocprof;	/* -F rocprof */
	int		 gpu;		/* -g or -s was given */
	const char	*out;		/* -o, NULL for stdout */
	int		 rank;		/* -R: our rank in the set */
	int		 world;		/* -R: ranks in the set, 0 without -R */
	const char	*real;		/* -r, NULL if not given */
};
extern struct options opt;

enum { A_SM80, A_SM90, A_SM100, A_GFX90A, A_GFX942 };

struct gpu {			/* device model */
	const char	*name;		/* deviceProperties name */
	int64_t		 mem;		/* totalGlobalMem */
	int		 major, minor;	/* compute capability or gfx version */
	int		 sms;		/* numSms (CUs on AMD) */
	int		 warp;		/* warpSize */
	int		 regs;		/* regsPerBlock */
	int		 smemblk;	/* sharedMemPerBlock */
	int		 smemsm;	/* shared memory per multiprocessor */
	int		 optin;		/* sharedMemPerBlockOptin, NVIDIA */
	int		 tflops;	/* bf16 rate our GEMMs reach */
	int		 gbs;		/* bandwidth our copies reach, GB/s */
	int		 arch;		/* kernel name family, A_* */
};

struct shape {		/* the per-seed shape of the trace */
	int		 style;		/* ST_* */
	int		 indw;		/* ST_INDENT: blanks per level */
	int		 oneline;	/* ST_COMPACT: no newline at all */
	int		 late;		/* header keys after traceEvents */
	int		 relts;		/* small ts plus baseTimeNanoseconds */
	int		 metafirst;	/* metadata events open traceEvents */
	int		 stepop;	/* ProfilerStep is a cpu_op */
	int		 world;		/* data-parallel size, 1 = no NCCL */
	int		 rank;		/* our rank, also the local GPU */
	int		 gpupid;	/* pid and "device" of the GPU rows */
	int		 pid;		/* host process */
	int		 tid[2];	/* main and autograd thread */
	int		 stream[3];	/* compute, copy and NCCL stream */
	const struct gpu *g;		/* device model */
	int		 L;		/* decoder layers */
	int		 B;		/* batch */
	int		 S;		/* text tokens per sample */
	int		 P;		/* image patches per sample */
	int		 T;		/* tokens per sample, S + P */
	int		 H;		/* hidden size */
	int		 nh;		/* attention heads */
	int		 hd;		/* head size */
	int		 F;		/* MLP size */
	int		 V;		/* vocabulary */
	int		 img;		/* image side, pixels */
	int		 patch;		/* patch side, pixels */
	int		 bucket;	/* decoder layers per DDP bucket */
	int64_t		 t0;		/* profiler start, ns */
	int64_t		 base;		/* baseTimeNanoseconds, relts only */
	char		 traceid[33];	/* trace_id */
	char		 tname[64];	/* traceName */
};

/* ------------------------------------------------------------------ */
/* Runtime calls and kernels.                                         */

enum {				/* runtime calls we issue */
	L_LAUNCH,		/* plain kernel launch */
	L_LAUNCHEX,		/* extended launch (cuBLAS, hipBLASLt) */
	L_MODLAUNCH,		/* module launch (Triton, aotriton) */
	L_MEMCPY,
	L_MEMSET,
	L_GRAPH,
	L_SYNC,
	L_EVREC,
	L_WAIT,
	NAPI
};

struct api {			/* a runtime or driver entry point */
	const char	*name;		/* as the tracer reports it */
	int		 cbid;		/* CUPTI cbid or roctracer cid */
	int		 driver;	/* cat is cuda_driver, not runtime */
};

enum {				/* what a kernel does for the model */
	K_GEMM0, K_GEMM1, K_GEMM2, K_GEMM3,
	K_LNF, K_LNBI, K_LNBG,
	K_COPY, K_ADD, K_MUL, K_DIV, K_GELU, K_GELUB,
	K_ATTF, K_ATTB0, K_ATTB1, K_ATTB2,
	K_IDXSEL, K_EMBB, K_CAT,
	K_CONVT, K_CONVF, K_CONVW,
	K_LSMF, K_LSMB, K_NLLF, K_NLLB, K_FILL,
	K_SUM, K_MEAN,
	K_FADD, K_ADAM,
	K_NCCL0, K_NCCL1,
	K_TAB,
	K_NCCLSR, K_NCCLAG,		/* -R only: all_to_allv, all-gather */
	NKROLE
};

struct kdef {			/* a kernel as the tracer reports it */
	const char	*name;		/* demangled name, JSON-escaped */
	int		 regs;		/* registers per thread */
	int		 smem;		/* shared memory per block */
	int		 bx, by;	/* block shape */
	int		 occ;		/* est. achieved occupancy % */
	int		 api;		/* launch call, L_* */
};

/* ------------------------------------------------------------------ */
/* One training step, kept in memory until it is written out.         */

enum { H_CPU, H_UANN, H_PY, H_RT, H_INST };	/* host event categories */
enum { G_KERNEL, G_MEMCPY, G_MEMSET, G_UANN };	/* GPU event categories */
enum {				/* argument layouts of host events */
	A_OP,			/* aten op: ids, shapes */
	A_NODE,			/* autograd node: Sequence number first */
	A_EVAL,			/* evaluate_function: no shapes */
	A_ANN,			/* annotation: External id only */
	A_COMMS,		/* record_param_comms */
	A_PY,			/* python_function */
	A_RT,			/* runtime or driver call */
	A_MEM			/* [memory] instant */
};
enum { TY_BF16, TY_F32, TY_I64, TY_SCALAR, TY_LIST, TY_NONE, TY_TLIST };

enum { IN_PLAIN, IN_LIST, IN_INT };	/* how an input's Concrete value prints */

struct inp {			/* one operator input as record_shapes saw it */
	const char	*conc;		/* Concrete Inputs text, IN_PLAIN */
	int32_t		 d[4];		/* sizes, or the value of IN_LIST/IN_INT */
	uint8_t		 ty;		/* TY_* */
	uint8_t		 nd;		/* rank; list length for IN_LIST */
	uint8_t		 tr;		/* transposed view: last strides swapped */
	uint8_t		 how;		/* IN_* */
};

struct hev {			/* host event */
	int64_t		 ts;		/* start, ns */
	int64_t		 dur;		/* duration, ns */
	const char	*name;		/* JSON-escaped; NULL is ProfilerStep#n */
	int64_t		 id;		/* External id, Python id, correlation, address */
	int64_t		 aux;		/* Python parent id (0 = null), External id of
					   a runtime call (-1 = none), bytes, elements */
	int64_t		 seq;		/* Sequence number (-1 = none), total allocated */
	int32_t		 in0;		/* first input in inp[] */
	int32_t		 nin;		/* inputs, -1 when shapes are not shown */
	int32_t		 g;		/* GPU event of a launch, -1 if none */
	int32_t		 cix;		/* record_param_comms: its collective in cv[] */
	int16_t		 modid;		/* Python module id + 1, 0 if none */
	uint8_t		 api;		/* L_* of a runtime call */
	uint8_t		 cat;		/* H_* */
	uint8_t		 kind;		/* A_* */
	uint8_t		 thr;		/* 0 main thread, 1 autograd thread */
	uint8_t		 alt;		/* written with the alternate key order */
};

struct gev {			/* GPU event */
	int64_t		 ts;		/* start, ns */
	int64_t		 dur;		/* duration, ns */
	int64_t		 lts;		/* start of the launching call, ns */
	int64_t		 ext;		/* External id, -1 if none */
	int64_t		 corr;		/* correlation id */
	int64_t		 bytes;		/* copy size; NCCL element count */
	const struct kdef *k;		/* kernel; NULL for copies, annotations */
	const char	*name;		/* copy or annotation name, NULL = step */
	uint32_t	 grid[3];	/* launch grid in blocks */
	int		 stream;	/* stream index into tr.stream */
	int32_t		 cix;		/* an NCCL kernel's collective in cv[] */
	uint8_t		 cat;		/* G_* */
	uint8_t		 lthr;		/* launching thread */
	uint8_t		 first;		/* first event of its correlation */
	uint8_t		 coll;		/* an NCCL kernel: cix is set */
	uint8_t		 dir;		/* copy direction: 0 HtoD, 1 DtoH */
};

enum {				/* autograd nodes the forward pass records */
	N_ADDMM, N_MM, N_T, N_LN, N_SDPA, N_ADD, N_GELU, N_VIEW, N_SPLIT,
	N_TRANSPOSE, N_CLONE, N_UVIEW, N_EMB, N_CONV, N_CAT, N_LOGSM, N_NLL,
	N_MEAN, N_MUL, NNODE
};

struct tape {			/* forward op the backward pass revisits */
	int64_t		 seq;		/* Sequence number of the pair */
	int64_t		 ts;		/* forward op start, for fwdbwd flows */
	int32_t		 a, b, c, d;	/* node-specific sizes */
	uint8_t		 node;		/* N_* */
	uint8_t		 flush;		/* a DDP bucket is ready after it */
};

struct fbf {			/* forward-backward flow */
	int64_t		 fts;		/* forward op start */
	int64_t		 bts;		/* backward node start */
};

struct thr {			/* simulated host thread */
	int64_t		 now;		/* its clock, ns */
	int		 idx;		/* 0 main thread, 1 autograd thread */
	int		 sp;		/* open events */
	int		 stk[64];	/* open events, indices into hv[] */
	int		 last;		/* most recently closed event */
};

/* A collective, as its NCCL kernel and record_param_comms show it. */
struct coll {
	const char	*name;		/* Collective name */
	const char	*pg;		/* Process Group Name */
	const char	*desc;		/* Process Group Description */
	const char	*ranks;		/* Process Group Ranks, not owned */
	int		 size;		/* Group size */
	int		 first;		/* its first global rank */
	int64_t		 in, out;	/* In and Out msg nelems */
	char		*insplit;	/* In split size, "[]" or "[a, b]", owned */
	char		*outsplit;	/* Out split size, owned */
};

enum { C_VLM, C_PATCH, C_CONV, C_EMB, C_LAYER, C_ATTN, C_MLP, C_GELU,
    C_LN, C_LIN, NCLS };		/* module classes, for their names */

/*
 * The generator's state: the trace's shape, the random stream, the
 * step in memory and the counters that run across steps.  main() owns
 * the one instance; every part of the generator gets it by pointer.
 */
struct gen {
	struct shape	 tr;		/* the per-seed shape of the trace */
	uint64_t	 rs;		/* random generator state */
	const struct api *api;		/* table of the chosen flavour */
	const struct kdef *kt[NKROLE];	/* kernels of the chosen device */
	const char	*evalname[NNODE];	/* "autograd::engine::..." */
	char		**mname[NCLS];	/* "nn.Module: Cls_k", built once */
	struct hev	*hv;		/* host events of the step */
	int		 nhv;		/* their number */
	int		 hvcap;		/* and room */
	struct gev	*gv;		/* GPU events of the step */
	int		 ngv;		/* their number */
	int		 gvcap;		/* and room */
	struct inp	*inp;		/* inputs of the step's ops */
	int		 ninp;		/* their number */
	int		 inpcap;	/* and room */
	struct tape	*tp;		/* autograd tape of the step */
	int		 ntp;		/* its length */
	int		 tpcap;		/* and room */
	struct fbf	*fb;		/* fwdbwd flows of the step */
	int		 nfb;		/* their number */
	int		 fbcap;		/* and room */
	int64_t		*allocs;	/* live allocations, freed later */
	int		 nalloc;	/* their number */
	int		 alloccap;	/* and room */
	struct thr	 th[2];		/* main and autograd thread */
	int64_t		 sfree[3];	/* per stream: idle from, ns */
	int64_t		 next_ext;	/* External id, from 1 */
	int64_t		 next_py;	/* Python id (1, 2: the top frames) */
	int64_t		 next_corr;	/* correlation id, from 1 */
	int64_t		 next_seq;	/* Sequence number */
	int64_t		 next_fb;	/* fwdbwd flow id, from 1 */
	int64_t		 evidx;		/* Ev Idx */
	int64_t		 stepno;	/* number in ProfilerStep#n */
	int64_t		 memtot;	/* Total Allocated for [memory] */
	int64_t		 nparams;	/* parameter tensors */
	int64_t		 pelems;	/* parameter elements */
	int		 bleed;		/* nesting bleed still owed this step */
	/*
	 * Extra host gap, ns.  A double holds epoch-scale microseconds to
	 * only a quarter microsecond, so there gaps grow enough for
	 * consumers that parse times as doubles to still see strict nesting.
	 */
	int64_t		 slack;
	char		*ranks;		/* "[0, 1, ...]" of the default group */
	char		*nranks;	/* -R: the same of our node's group */
	char		 npg[16];	/* -R: our node's group's name */
	int64_t		 ncoll;		/* -R: collectives so far, all groups */
	struct coll	*cv;		/* this step's collectives */
	int		 ncv;		/* their number */
	int		 cvcap;		/* and room */
};

enum { SC_, SCP, SNC };		/* stream indices: compute, copy, NCCL */

#define BF	TY_BF16

/* The inputs of the op begun last (addin), with gen in scope. */
#define T0(ty)			addin(gen, ty, 0, 0, IN_PLAIN, "", 0, 0, 0, 0)
#define T1(ty, a)		addin(gen, ty, 1, 0, IN_PLAIN, "", a, 0, 0, 0)
#define T2(ty, a, b)		addin(gen, ty, 2, 0, IN_PLAIN, "", a, b, 0, 0)
#define T3(ty, a, b, c)		addin(gen, ty, 3, 0, IN_PLAIN, "", a, b, c, 0)
#define T4(ty, a, b, c, d)	addin(gen, ty, 4, 0, IN_PLAIN, "", a, b, c, d)
#define TT(ty, a, b)		addin(gen, ty, 2, 1, IN_PLAIN, "", a, b, 0, 0)
#define SC(s)		addin(gen, TY_SCALAR, 0, 0, IN_PLAIN, s, 0, 0, 0, 0)
#define SI(v)		addin(gen, TY_SCALAR, 0, 0, IN_INT, NULL, v, 0, 0, 0)
#define L0()		addin(gen, TY_LIST, 0, 0, IN_LIST, NULL, 0, 0, 0, 0)
#define L1(a)		addin(gen, TY_LIST, 1, 0, IN_LIST, NULL, a, 0, 0, 0)
#define L2(a, b)	addin(gen, TY_LIST, 2, 0, IN_LIST, NULL, a, b, 0, 0)
#define L3(a, b, c)	addin(gen, TY_LIST, 3, 0, IN_LIST, NULL, a, b, c, 0)
#define L4(a, b, c, d)	addin(gen, TY_LIST, 4, 0, IN_LIST, NULL, a, b, c, d)
#define NO()		addin(gen, TY_NONE, 0, 0, IN_PLAIN, "", 0, 0, 0, 0)
#define TL()		addin(gen, TY_TLIST, 0, 0, IN_PLAIN, "", 0, 0, 0, 0)

/* step.c: random numbers, host events and their inputs, GPU work */
uint64_t rnd(struct gen *gen);
int64_t urange(struct gen *gen, int64_t lo, int64_t hi);
int chance(struct gen *gen, unsigned n);
int64_t imax(int64_t a, int64_t b);
int beg(struct gen *gen, struct thr *t, int cat, const char *name);
void end(struct gen *gen, struct thr *t);
void endn(struct gen *gen, struct thr *t, int n);
void endbleed(struct gen *gen, struct thr *t);
void leaf(struct gen *gen, struct thr *t);
int op(struct gen *gen, struct thr *t, const char *name);
void py(struct gen *gen, struct thr *t, const char *name);
int opseq(struct gen *gen, struct thr *t, const char *name, int node, int a,
    int b, int c, int d);
void addin(struct gen *gen, int ty, int nd, int tr_, int how,
    const char *conc, int64_t a, int64_t b, int64_t c, int64_t d);
void memev(struct gen *gen, struct thr *t, int64_t bytes);
void memfree(struct gen *gen, struct thr *t);
void f_empty(struct gen *gen, struct thr *t, int64_t a, int64_t b);
int gnew(struct gen *gen);
int64_t gemm_ns(struct gen *gen, int64_t m, int64_t n, int64_t k);
int64_t mem_ns(struct gen *gen, int64_t bytes);
uint32_t clampgrid(int64_t v);
uint32_t egrid(struct gen *gen, int role, int64_t numel);
int gemmrole(int64_t m, int64_t n, int64_t k);
int launch(struct gen *gen, struct thr *t, int role, int s, int64_t ns,
    uint32_t gx, uint32_t gy);
void memop(struct gen *gen, struct thr *t, int cat, const char *name, int s,
    int64_t bytes, int dir);
void rtcall(struct gen *gen, struct thr *t, int a);
void graph(struct gen *gen, struct thr *t, int nk, int64_t ns);
void syncall(struct gen *gen, struct thr *t);
void allreduce(struct gen *gen, struct thr *t, int64_t nelem);
void alltoallv(struct gen *gen, struct thr *t);
void nodegather(struct gen *gen, struct thr *t);

/* model.c: the model's forward and backward pass, a whole step */
void mkmnames(struct gen *gen);
void genstep(struct gen *gen);

/* emit.c: the step written out as Kineto events */
void emitstep(struct gen *gen);
void begintrace(struct gen *gen);
void endtrace(struct gen *gen);

#endif
