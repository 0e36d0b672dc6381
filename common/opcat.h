/* See LICENSE file for copyright and license details. */
/*
 * opcat.h: TraceLens's op categorizer (categorize_torch_op), and its
 * kernel categorizer for rocprofv3 traces.
 *
 * An op's category comes from its name: first TraceLens's registry,
 * the category-only names, then the category of the op's performance
 * model (GEMM, SDPA_fwd, NORM_fwd, elementwise ...: the perf-model
 * table, perfmodel.h); then the patterns ^triton and
 * ^record_param_comms; then, for an op whose first kernel is an ATen
 * native kernel, the kind of that kernel; else "other".
 */
#ifndef OPCAT_H
#define OPCAT_H

/*
 * The category of the host op called name.  first_kernel is the name
 * of the first (earliest) kernel the op launches directly, or NULL when
 * it launches none.  Returns a static string, never NULL.
 */
const char *opcat(const char *name, const char *first_kernel);

/* The registry's category for name, or NULL when it is not there. */
const char *opcat_lookup(const char *name);

/*
 * TraceLens's category of a kernel of a rocprofv3 trace (its
 * rocprof_analysis _categorize_kernel): GEMM, Elementwise, Reduction,
 * Convolution, Normalization, Attention, Memory, COMM or Other, from
 * the markers the lower-cased name holds.  Returns a static string.
 */
const char *kernelcat(const char *name);

#endif
