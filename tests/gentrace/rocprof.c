/* See LICENSE file for copyright and license details. */
/*
 * The rocprofv3 writer of tl-gentrace (-F rocprof): the generator's
 * training steps as a ROCprofiler-SDK results file, one process result
 * with its agents, kernel symbols, kernel dispatches and memory copies,
 * in the layout rocprofv3's JSON output has (compact, one line).
 *
 * Kernels and fills become dispatches, copies memory_copy records; the
 * copies wait in a temporary file until the dispatch array is closed,
 * so that memory stays one step.  The metadata, whose fini_time is the
 * end of the run, comes last in the process result; with seeds of 2
 * modulo 3 the kernel symbols follow the dispatches too (readers must
 * not count on the usual order), with seeds of 1 modulo 3 the clock is
 * the generator's epoch nanoseconds (beyond 2^53, so that a reader's
 * doubles round), else a boot-time clock as rocprofv3's.  Every fifth
 * kernel has no truncated name, and with seeds of 3 modulo 4 one kernel
 * has no symbol at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "gentrace.h"

static struct {
	FILE *copies;		/* memory_copy records, written at the end */
	int64_t shift;		/* added to the generator's clock */
	int64_t last;		/* the latest end so far, ns (output clock) */
	int64_t ndisp;		/* dispatches written */
	int64_t ncopy;		/* copies held */
	int symlate;		/* kernel symbols after the dispatches */
	int nosym;		/* kernel role without a symbol, or -1 */
	int agent;		/* the GPU agent's handle */
	struct gtinfo in;	/* the trace's facts */
} rp;

/* The fill kernel's id: after the roles' (role r has id r + 1). */
#define FILLID (gt_nkernels() + 1)

/* Write s, a name as JSON text, up to n bytes. */
static void
jname(const char *s, size_t n)
{
	putch('"');
	put(s, n);
	putch('"');
}

/*
 * rocprofiler's truncated name: no return type, namespaces, template
 * arguments or parameters ("vectorized_elementwise_kernel").
 */
static void
truncname(const char *s)
{
	const char *p, *end, *start;

	if (strncmp(s, "void ", 5) == 0)
		s += 5;
	/* the end of the name: a '<' or '(' not of "(anonymous namespace)" */
	for (end = s; *end != '\0'; end++) {
		if (strncmp(end, "(anonymous namespace)", 21) == 0)
			end += 20;
		else if (*end == '<' || *end == '(')
			break;
	}
	for (start = p = s; p + 1 < end; p++)
		if (p[0] == ':' && p[1] == ':')
			start = p + 2;
	jname(start, (size_t)(end - start));
}

static void
kv(const char *k, int64_t v)
{
	putch('"');
	put(k, strlen(k));
	PUTS("\":");
	puti(v);
}

static void
symbol(int id, const char *name, const char *kname, int bx, int smem)
{
	PUTS("{\"size\":88,");
	kv("kernel_id", id);
	PUTS(",\"code_object_id\":1,\"kernel_name\":");
	jname(kname, strlen(kname));
	PUTS(",\"kernel_object\":");
	putu(140341013919680ULL + 64 * (uint64_t)id);
	PUTS(",\"kernarg_segment_size\":");
	putu(24 + (uint64_t)(id % 5) * 16);
	PUTS(",\"kernarg_segment_alignment\":16,");
	kv("group_segment_size", smem);
	PUTS(",\"private_segment_size\":0,\"sgpr_count\":");
	putu(32 + (uint64_t)(bx % 64));
	PUTS(",\"arch_vgpr_count\":");
	putu(8 + (uint64_t)(id % 7) * 8);
	PUTS(",\"accum_vgpr_count\":0,\"kernel_code_entry_byte_offset\":");
	putu(12352 + 64 * (uint64_t)id);
	PUTS(",\"kernel_address\":{\"handle\":");
	putu(140341013932032ULL + 64 * (uint64_t)id);
	PUTS("},\"formatted_kernel_name\":");
	jname(name, strlen(name));
	PUTS(",\"demangled_kernel_name\":");
	jname(name, strlen(name));
	PUTS(",\"truncated_kernel_name\":");
	/* every fifth without: readers fall back to the formatted name */
	if (id % 5 == 0)
		PUTS("\"\"");
	else
		truncname(name);
	putch('}');
}

static void
symbols(const struct gen *gen)
{
	const char *name;
	int r, bx, by, smem;

	/* rocprofv3 lists an empty symbol 0 first */
	PUTS("\"kernel_symbols\":[{\"size\":0,\"kernel_id\":0,"
	    "\"code_object_id\":0,\"kernel_name\":\"\",\"kernel_object\":0,"
	    "\"formatted_kernel_name\":\"0\",\"demangled_kernel_name\":\"0\","
	    "\"truncated_kernel_name\":\"0\"}");
	for (r = 0; r < gt_nkernels(); r++) {
		if (r == rp.nosym)
			continue;
		/* (tl-gentrace -c renames kernels in every format) */
		name = change_name(gt_kernel(gen, r, &bx, &by, &smem));
		putch(',');
		symbol(r + 1, name, name, bx, smem);
	}
	putch(',');
	symbol(FILLID, "__amd_rocclr_fillBufferAligned",
	    "__amd_rocclr_fillBufferAligned.kd", 256, 0);
	PUTS("],");
}

static void
agent(int handle, int type, const char *name, int cus)
{
	PUTS("{\"size\":312,\"id\":{\"handle\":");
	putu((uint64_t)handle);
	PUTS("},");
	kv("type", type);
	PUTS(",\"cpu_cores_count\":");
	putu(type == 1 ? 128 : 0);
	PUTS(",\"simd_count\":");
	putu((uint64_t)cus * 4);
	PUTS(",\"cu_count\":");
	putu(type == 1 ? 128 : (uint64_t)cus);
	PUTS(",\"wave_front_size\":");
	putu(type == 1 ? 0 : 64);
	PUTS(",\"name\":");
	jname(name, strlen(name));
	putch('}');
}

void
rocprof_begin(const struct gen *gen)
{
	gt_info(gen, &rp.in);
	rp.symlate = rp.in.seed % 3 == 2;
	rp.nosym = rp.in.seed % 4 == 3 ? (int)(rp.in.seed / 4 % 7) + 4 : -1;
	/* boot-time nanoseconds, or the generator's epoch clock */
	rp.shift = rp.in.seed % 3 == 1 ? 0 :
	    63855948165371LL + (int64_t)(rp.in.seed % 977) * 1000003 - rp.in.t0;
	rp.agent = 37946 + 2 * rp.in.rank;
	if ((rp.copies = tmpfile()) == NULL)
		tl_die("tmpfile:");

	PUTS("{\"rocprofiler-sdk-tool\":[{\"agents\":[");
	agent(rp.agent - 2, 1, "AMD EPYC 9575F 64-Core Processor", 0);
	putch(',');
	agent(rp.agent, 2, "gfx942", rp.in.cus);
	PUTS("],\"counters\":[],\"strings\":{\"buffer_records\":["
	    "{\"kind\":\"MEMORY_COPY\",\"operations\":[\"MEMORY_COPY_NONE\","
	    "\"MEMORY_COPY_HOST_TO_HOST\",\"MEMORY_COPY_HOST_TO_DEVICE\","
	    "\"MEMORY_COPY_DEVICE_TO_HOST\",\"MEMORY_COPY_DEVICE_TO_DEVICE\"]},"
	    "{\"kind\":\"KERNEL_DISPATCH\",\"operations\":["
	    "\"KERNEL_DISPATCH_NONE\",\"KERNEL_DISPATCH_ENQUEUE\","
	    "\"KERNEL_DISPATCH_COMPLETE\"]}],\"correlation_id\":"
	    "{\"external\":[]}},\"code_objects\":[],");
	if (!rp.symlate)
		symbols(gen);
	PUTS("\"host_functions\":[],\"summary\":[],\"callback_records\":"
	    "{\"counter_collection\":[]},\"buffer_records\":"
	    "{\"kernel_dispatch\":[");
}

/* One dispatch record. */
static void
dispatch(const struct gtev *e, int id, int bx, int by, int smem)
{
	if (rp.ndisp++ > 0)
		putch(',');
	PUTS("{\"size\":184,\"kind\":11,\"operation\":2,");
	kv("thread_id", e->thread);
	PUTS(",\"correlation_id\":{");
	kv("internal", e->corr);
	PUTS(",\"external\":0},");
	kv("start_timestamp", e->ts + rp.shift);
	putch(',');
	kv("end_timestamp", e->ts + e->dur + rp.shift);
	PUTS(",\"dispatch_info\":{\"size\":72,\"agent_id\":{\"handle\":");
	putu((uint64_t)rp.agent);
	PUTS("},\"queue_id\":{\"handle\":");
	putu(16 + (uint64_t)e->stream);
	PUTS("},");
	kv("kernel_id", id);
	putch(',');
	kv("dispatch_id", rp.ndisp);
	PUTS(",\"private_segment_size\":0,");
	kv("group_segment_size", smem);
	PUTS(",\"workgroup_size\":{");
	kv("x", bx);
	putch(',');
	kv("y", by);
	PUTS(",\"z\":1},\"grid_size\":{");
	kv("x", e->grid[0]);
	putch(',');
	kv("y", e->grid[1]);
	putch(',');
	kv("z", e->grid[2]);
	PUTS("}},\"stream_id\":{\"handle\":");
	putu((uint64_t)e->stream);
	PUTS("}}");
}

/* One memory copy record, into the copies' file. */
static void
copy(const struct gtev *e)
{
	int64_t src = e->dir ? rp.agent : rp.agent - 2;
	int64_t dst = e->dir ? rp.agent - 2 : rp.agent;

	fprintf(rp.copies, "%s{\"size\":96,\"kind\":10,\"operation\":%d,"
	    "\"thread_id\":%d,\"correlation_id\":{\"internal\":%lld,"
	    "\"external\":0},\"start_timestamp\":%lld,\"end_timestamp\":%lld,"
	    "\"dst_agent_id\":{\"handle\":%lld},\"src_agent_id\":{\"handle\":"
	    "%lld},\"bytes\":%lld,\"stream_id\":{\"handle\":%d}}",
	    rp.ncopy++ > 0 ? "," : "", e->dir ? 3 : 2, e->thread,
	    (long long)e->corr, (long long)(e->ts + rp.shift),
	    (long long)(e->ts + e->dur + rp.shift), (long long)dst,
	    (long long)src, (long long)e->bytes, e->stream);
}

void
rocprof_step(const struct gen *gen)
{
	struct gtev e;
	int i, bx, by, smem;

	for (i = 0; i < gt_nevents(gen); i++) {
		gt_event(gen, i, &e);
		if (e.ts + e.dur + rp.shift > rp.last)
			rp.last = e.ts + e.dur + rp.shift;
		switch (e.cat) {
		case GT_KERNEL:
			gt_kernel(gen, e.role, &bx, &by, &smem);
			dispatch(&e, e.role + 1, bx, by, smem);
			break;
		case GT_MEMSET:
			/* rocclr fills memory with a kernel of its own */
			e.grid[0] = (uint32_t)(e.bytes / 16 + 1);
			e.grid[1] = e.grid[2] = 1;
			dispatch(&e, FILLID, 256, 1, 0);
			break;
		case GT_MEMCPY:
			copy(&e);
			break;
		}
	}
}

void
rocprof_end(const struct gen *gen)
{
	char buf[1 << 16];
	size_t n;

	PUTS("],\"hip_api\":[],\"hsa_api\":[],\"marker_api\":[],"
	    "\"rccl_api\":[],\"memory_copy\":[");
	if (fflush(rp.copies) == EOF || fseek(rp.copies, 0, SEEK_SET) != 0)
		tl_die("tmpfile:");
	while ((n = fread(buf, 1, sizeof(buf), rp.copies)) > 0)
		put(buf, n);
	if (ferror(rp.copies))
		tl_die("tmpfile:");
	fclose(rp.copies);
	PUTS("],\"memory_allocation\":[],\"scratch_memory\":[]},");
	if (rp.symlate)
		symbols(gen);
	PUTS("\"metadata\":{\"node\":{\"id\":0,\"hash\":0,\"machine_id\":"
	    "\"4c5e1d0a9b2f4e7d8c6b5a4f3e2d1c0b\",\"system_name\":\"Linux\","
	    "\"hostname\":\"gentrace-");
	putu(rp.in.seed);
	PUTS("\",\"release\":\"6.8.0-45-generic\",\"version\":\"#45-Ubuntu SMP\","
	    "\"hardware_name\":\"x86_64\",\"domain_name\":\"(none)\"},");
	kv("pid", rp.in.pid);
	putch(',');
	kv("init_time", rp.in.t0 + rp.shift - 250000000);
	putch(',');
	kv("fini_time", rp.last + 40000000);
	PUTS(",\"command\":[\"python3\",\"-u\",\"train.py\"],\"config\":"
	    "{\"output_file\":\"%hostname%/%pid%\",\"json_output\":true,"
	    "\"kernel_rename\":false}}}]}\n");
}
