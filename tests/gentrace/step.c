/* See LICENSE file for copyright and license details. */
/*
 * step.c: the training step of tl-gentrace as it is built in memory
 * (struct gen, model.h): the random numbers, the host events on the
 * simulated threads and their operator inputs, and the GPU work they
 * launch, copies, CUDA graphs and the NCCL collectives.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentrace.h"
#include "model.h"
#include "tl.h"

/* ------------------------------------------------------------------ */
/* Random numbers: splitmix64, so output depends on the seed alone.   */

uint64_t
rnd(struct gen *gen)
{
	uint64_t z;

	z = (gen->rs += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int64_t
urange(struct gen *gen, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(gen) % (uint64_t)(hi - lo + 1));
}

int
chance(struct gen *gen, unsigned n)
{
	return rnd(gen) % n == 0;
}

/* Real durations wobble a few percent from step to step. */
static int64_t
jitter(struct gen *gen, int64_t v)
{
	return v + (v / 1000) * urange(gen, -60, 60);
}

int64_t
imax(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Begin a host event on t; it stays open until end(). */
int
beg(struct gen *gen, struct thr *t, int cat, const char *name)
{
	struct hev *h;
	int i, j, c;

	GROW(gen->hv, gen->nhv, gen->hvcap);
	i = gen->nhv++;
	h = &gen->hv[i];
	t->now += (cat == H_PY ? urange(gen, 500, 2500) :
	    urange(gen, 250, 1500)) + gen->slack;
	memset(h, 0, sizeof(*h));
	h->ts = t->now;
	h->name = name;
	h->cat = (uint8_t)cat;
	h->thr = (uint8_t)t->idx;
	h->alt = chance(gen, 48);
	h->seq = -1;
	h->nin = -1;
	h->in0 = gen->ninp;
	h->g = -1;
	switch (cat) {
	case H_CPU:
		h->kind = A_OP;
		h->id = gen->next_ext++;
		h->nin = 0;
		break;
	case H_UANN:
		h->kind = A_ANN;
		h->id = gen->next_ext++;
		break;
	case H_PY:
		h->kind = A_PY;
		h->id = gen->next_py++;
		/* Frames outside any other hang off main(), id 2. */
		h->aux = t->idx == 0 ? 2 : 0;
		for (j = t->sp - 1; j >= 0; j--)
			if (gen->hv[t->stk[j]].cat == H_PY) {
				h->aux = gen->hv[t->stk[j]].id;
				break;
			}
		break;
	case H_RT:
		h->kind = A_RT;
		h->id = gen->next_corr++;
		h->aux = -1;
		for (j = t->sp - 1; j >= 0; j--) {
			c = gen->hv[t->stk[j]].cat;
			if (c == H_CPU || c == H_UANN) {
				h->aux = gen->hv[t->stk[j]].id;
				break;
			}
		}
		break;
	}
	if (t->sp >= 64)
		tl_die("call stack too deep");
	t->stk[t->sp++] = i;
	return i;
}

void
end(struct gen *gen, struct thr *t)
{
	int i = t->stk[--t->sp];

	t->now += urange(gen, 200, 1100) + gen->slack;
	gen->hv[i].dur = t->now - gen->hv[i].ts;
	t->last = i;
}

void
endn(struct gen *gen, struct thr *t, int n)
{
	while (n-- > 0)
		end(gen, t);
}

/*
 * Close the open event a little before its last child ends.  Real
 * traces show such sub-microsecond bleeds from clock rounding, and
 * consumers that rebuild the call tree must cope with them.
 */
void
endbleed(struct gen *gen, struct thr *t)
{
	int i = t->stk[--t->sp];
	int64_t b = urange(gen, 100, 700);

	if (b > gen->hv[t->last].dur / 2)
		b = gen->hv[t->last].dur / 2;
	gen->hv[i].dur = t->now - b - gen->hv[i].ts;
	t->now += urange(gen, 1200, 2500);
	t->last = i;
}

/* A leaf op: some work, then close it. */
void
leaf(struct gen *gen, struct thr *t)
{
	t->now += urange(gen, 300, 2500) + gen->slack;
	end(gen, t);
}

int
op(struct gen *gen, struct thr *t, const char *name)
{
	return beg(gen, t, H_CPU, name);
}

void
py(struct gen *gen, struct thr *t, const char *name)
{
	beg(gen, t, H_PY, name);
}

/* An op autograd records: it gets a Sequence number and a tape entry. */
int
opseq(struct gen *gen, struct thr *t, const char *name, int node, int a, int b,
    int c, int d)
{
	struct tape *e;
	int i = op(gen, t, name);

	gen->hv[i].seq = gen->next_seq++;
	GROW(gen->tp, gen->ntp, gen->tpcap);
	e = &gen->tp[gen->ntp++];
	e->seq = gen->hv[i].seq;
	e->ts = gen->hv[i].ts;
	e->node = (uint8_t)node;
	e->flush = 0;
	e->a = a;
	e->b = b;
	e->c = c;
	e->d = d;
	return i;
}

/* Inputs attach to the op begun last. */
void
addin(struct gen *gen, int ty, int nd, int tr_, int how, const char *conc,
    int64_t a, int64_t b, int64_t c, int64_t d)
{
	struct inp *p;

	GROW(gen->inp, gen->ninp, gen->inpcap);
	p = &gen->inp[gen->ninp++];
	p->conc = conc;
	p->ty = (uint8_t)ty;
	p->nd = (uint8_t)nd;
	p->tr = (uint8_t)tr_;
	p->how = (uint8_t)how;
	p->d[0] = (int32_t)a;
	p->d[1] = (int32_t)b;
	p->d[2] = (int32_t)c;
	p->d[3] = (int32_t)d;
	gen->hv[gen->nhv - 1].nin++;
}

/* A [memory] instant event: the caching allocator hands out bytes. */
void
memev(struct gen *gen, struct thr *t, int64_t bytes)
{
	struct hev *h;
	int64_t addr;

	GROW(gen->hv, gen->nhv, gen->hvcap);
	h = &gen->hv[gen->nhv++];
	memset(h, 0, sizeof(*h));
	if (bytes > 0) {
		addr = 0x7f0000000000LL +
		    (int64_t)(rnd(gen) % 0x3000000000ULL) * 512;
		GROW(gen->allocs, gen->nalloc + 1, gen->alloccap);
		gen->allocs[gen->nalloc++] = addr;
		gen->allocs[gen->nalloc++] = bytes;
	} else
		addr = 0;
	gen->memtot += bytes;
	h->ts = t->now;
	h->name = "[memory]";
	h->cat = H_INST;
	h->kind = A_MEM;
	h->thr = (uint8_t)t->idx;
	h->id = addr;
	h->aux = bytes;
	h->seq = gen->memtot;
	h->nin = -1;
	h->g = -1;
}

/* Free the most recent allocation, as backward releases activations. */
void
memfree(struct gen *gen, struct thr *t)
{
	int64_t addr, bytes;

	if (gen->nalloc < 2)
		return;
	bytes = gen->allocs[--gen->nalloc];
	addr = gen->allocs[--gen->nalloc];
	memev(gen, t, -bytes);
	gen->hv[gen->nhv - 1].id = addr;
}

void
f_empty(struct gen *gen, struct thr *t, int64_t a, int64_t b)
{
	op(gen, t, "aten::empty");
	L2(a, b); SC("15"); SC("0"); NO(); NO(); NO();
	t->now += urange(gen, 300, 1500);
	if (chance(gen, 3))
		memev(gen, t, a * b * 2);
	end(gen, t);
}

/* ------------------------------------------------------------------ */
/* GPU work.                                                          */

int
gnew(struct gen *gen)
{
	GROW(gen->gv, gen->ngv, gen->gvcap);
	memset(&gen->gv[gen->ngv], 0, sizeof(gen->gv[0]));
	gen->gv[gen->ngv].ext = -1;
	return gen->ngv++;
}

/* Work starts after its launch reaches the GPU and the stream drains. */
static int64_t
gstart(struct gen *gen, int s, int64_t lts)
{
	return imax(lts + urange(gen, 2500, 9000),
	    gen->sfree[s] + urange(gen, 600, 2400));
}

int64_t
gemm_ns(struct gen *gen, int64_t m, int64_t n, int64_t k)
{
	return 2 * m * n * k / ((int64_t)gen->tr.g->tflops * 1000) + 3000;
}

int64_t
mem_ns(struct gen *gen, int64_t bytes)
{
	return bytes / gen->tr.g->gbs + 2000;
}

uint32_t
clampgrid(int64_t v)
{
	if (v < 1)
		return 1;
	if (v > 2147483647)
		return 2147483647;
	return (uint32_t)v;
}

/* Grid of an elementwise kernel: four elements a thread. */
uint32_t
egrid(struct gen *gen, int role, int64_t numel)
{
	int64_t per = (int64_t)gen->kt[role]->bx * gen->kt[role]->by * 4;

	return clampgrid((numel + per - 1) / per);
}

int
gemmrole(int64_t m, int64_t n, int64_t k)
{
	return K_GEMM0 + (int)((m / 64 + n / 64 * 3 + k / 64 * 7) % 4);
}

/* The innermost cpu_op open on t, for -c op:NAME; NULL if none. */
static const char *
curop(struct gen *gen, const struct thr *t)
{
	int j;

	for (j = t->sp - 1; j >= 0; j--)
		if (gen->hv[t->stk[j]].cat == H_CPU)
			return gen->hv[t->stk[j]].name;
	return NULL;
}

/* GPU event g, on stream s, launched by runtime event r of thread t. */
static void
linkgpu(struct gen *gen, int g, int r, int s, const struct thr *t)
{
	gen->gv[g].lts = gen->hv[r].ts;
	gen->gv[g].ext = gen->hv[r].aux;
	gen->gv[g].corr = gen->hv[r].id;
	gen->gv[g].stream = s;
	gen->gv[g].lthr = (uint8_t)t->idx;
	gen->gv[g].first = 1;
}

int
launch(struct gen *gen, struct thr *t, int role, int s, int64_t ns, uint32_t gx,
    uint32_t gy)
{
	const struct kdef *k = gen->kt[role];
	int r, g;

	r = beg(gen, t, H_RT, gen->api[k->api].name);
	g = gnew(gen);
	gen->hv[r].api = (uint8_t)k->api;
	gen->hv[r].g = g;
	gen->gv[g].k = k;
	gen->gv[g].cat = G_KERNEL;
	linkgpu(gen, g, r, s, t);
	gen->gv[g].grid[0] = gx ? gx : 1;
	gen->gv[g].grid[1] = gy ? gy : 1;
	gen->gv[g].grid[2] = 1;
	gen->gv[g].ts = gstart(gen, s, gen->hv[r].ts);
	/* Tiny kernels sometimes round to zero: keep that case alive. */
	gen->gv[g].dur = chance(gen, 400) ? 0 : jitter(gen, ns);
	gen->gv[g].dur = change_dur(curop(gen, t), k->name, gen->gv[g].dur);
	gen->sfree[s] = gen->gv[g].ts + gen->gv[g].dur;
	t->now += urange(gen, 2500, 7000);
	if (chance(gen, 100))
		t->now += urange(gen, 10000, 40000);
	end(gen, t);
	return g;
}

void
memop(struct gen *gen, struct thr *t, int cat, const char *name, int s,
    int64_t bytes, int dir)
{
	int r, g;

	r = beg(gen, t, H_RT,
	    gen->api[cat == G_MEMCPY ? L_MEMCPY : L_MEMSET].name);
	g = gnew(gen);
	gen->hv[r].api = cat == G_MEMCPY ? L_MEMCPY : L_MEMSET;
	gen->hv[r].g = g;
	gen->gv[g].cat = (uint8_t)cat;
	gen->gv[g].name = name;
	gen->gv[g].bytes = bytes;
	gen->gv[g].dir = (uint8_t)dir;
	linkgpu(gen, g, r, s, t);
	gen->gv[g].ts = gstart(gen, s, gen->hv[r].ts);
	/* Host copies cross PCIe; device fills run at memory speed. */
	gen->gv[g].dur = change_dur(curop(gen, t), name, jitter(gen,
	    cat == G_MEMCPY ? bytes / 24 + 1500 : mem_ns(gen, bytes)));
	gen->sfree[s] = gen->gv[g].ts + gen->gv[g].dur;
	t->now += urange(gen, 3000, 9000);
	end(gen, t);
}

/* A runtime call with no GPU activity of its own. */
void
rtcall(struct gen *gen, struct thr *t, int a)
{
	int r = beg(gen, t, H_RT, gen->api[a].name);

	gen->hv[r].api = (uint8_t)a;
	t->now += urange(gen, 800, 3000);
	end(gen, t);
}

/* One graph launch replays many kernels under one correlation id. */
void
graph(struct gen *gen, struct thr *t, int nk, int64_t ns)
{
	int r, g, i;

	r = beg(gen, t, H_RT, gen->api[L_GRAPH].name);
	gen->hv[r].api = L_GRAPH;
	for (i = 0; i < nk; i++) {
		g = gnew(gen);
		if (i == 0)
			gen->hv[r].g = g;
		gen->gv[g].k = gen->kt[i == 0 ? K_FADD : K_ADAM];
		gen->gv[g].cat = G_KERNEL;
		gen->gv[g].lts = gen->hv[r].ts;
		gen->gv[g].corr = gen->hv[r].id;
		gen->gv[g].stream = SC_;
		gen->gv[g].lthr = (uint8_t)t->idx;
		gen->gv[g].first = i == 0;
		gen->gv[g].grid[0] = clampgrid(gen->pelems / nk / 65536 + 1);
		gen->gv[g].grid[1] = gen->gv[g].grid[2] = 1;
		gen->gv[g].ts = i == 0 ? gstart(gen, SC_, gen->hv[r].ts) :
		    gen->sfree[SC_] + urange(gen, 300, 1200);
		gen->gv[g].dur = change_dur(curop(gen, t), gen->gv[g].k->name,
		    jitter(gen, i == 0 ? 4000 : ns));
		gen->sfree[SC_] = gen->gv[g].ts + gen->gv[g].dur;
	}
	t->now += urange(gen, 12000, 40000);
	end(gen, t);
}

/* Block until every stream drains, as loss.item() does. */
void
syncall(struct gen *gen, struct thr *t)
{
	int r = beg(gen, t, H_RT, gen->api[L_SYNC].name);

	gen->hv[r].api = L_SYNC;
	t->now = imax(t->now + urange(gen, 1000, 3000),
	    imax(imax(gen->sfree[SC_], gen->sfree[SCP]),
	    gen->sfree[SNC]) + urange(gen, 1500, 4000));
	end(gen, t);
}

/* A new collective of this step; the split strings are copied. */
static int
newcoll(struct gen *gen, const char *name, const char *pg, const char *desc,
    const char *rk, int size, int first, int64_t in, int64_t out,
    const char *insplit, const char *outsplit)
{
	struct coll *c;

	GROW(gen->cv, gen->ncv, gen->cvcap);
	c = &gen->cv[gen->ncv];
	c->name = name;
	c->pg = pg;
	c->desc = desc;
	c->ranks = rk;
	c->size = size;
	c->first = first;
	c->in = in;
	c->out = out;
	c->insplit = tl_strdup(insplit);
	c->outsplit = tl_strdup(outsplit);
	return gen->ncv++;
}

/*
 * -R: the NCCL kernel g of a group of n ranks from first waits for the
 * last of them to arrive: it starts when we do and ends when the
 * straggler's does (ranks.c).  The stream is busy until the latest end.
 */
static void
arrive(struct gen *gen, int g, int first, int n)
{
	int64_t d, late, endj, ts0 = gen->gv[g].ts, dur0 = gen->gv[g].dur;

	if (!opt.world)
		return;
	rank_arrival(opt.seed, gen->ncoll++, gen->tr.world, first, n,
	    gen->tr.rank, &d, &late, &endj);
	gen->gv[g].ts = ts0 + d;
	gen->gv[g].dur = dur0 + late - d + endj;
	gen->sfree[gen->gv[g].stream] = ts0 + late + dur0 + 500;
}

void
allreduce(struct gen *gen, struct thr *t, int64_t nelem)
{
	int c, g;
	int64_t bytes = nelem * 2, ns;

	op(gen, t, "nccl:all_reduce");
	gen->hv[gen->nhv - 1].nin = -1;
	c = op(gen, t, "record_param_comms");
	gen->hv[c].kind = A_COMMS;
	gen->hv[c].aux = nelem;
	T1(BF, nelem); NO(); NO(); SC("0"); NO(); L0(); L0(); SC("0");
	SC("1"); SI(gen->tr.world);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	/* The NCCL stream waits for the gradients it reduces. */
	gen->sfree[SNC] = imax(gen->sfree[SNC], gen->sfree[SC_]);
	ns = bytes * 2 * (gen->tr.world - 1) / gen->tr.world / 180 + 18000;
	g = launch(gen, t, bytes < (4 << 20) ? K_NCCL0 : K_NCCL1, SNC, ns,
	    gen->tr.g->sms / 4, 1);
	gen->gv[g].coll = 1;
	gen->gv[g].bytes = nelem;
	gen->gv[g].cix = gen->hv[c].cix = newcoll(gen, "allreduce", "0",
	    "default_pg", gen->ranks, gen->tr.world, 0, nelem, nelem, "[]",
	    "[]");
	arrive(gen, g, 0, gen->tr.world);
	end(gen, t);
	end(gen, t);
}

/* "[a, b, ...]" of v[0..n), a Python list as Kineto writes split sizes. */
static char *
listfmt(const int64_t *v, int n)
{
	char *s = xrealloc(NULL, (size_t)n * 22 + 3, 1), *p = s;
	int i;

	*p++ = '[';
	for (i = 0; i < n; i++)
		p += sprintf(p, i ? ", %" PRId64 : "%" PRId64, v[i]);
	*p++ = ']';
	*p = '\0';
	return s;
}

/*
 * -R: an MoE token exchange, all_to_allv over every rank, with split
 * sizes that differ from rank to rank (ranks.c).
 */
void
alltoallv(struct gen *gen, struct thr *t)
{
	int64_t *in, *out, sin = 0, sout = 0;
	char *is, *os;
	int c, g, j;

	in = xrealloc(NULL, (size_t)gen->tr.world, sizeof(*in));
	out = xrealloc(NULL, (size_t)gen->tr.world, sizeof(*out));
	rank_splits(opt.seed, gen->ncoll, gen->tr.world, gen->tr.rank, in, out);
	for (j = 0; j < gen->tr.world; j++) {
		sin += in[j];
		sout += out[j];
	}
	is = listfmt(in, gen->tr.world);
	os = listfmt(out, gen->tr.world);
	op(gen, t, "nccl:all_to_all");
	gen->hv[gen->nhv - 1].nin = -1;
	c = op(gen, t, "record_param_comms");
	gen->hv[c].kind = A_COMMS;
	gen->hv[c].aux = sin;
	T1(BF, sin); T1(BF, sout); SC("0"); NO(); L1(gen->tr.world);
	L1(gen->tr.world);
	SC("0"); SC("1"); SI(gen->tr.world);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	gen->sfree[SNC] = imax(gen->sfree[SNC], gen->sfree[SC_]);
	/* (one duration on every rank: the schedules stay the same) */
	g = launch(gen, t, K_NCCLSR, SNC, 30000 + (int64_t)gen->tr.world * 2000,
	    gen->tr.g->sms / 4, 1);
	gen->gv[g].coll = 1;
	gen->gv[g].bytes = sin;
	gen->gv[g].cix = gen->hv[c].cix = newcoll(gen, "all_to_allv", "0",
	    "default_pg", gen->ranks, gen->tr.world, 0, sin, sout, is, os);
	arrive(gen, g, 0, gen->tr.world);
	free(in);
	free(out);
	free(is);
	free(os);
	end(gen, t);
	end(gen, t);
}

/*
 * -R: an all-gather inside our node's group, a process group of its
 * own (PyTorch names groups in order of creation: node k's is k + 1).
 */
void
nodegather(struct gen *gen, struct thr *t)
{
	int gpn = rank_gpus(gen->tr.world), first = gen->tr.rank / gpn * gpn;
	int n = gen->tr.world - first < gpn ? gen->tr.world - first : gpn;
	int64_t nelem = (int64_t)gen->tr.H * 1024;
	int c, g;

	op(gen, t, "nccl:_all_gather_base");
	gen->hv[gen->nhv - 1].nin = -1;
	c = op(gen, t, "record_param_comms");
	gen->hv[c].kind = A_COMMS;
	gen->hv[c].aux = nelem;
	T1(BF, nelem * n); T1(BF, nelem); SC("0"); NO(); L0(); L0();
	SC("0"); SC("1"); SI(n);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	gen->sfree[SNC] = imax(gen->sfree[SNC], gen->sfree[SC_]);
	g = launch(gen, t, K_NCCLAG, SNC, 25000, gen->tr.g->sms / 4, 1);
	gen->gv[g].coll = 1;
	gen->gv[g].bytes = nelem;
	gen->gv[g].cix = gen->hv[c].cix = newcoll(gen, "_allgather_base",
	    gen->npg, "undefined", gen->nranks, n, first, nelem, nelem * n,
	    "[]", "[]");
	arrive(gen, g, first, n);
	end(gen, t);
	end(gen, t);
}
