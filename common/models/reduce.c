/* See LICENSE file for copyright and license details. */
/*
 * Reduce: TraceLens's Reduce classes (aten::sum, mean, amax ...): one
 * FLOP an input element; the input read, the output written.
 */
#include <string.h>

#include "models.h"

/*
 * With --fixed-models, the dim and keepdim arguments that TraceLens
 * means to read from Concrete Inputs (it never does: they are strings).
 * Returns the output element count.
 */
static int64_t
reduce_out_fixed(const struct opargs *a, struct mresult *r, const struct shape *in)
{
	const struct jval *ci = jdoc_root(&a->concrete), *e;
	struct shape dim, out;
	int keep = 0, havekeep = 0, havedim = 0, drop[SHAPE_MAX] = { 0 };
	size_t i, n = jarr_len(ci), k;
	int64_t v, d;
	const char *s;

	if (!a->has_concrete || n < 2)
		return 1;
	for (i = n; i-- > 1;) {
		s = jstr(&a->concrete, jarr_at(&a->concrete, ci, i));
		if (s && (strcmp(s, "True") == 0 || strcmp(s, "False") == 0)) {
			keep = s[0] == 'T';
			havekeep = i;
			break;
		}
	}
	for (i = n; i-- > 1;) {
		if (havekeep && i == (size_t)havekeep)
			continue;
		e = jarr_at(&a->concrete, ci, i);
		if ((s = jstr(&a->concrete, e)) == NULL || *s == '\0')
			continue;
		if (shape_pylist(s, &dim) == 0) {
			havedim = 1;
			break;
		}
		if (shape_pyint(s, &v) == 0) {
			dim.n = 1;
			dim.d[0] = v;
			havedim = 1;
			break;
		}
	}
	if (!havedim || dim.n == 0)
		return 1;
	for (i = 0; i < dim.n; i++) {
		d = dim.d[i] < 0 ? dim.d[i] + (int64_t)in->n : dim.d[i];
		if (d >= 0 && d < (int64_t)in->n)
			drop[d] = 1;
	}
	out.n = 0;
	for (k = 0; k < in->n; k++)
		if (!drop[k])
			out.d[out.n++] = in->d[k];
		else if (keep)
			out.d[out.n++] = 1;
	return prod(r, &out);
}

/*
 * aten::sum, mean, amax ...: Concrete Inputs are strings, so TraceLens
 * never finds the dim and counts one output element (cumsum/cumprod:
 * as many as in).
 */
int
reduce_aten(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	const struct jval *d0;
	struct shape in;
	const char *dtin = NULL, *dtout = NULL, *rt;
	int64_t nin, nout;
	int bi, bo;

	d0 = a->has_dims ? jarr_at(&a->dims, jdoc_root(&a->dims), 0) : NULL;
	if (a->bad_dims)
		return fail(r, "malformed Input Dims");
	if (a->has_dims && jdoc_root(&a->dims)->t != J_ARR)
		return fail(r, "Input Dims is not a list");
	if (d0 == NULL || d0->t == J_NULL) {
		p_int(r, "num_input_elems", 0);
		p_int(r, "num_output_elems", 0);
		p_raw(r, "dtype_in_out", "(None, None)");
		r->flops = I(0);
		set_bytes(r, 0, I(0));
		return M_OK;
	}
	if (arg_shape(a, r, 0, &in) < 0)
		return M_FAIL;
	nin = prod(r, &in);
	if (a->bad_types)
		return fail(r, "malformed Input type");
	if (a->has_types && jarr_len(jdoc_root(&a->types)) > 0 &&
	    arg_str(a, r, FD_TYPES, 0, &dtin) < 0)
		return M_FAIL;
	if (a->has_outtype && jarr_len(jdoc_root(&a->outtype)) > 0) {
		const struct jval *o = jarr_at(&a->outtype, jdoc_root(&a->outtype), 0);

		if (o->t != J_NULL && (dtout = jstr(&a->outtype, o)) == NULL)
			return fail(r, "Output type[0] is not a string");
	}
	if (strstr(a->name, "cumsum") || strstr(a->name, "cumprod"))
		nout = nin;
	else
		nout = a->fixed ? reduce_out_fixed(a, r, &in) : 1;
	rt = strstr(a->name, "mean") ? "mean" : strstr(a->name, "max") ? "max" :
	    strstr(a->name, "min") ? "min" : strstr(a->name, "norm") ? "norm" : "sum";
	p_int(r, "num_input_elems", nin);
	p_int(r, "num_output_elems", nout);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ dtin, dtout });
	p_str(r, "reduce_type", rt);
	bi = dtin && *dtin ? model_bpe(dtin) : 0;
	bo = dtout != NULL ? (*dtout ? model_bpe(dtout) : 0) : bi;
	r->dtype = dtin;
	r->flops = I(nin);
	if (bwd)
		set_bytes(r, bi && bo, add(r, mul(r, I(nout), I(bo)), mul(r, I(nin), I(bi))));
	else
		set_bytes(r, bi && bo, add(r, mul(r, I(nin), I(bi)), mul(r, I(nout), I(bo))));
	return M_OK;
}
