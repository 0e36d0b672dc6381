/* See LICENSE file for copyright and license details. */
/*
 * gpuarch.h: a GPU spec in TraceLens's schema (--gpu-arch FILE: the
 * memory bandwidth and the peak TFLOPS by compute spec), parsed from
 * the user's JSON.  gpuarch.c.
 */

#define GPUARCH_NPEAK 32	/* max_achievable_tflops keys kept */
#define GPUARCH_KEYLEN 24	/* longest key + 1 */

struct gpuarch {
	int has_bw;		/* mem_bw_gbps given (not null) */
	double bw;		/* mem_bw_gbps */
	char key[GPUARCH_NPEAK][GPUARCH_KEYLEN];	/* max_achievable_tflops keys */
	double peak[GPUARCH_NPEAK];	/* their values */
	int has_peak[GPUARCH_NPEAK];	/* value is a number (not null) */
	size_t npeak;		/* keys used */
};

/*
 * Parse js[0..len) into a (zeroed first).  0 on success; -1 with *err,
 * a static message, when it is not a spec: not a JSON object, a
 * member that is not "name": value, a value of the wrong type, a bandwidth or
 * peak not positive, too many or too long keys.
 */
int gpuarch_parse(struct gpuarch *a, const char *js, size_t len,
    const char **err);

/* max_achievable_tflops[spec], or NULL when absent or null. */
const double *gpuarch_peak(const struct gpuarch *a, const char *spec);
