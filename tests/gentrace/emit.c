/* See LICENSE file for copyright and license details. */
/*
 * emit.c: the step in memory written out as Kineto's JSON events (host
 * events, GPU events, flows, metadata, the trace's header and end),
 * through out.c's JSON writer; and the step's GPU work as plain values
 * for the other writers (gentrace.h).
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gentrace.h"
#include "model.h"
#include "tl.h"

static const char *const tyname[] = {
	"c10::BFloat16", "float", "long int", "Scalar", "ScalarList", "",
	"TensorList"
};

/* ------------------------------------------------------------------ */
/* Writing events.                                                    */

/* Kineto lays events and their args over a few lines. */
static int
evml(struct gen *gen)
{
	return gen->tr.style == ST_KINETO;
}

static void
xname(struct gen *gen, const char *name)
{
	if (name != NULL)
		jstr(name);
	else {
		PUTS("\"ProfilerStep#");
		putu((uint64_t)gen->stepno);
		putch('"');
	}
}

static int
istensor(const struct inp *p)
{
	return p->how == IN_PLAIN && p->nd > 0 &&
	    (p->ty == TY_BF16 || p->ty == TY_F32 || p->ty == TY_I64);
}

static void
inputs(struct gen *gen, const struct hev *h)
{
	const struct inp *p, *b = gen->inp + h->in0,
	    *e = gen->inp + h->in0 + h->nin;
	int64_t st[4];
	int k;

	JK("Concrete Inputs");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		if (p->how == IN_LIST) {
			PUTS("\"[");
			for (k = 0; k < p->nd; k++) {
				if (k)
					PUTS(", ");
				puti(p->d[k]);
			}
			PUTS("]\"");
		} else if (p->how == IN_INT) {
			putch('"');
			puti(p->d[0]);
			putch('"');
		} else
			jstr(p->conc);
	}
	jclose(']');
	JK("Input type");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		jstr(tyname[p->ty]);
	}
	jclose(']');
	JK("Input Strides");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		jopen('[', 0);
		if (istensor(p)) {
			st[p->nd - 1] = 1;
			for (k = p->nd - 2; k >= 0; k--)
				st[k] = st[k + 1] * p->d[k + 1];
			if (p->tr && p->nd == 2) {
				st[0] = 1;
				st[1] = p->d[0];
			}
			for (k = 0; k < p->nd; k++) {
				jel();
				puti(st[k]);
			}
		}
		jclose(']');
	}
	jclose(']');
	JK("Input Dims");
	jopen('[', 0);
	for (p = b; p < e; p++) {
		jel();
		jopen('[', 0);
		if (istensor(p))
			for (k = 0; k < p->nd; k++) {
				jel();
				puti(p->d[k]);
			}
		jclose(']');
	}
	jclose(']');
}

static void
rtargs(struct gen *gen, const struct hev *h)
{
	const struct api *a = &gen->api[h->api];
	const struct gev *g = h->g >= 0 ? &gen->gv[h->g] : NULL;

	if (!opt.amd) {
		if (h->aux >= 0) {
			KN("External id", h->aux);
			jbr();
		}
		KN("cbid", a->cbid);
		KN("correlation", h->id);
		return;
	}
	/* roctracer pads these args oddly; Kineto keeps the blanks. */
	if (h->aux >= 0) {
		KN("External id", h->aux);
		jpad(9);
	}
	if (g != NULL && g->k != NULL && h->api != L_GRAPH)
		KS("kernel", g->k->name);
	KN("cid", a->cbid);
	KN("correlation", h->id);
	if (g != NULL && g->k != NULL && h->api != L_GRAPH) {
		jpad(5);
		JK("grid");
		jdim3(g->grid[0], g->grid[1], g->grid[2]);
		jpad(5);
		JK("block");
		jdim3((uint32_t)g->k->bx, (uint32_t)g->k->by, 1);
		jpad(5);
		KN("shared memory", g->k->smem);
	}
}

static void
hargs(struct gen *gen, const struct hev *h)
{
	jopen('{', evml(gen));
	switch (h->kind) {
	case A_OP:
	case A_EVAL:
	case A_ANN:
		KN("External id", h->id);
		jglue();
		KN("Record function id", 0);
		if (h->seq >= 0)
			KN("Sequence number", h->seq);
		if (h->kind == A_EVAL)
			KN("Fwd thread id", 1);
		if (h->nin >= 0)
			inputs(gen, h);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_NODE:
		KN("External id", h->id);
		jglue();
		KN("Sequence number", h->seq);
		KN("Fwd thread id", 1);
		KN("Record function id", 0);
		inputs(gen, h);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_COMMS:
		KN("External id", h->id);
		jglue();
		KN("Record function id", 0);
		KS("Collective name", gen->cv[h->cix].name);
		KS("Process Group Description", gen->cv[h->cix].desc);
		KS("dtype", "BFloat16");
		KN("Rank", gen->tr.rank);
		inputs(gen, h);
		KN("In msg nelems", gen->cv[h->cix].in);
		KN("Out msg nelems", gen->cv[h->cix].out);
		KN("Group size", gen->cv[h->cix].size);
		KS("In split size", gen->cv[h->cix].insplit);
		KS("Out split size", gen->cv[h->cix].outsplit);
		KS("Process Group Name", gen->cv[h->cix].pg);
		KS("Process Group Ranks", gen->cv[h->cix].ranks);
		KN("Global rank start", gen->cv[h->cix].first);
		KN("Global rank stride", 1);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_PY:
		JK("Python parent id");
		if (h->aux)
			puti(h->aux);
		else
			PUTS("null");
		KN("Python id", h->id);
		if (h->modid)
			KN("Python module id", h->modid - 1);
		KN("Ev Idx", gen->evidx++);
		break;
	case A_RT:
		rtargs(gen, h);
		break;
	}
	jclose('}');
}

static void
hemit(struct gen *gen, const struct hev *h)
{
	static const char *const hcat[] = {
		"cpu_op", "user_annotation", "python_function", "cuda_runtime"
	};
	const char *cat;
	int tid = gen->tr.tid[h->thr];

	jel();
	jopen('{', evml(gen));
	if (h->cat == H_INST) {
		JK("ph"); JS("i"); JK("cat"); JS("cpu_instant_event");
		JK("s"); JS("t"); JK("name"); JS("[memory]");
		jbr(); KN("pid", gen->tr.pid); KN("tid", tid);
		jbr(); JK("ts"); putus(h->ts);
		jbr(); JK("args");
		jopen('{', evml(gen));
		KN("Total Reserved", (h->seq / (2 << 20) + 8) * (2 << 20));
		KN("Total Allocated", h->seq);
		KN("Bytes", h->aux);
		KN("Device Id", gen->tr.rank);
		KN("Device Type", 1);
		KN("Addr", h->id);
		JK("finished"); PUTS("false");
		KN("Ev Idx", gen->evidx++);
		jclose('}');
		jclose('}');
		return;
	}
	cat = h->cat == H_RT && gen->api[h->api].driver ? "cuda_driver" :
	    hcat[h->cat];
	if (!h->alt) {
		JK("ph"); JS("X");
		JK("cat"); jstr(cat);
		JK("name"); xname(gen, h->name);
		KN("pid", gen->tr.pid);
		KN("tid", tid);
		jbr(); JK("ts"); putus(h->ts);
		JK("dur"); putus(h->dur);
		jbr(); JK("args"); hargs(gen, h);
	} else {
		/* Not every writer keeps Kineto's key order. */
		JK("name"); xname(gen, h->name);
		JK("ph"); JS("X");
		KN("pid", gen->tr.pid);
		KN("tid", tid);
		jbr(); JK("args"); hargs(gen, h);
		jbr(); JK("ts"); putus(h->ts);
		JK("dur"); putus(h->dur);
		JK("cat"); jstr(cat);
	}
	jclose('}');
}

static void
ncclargs(struct gen *gen, const struct gev *g)
{
	const struct coll *c = &gen->cv[g->cix];

	KS("Collective name", c->name);
	KN("In msg nelems", c->in);
	KN("Out msg nelems", c->out);
	KN("Group size", c->size);
	KS("dtype", "BFloat16");
	KS("In split size", c->insplit);
	KS("Out split size", c->outsplit);
	KS("Process Group Name", c->pg);
	KS("Process Group Description", c->desc);
	KS("Process Group Ranks", c->ranks);
}

static void
gemit(struct gen *gen, const struct gev *g)
{
	static const char *const gcat[] = {
		"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation"
	};
	const struct kdef *k = g->k;
	int64_t blocks, bps;

	jel();
	jopen('{', evml(gen));
	JK("ph"); JS("X");
	JK("cat"); jstr(gcat[g->cat]);
	JK("name");
	xname(gen, change_name(g->cat == G_KERNEL ? k->name : g->name));
	KN("pid", gen->tr.gpupid);
	KN("tid", gen->tr.stream[g->stream]);
	jbr(); JK("ts"); putus(g->ts);
	JK("dur"); putus(g->dur);
	jbr(); JK("args");
	jopen('{', evml(gen));
	if (g->cat == G_UANN) {
		KN("External id", g->ext);
	} else if (g->cat == G_KERNEL && !opt.amd) {
		if (g->ext >= 0) {
			KN("External id", g->ext);
			jbr();
		}
		KN("queued", 0);
		KN("device", gen->tr.gpupid);
		KN("context", 1);
		jbr(); KN("stream", gen->tr.stream[g->stream]);
		KN("correlation", g->corr);
		jbr(); KN("registers per thread", k->regs);
		jbr(); KN("shared memory", k->smem);
		blocks = (int64_t)g->grid[0] * g->grid[1] * g->grid[2];
		bps = blocks * 1000000 / gen->tr.g->sms;
		jbr(); JK("blocks per SM"); putfix(bps);
		jbr(); JK("warps per SM");
		putfix(bps * k->bx * k->by / gen->tr.g->warp);
		jbr(); JK("grid"); jdim3(g->grid[0], g->grid[1], g->grid[2]);
		jbr(); JK("block"); jdim3((uint32_t)k->bx, (uint32_t)k->by, 1);
		jbr(); KN("est. achieved occupancy %", k->occ);
		if (g->coll)
			ncclargs(gen, g);
	} else if (g->cat == G_KERNEL) {
		if (g->ext >= 0) {
			KN("External id", g->ext);
			jpad(5);
		}
		KN("device", gen->tr.gpupid);
		KN("stream", gen->tr.stream[g->stream]);
		jpad(5);
		KN("correlation", g->corr);
		KS("kind", "Dispatch Kernel");
		/* AMD reports the grid in work-items, not blocks. */
		jpad(5);
		JKP("grid", 4);
		jdim3(clampgrid((int64_t)g->grid[0] * k->bx),
		    clampgrid((int64_t)g->grid[1] * k->by), 1);
		JKP("block", 4);
		jdim3((uint32_t)k->bx, (uint32_t)k->by, 1);
		if (g->coll)
			ncclargs(gen, g);
	} else {
		KN("External id", g->ext);
		jbr();
		KN("device", gen->tr.gpupid);
		if (!opt.amd)
			KN("context", 1);
		jbr(); KN("stream", gen->tr.stream[g->stream]);
		KN("correlation", g->corr);
		if (opt.amd)
			KS("kind", g->cat == G_MEMSET ? "Device" :
			    g->dir ? "DtoH" : "HtoD");
		if (!opt.amd || g->cat == G_MEMCPY) {
			jbr(); KN("bytes", g->bytes);
			JK("memory bandwidth (GB/s)");
			putfix(g->dur ? g->bytes * 1000000 / g->dur : 0);
		}
	}
	jclose('}');
	jclose('}');
}

static void
flow(struct gen *gen, int start, int64_t id, int pid, int tid, int64_t ts,
    const char *cat)
{
	jel();
	jopen('{', evml(gen));
	JK("ph");
	if (start)
		JS("s");
	else
		JS("f");
	KN("id", id);
	KN("pid", pid);
	KN("tid", tid);
	JK("ts"); putus(ts);
	jbr(); JK("cat"); jstr(cat);
	JK("name"); jstr(cat);
	if (!start) {
		JK("bp");
		JS("e");
	}
	jclose('}');
}

/*
 * Kineto writes CPU ops, then Python frames, then runtime calls, then
 * GPU activity and flows: the file is only roughly in time order.
 */
void
emitstep(struct gen *gen)
{
	const struct gev *g;
	int i;

	for (i = 0; i < gen->nhv; i++)
		if (gen->hv[i].cat == H_CPU || gen->hv[i].cat == H_UANN ||
		    gen->hv[i].cat == H_INST)
			hemit(gen, &gen->hv[i]);
	for (i = 0; i < gen->nhv; i++)
		if (gen->hv[i].cat == H_PY)
			hemit(gen, &gen->hv[i]);
	for (i = 0; i < gen->nhv; i++)
		if (gen->hv[i].cat == H_RT)
			hemit(gen, &gen->hv[i]);
	for (i = 0; i < gen->ngv; i++)
		gemit(gen, &gen->gv[i]);
	for (i = 0; i < gen->ngv; i++) {
		g = &gen->gv[i];
		if (g->cat == G_UANN)
			continue;
		if (g->first)
			flow(gen, 1, g->corr, gen->tr.pid, gen->tr.tid[g->lthr],
			    g->lts, "ac2g");
		flow(gen, 0, g->corr, gen->tr.gpupid, gen->tr.stream[g->stream],
		    g->ts, "ac2g");
	}
	for (i = 0; i < gen->nfb; i++, gen->next_fb++) {
		flow(gen, 1, gen->next_fb, gen->tr.pid, gen->tr.tid[0],
		    gen->fb[i].fts, "fwdbwd");
		flow(gen, 0, gen->next_fb, gen->tr.pid, gen->tr.tid[1],
		    gen->fb[i].bts, "fwdbwd");
	}
}

static void
meta(struct gen *gen, const char *name, int pid, int tid, const char *key,
    const char *sval, int64_t nval)
{
	jel();
	jopen('{', evml(gen));
	JK("name"); jstr(name);
	JK("ph"); JS("M");
	JK("ts"); putus(gen->tr.t0);
	KN("pid", pid);
	KN("tid", tid);
	jbr(); JK("args");
	jopen('{', evml(gen));
	jkey(key, strlen(key), 0);
	if (sval != NULL)
		jstr(sval);
	else
		puti(nval);
	jclose('}');
	jclose('}');
}

static void
metas(struct gen *gen)
{
	char buf[64];
	int i;

	meta(gen, "process_name", gen->tr.pid, 0, "name", "python3", 0);
	meta(gen, "process_labels", gen->tr.pid, 0, "labels", "CPU", 0);
	meta(gen, "process_sort_index", gen->tr.pid, 0, "sort_index", NULL,
	    gen->tr.pid);
	meta(gen, "process_name", gen->tr.gpupid, 0, "name", "python3", 0);
	snprintf(buf, sizeof(buf), "GPU %d", gen->tr.gpupid);
	meta(gen, "process_labels", gen->tr.gpupid, 0, "labels", buf, 0);
	meta(gen, "process_sort_index", gen->tr.gpupid, 0, "sort_index", NULL,
	    (opt.amd ? 5000000 : 16777216) + gen->tr.gpupid);
	snprintf(buf, sizeof(buf), "thread %d (python3)", gen->tr.tid[0]);
	meta(gen, "thread_name", gen->tr.pid, gen->tr.tid[0], "name", buf, 0);
	meta(gen, "thread_sort_index", gen->tr.pid, gen->tr.tid[0],
	    "sort_index", NULL, gen->tr.tid[0]);
	snprintf(buf, sizeof(buf), "thread %d (pt_autograd_0)", gen->tr.tid[1]);
	meta(gen, "thread_name", gen->tr.pid, gen->tr.tid[1], "name", buf, 0);
	meta(gen, "thread_sort_index", gen->tr.pid, gen->tr.tid[1],
	    "sort_index", NULL, gen->tr.tid[1]);
	for (i = 0; i < 3; i++) {
		if (i == SNC && gen->tr.world == 1)
			continue;
		snprintf(buf, sizeof(buf), "stream %d ", gen->tr.stream[i]);
		meta(gen, "thread_name", gen->tr.gpupid, gen->tr.stream[i],
		    "name", buf, 0);
		meta(gen, "thread_sort_index", gen->tr.gpupid,
		    gen->tr.stream[i], "sort_index", NULL, gen->tr.stream[i]);
	}
}

/* Top-level members other than traceEvents and traceName. */
static void
hdrkeys(struct gen *gen)
{
	const struct gpu *g = gen->tr.g;
	int i, ndev = opt.world ? rank_gpus(gen->tr.world) :
	    gen->tr.world > 1 ? 8 : 1;

	KN("schemaVersion", 1);
	JK("distributedInfo");
	jopen('{', 0);
	KS("backend", "nccl");
	KN("rank", gen->tr.rank);
	KN("world_size", gen->tr.world);
	KN("pg_count", 1);
	JK("pg_config");
	jopen('[', 0);
	jel();
	jopen('{', 0);
	KS("pg_name", "0");
	KS("pg_desc", "default_pg");
	KS("backend_config", "cuda:nccl");
	KN("pg_size", gen->tr.world);
	JK("ranks");
	jopen('[', 0);
	for (i = 0; i < gen->tr.world; i++) {
		jel();
		puti(i);
	}
	jclose(']');
	jclose('}');
	jclose(']');
	KS("nccl_version", opt.amd ? "2.20.5" : "2.21.5");
	jclose('}');
	JK("deviceProperties");
	jopen('[', gen->tr.style == ST_KINETO ? 2 : 0);
	for (i = 0; i < ndev; i++) {
		jel();
		jopen('{', evml(gen));
		KN("id", i);
		KS("name", g->name);
		KN("totalGlobalMem", g->mem);
		jbr(); KN("computeMajor", g->major);
		KN("computeMinor", g->minor);
		jbr(); KN("maxThreadsPerBlock", 1024);
		KN("maxThreadsPerMultiprocessor", 2048);
		jbr(); KN("regsPerBlock", g->regs);
		if (!opt.amd)
			KN("regsPerMultiprocessor", 65536);
		KN("warpSize", g->warp);
		jbr(); KN("sharedMemPerBlock", g->smemblk);
		if (!opt.amd) {
			KN("sharedMemPerMultiprocessor", g->smemsm);
			jbr(); KN("numSms", g->sms);
			KN("sharedMemPerBlockOptin", g->optin);
		} else {
			KN("numSms", g->sms);
			jbr(); KN("maxSharedMemoryPerMultiProcessor", g->smemsm);
		}
		jclose('}');
	}
	jclose(']');
	if (opt.amd) {
		JK("roctracer_version"); PUTS("4.1");
		KN("hip_runtime_version", 60443483);
		KN("hip_driver_version", 60443483);
	} else {
		KN("cupti_version", 24);
		KN("cuda_runtime_version", 12040);
		KN("cuda_driver_version", 12090);
	}
	KN("with_flops", 1);
	KN("record_shapes", 1);
	KN("with_stack", 1);
	KN("with_modules", 1);
	KN("profile_memory", 1);
	KS("trace_id", gen->tr.traceid);
	if (gen->tr.relts || gen->tr.style == ST_KINETO)
		KS("displayTimeUnit", "ms");
	if (gen->tr.relts)
		KN("baseTimeNanoseconds", gen->tr.base);
}

static int
topml(struct gen *gen)
{
	return gen->tr.style == ST_COMPACT && gen->tr.oneline ? 0 : 2;
}

void
begintrace(struct gen *gen)
{
	if (gen->tr.style == ST_KINETO)
		putch('\n');
	jopen('{', topml(gen));
	if (!gen->tr.late)
		hdrkeys(gen);
	JK("traceEvents");
	jopen('[', topml(gen));
	if (gen->tr.metafirst)
		metas(gen);
}

void
endtrace(struct gen *gen)
{
	struct hev h;
	int64_t tend, wend;
	int i;

	tend = gen->th[0].now + urange(gen, 20000, 90000);
	wend = tend;
	for (i = 0; i < 3; i++)
		wend = imax(wend, gen->sfree[i] + 1000);
	wend += urange(gen, 1000, 9000);

	/* The script's outermost frames span every step. */
	memset(&h, 0, sizeof(h));
	h.cat = H_PY;
	h.kind = A_PY;
	h.nin = -1;
	h.g = -1;
	h.name = "train.py(97): <module>";
	h.id = 1;
	h.ts = gen->tr.t0 + 15000;
	h.dur = tend - h.ts;
	hemit(gen, &h);
	h.name = "train.py(41): main";
	h.id = 2;
	h.aux = 1;
	h.ts += 2000;
	h.dur -= 4000;
	hemit(gen, &h);

	if (!gen->tr.metafirst)
		metas(gen);

	jel();
	jopen('{', evml(gen));
	JK("ph"); JS("X");
	JK("cat"); JS("Trace");
	JK("ts"); putus(gen->tr.t0 - 80000);
	JK("dur"); putus(wend - gen->tr.t0 + 80000);
	jbr(); JK("pid"); JS("Spans");
	JK("tid"); JS("PyTorch Profiler");
	jbr(); JK("name"); JS("PyTorch Profiler (0)");
	jbr(); JK("args");
	jopen('{', evml(gen));
	KN("Op count", 0);
	jclose('}');
	jclose('}');

	jel();
	jopen('{', evml(gen));
	JK("name"); JS("process_sort_index");
	JK("ph"); JS("M");
	JK("ts"); putus(gen->tr.t0 - 80000);
	jbr(); JK("pid"); JS("Spans");
	KN("tid", 0);
	jbr(); JK("args");
	jopen('{', evml(gen));
	KN("sort_index", 536870912);
	jclose('}');
	jclose('}');

	jel();
	jopen('{', evml(gen));
	JK("name"); JS("Iteration Start: PyTorch Profiler");
	JK("ph"); JS("i");
	JK("s"); JS("g");
	jbr(); JK("pid"); JS("Traces");
	JK("tid"); JS("Trace PyTorch Profiler");
	JK("ts"); putus(gen->tr.t0 - 80000);
	jclose('}');

	jel();
	jopen('{', evml(gen));
	JK("name"); JS("Record Window End");
	JK("ph"); JS("i");
	JK("s"); JS("g");
	jbr(); JK("pid"); JS("");
	JK("tid"); JS("");
	JK("ts"); putus(wend);
	jclose('}');

	jclose(']');
	if (gen->tr.late)
		hdrkeys(gen);
	KS("traceName", gen->tr.tname);
	jclose('}');
	putch('\n');
}

/* ------------------------------------------------------------------ */
/* The step's GPU work for the other writers (gentrace.h).            */

int
gt_nkernels(void)
{
	return NKROLE;
}

const char *
gt_kernel(const struct gen *gen, int role, int *bx, int *by, int *smem)
{
	*bx = gen->kt[role]->bx;
	*by = gen->kt[role]->by;
	*smem = gen->kt[role]->smem;
	return gen->kt[role]->name;
}

int
gt_nevents(const struct gen *gen)
{
	return gen->ngv;
}

void
gt_event(const struct gen *gen, int i, struct gtev *e)
{
	const struct gev *g = &gen->gv[i];
	int r;

	memset(e, 0, sizeof(*e));
	e->ts = g->ts;
	e->dur = g->dur;
	e->corr = g->corr;
	e->bytes = g->bytes;
	e->dir = g->dir;
	e->stream = gen->tr.stream[g->stream];
	e->thread = gen->tr.tid[g->lthr];
	e->role = -1;
	e->cat = g->cat == G_KERNEL ? GT_KERNEL : g->cat == G_MEMCPY ?
	    GT_MEMCPY : g->cat == G_MEMSET ? GT_MEMSET : GT_OTHER;
	if (g->cat != G_KERNEL)
		return;
	for (r = 0; r < NKROLE && gen->kt[r] != g->k; r++)
		;
	e->role = r < NKROLE ? r : -1;
	/* AMD reports the grid in work-items, not blocks */
	e->grid[0] = clampgrid((int64_t)g->grid[0] * g->k->bx);
	e->grid[1] = clampgrid((int64_t)g->grid[1] * g->k->by);
	e->grid[2] = 1;
}

void
gt_info(const struct gen *gen, struct gtinfo *i)
{
	memset(i, 0, sizeof(*i));
	i->seed = opt.seed;
	i->t0 = gen->tr.t0;
	i->pid = gen->tr.pid;
	i->gpu = gen->tr.g->name;
	i->cus = gen->tr.g->sms;
	i->rank = gen->tr.rank;
}
