/* See LICENSE file for copyright and license details. */
/*
 * worst.c: tl-gentrace -w KIND:N, traces made to hit a program's worst
 * case, for the tests that hold tl to linear or n log n time and to
 * bounded memory whatever the shape of the trace:
 *   deep:N    one call stack N cpu_ops deep, a kernel at the bottom
 *             (recursion over the tree: tl-diff, tl-lca, the forest)
 *   samets:N  N cpu_ops, each launching a kernel, all with the same ts
 *             and dur, so that they nest into one chain N deep, with
 *             N kernels under its bottom op (passes whose time is
 *             depth times kernels)
 *   names:N   N cpu_ops one after the other, each of its own name and
 *             launching one kernel (memory that grows with the number
 *             of distinct names)
 *   swap:N    N calls of aten::_foreach_add, each launching two kernels
 *             of one name, the first short and the second long; in
 *             every third call the kernel launched first runs second
 *             (an op's kernels are in the order of their launches, not
 *             of their runs: TraceLens pairs them across calls so)
 * The events are written in trace order, one per line; the bytes depend
 * on KIND and N alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "gentrace.h"

/* A launch at ts of a kernel that runs at kts for kdur. */
static void
launchd(FILE *fp, long long id, long long ts, long long kts, long long kdur,
    const char *kname)
{
	fprintf(fp, ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
	    "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %lld, "
	    "\"dur\": 1, \"args\": {\"correlation\": %lld}}", ts, id);
	fprintf(fp, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", "
	    "\"pid\": 0, \"tid\": 7, \"ts\": %lld, \"dur\": %lld, \"args\": "
	    "{\"correlation\": %lld, \"stream\": 7, \"device\": 0}}",
	    kname, kts, kdur, id);
	fprintf(fp, ",\n{\"ph\": \"s\", \"id\": %lld, \"pid\": 1, \"tid\": 1, "
	    "\"ts\": %lld, \"cat\": \"ac2g\", \"name\": \"ac2g\"}", id, ts);
	fprintf(fp, ",\n{\"ph\": \"f\", \"id\": %lld, \"pid\": 0, \"tid\": 7, "
	    "\"ts\": %lld, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}",
	    id, kts);
}

/* A launch at ts of a kernel at kts (2 us), and their ac2g flow. */
static void
launch(FILE *fp, long long id, long long ts, long long kts, const char *kname)
{
	launchd(fp, id, ts, kts, 2, kname);
}

/* A cpu_op named name at ts for dur. */
static void
cpuop(FILE *fp, const char *name, long long i, long long ts, long long dur)
{
	fprintf(fp, ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", "
	    "\"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": %lld, \"args\": "
	    "{\"External id\": %lld, \"Input Dims\": [[4, 2]], \"Input type\": "
	    "[\"float\"], \"Input Strides\": [[2, 1]], \"Concrete Inputs\": "
	    "[\"\"]}}", name, ts, dur, i + 1);
}

int
worst_write(FILE *fp, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char name[64];
	long long n, i;

	if (colon == NULL || (strncmp(spec, "deep:", 5) != 0 &&
	    strncmp(spec, "samets:", 7) != 0 && strncmp(spec, "names:", 6) != 0 &&
	    strncmp(spec, "swap:", 5) != 0))
		return -1;
	n = tl_strtonum(colon + 1, 1, 100000000, "-w count");
	/* A process name first: every trace of the set has one. */
	fputs("{\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"process_name\", "
	    "\"pid\": 1, \"tid\": 0, \"args\": {\"name\": \"python\"}}", fp);
	if (strncmp(spec, "deep:", 5) == 0) {
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "op_%lld", i % 7);
			cpuop(fp, name, i, 1000 + i, 2 * (n - i) + 10);
		}
		launch(fp, 1, 1000 + n, 10 * n + 5000, "deep_kernel");
	} else if (strncmp(spec, "samets:", 7) == 0) {
		for (i = 0; i < n; i++)
			cpuop(fp, "aten::add", i, 1000, 100);
		for (i = 0; i < n; i++)
			launch(fp, i + 1, 1001, 5000 + 3 * i, "add_kernel");
	} else if (strncmp(spec, "names:", 6) == 0) {
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "custom::op_%lld", i);
			cpuop(fp, name, i, 1000 + 10 * i, 8);
			launch(fp, i + 1, 1000 + 10 * i + 2, 5000 + 10 * i, "k");
		}
	} else if (strncmp(spec, "swap:", 5) == 0) {
		for (i = 0; i < n; i++) {
			long long t = 1000 + 100 * i, k = 100000 + 100 * i;
			int sw = i % 3 == 1;	/* the first launched runs second */

			cpuop(fp, "aten::_foreach_add", i, t, 50);
			launchd(fp, 2 * i + 1, t + 5, sw ? k + 40 : k,
			    10 + i % 4, "foreach_kernel");
			launchd(fp, 2 * i + 2, t + 10, sw ? k : k + 40,
			    30 + i % 5, "foreach_kernel");
		}
	}
	fputs("\n]}\n", fp);
	return 0;
}
