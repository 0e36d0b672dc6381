/* See LICENSE file for copyright and license details. */
/*
 * CustomCollective: the custom collectives of AITER, vLLM and SGLang
 * (TraceLens's custom_collectives extension): per-GPU HBM bytes only.
 */
#include "models.h"

/* What a custom collective reads: the table args of collective(). */
struct coll {
	int x;		/* Input Dims slot of op_shape (the local input) */
	int out;	/* that of out_shape, or -1 */
	int outfirst;	/* out_shape is the first param */
	int dt;		/* Input type slot of dtype_in */
	int strides;	/* stride_input at slot x (else none) */
	int w;		/* weight slot (num_channels) of a fused all-reduce + RMSNorm, or -1 */
};

/*
 * No MAF type, so no Compute Spec.  Fused all-reduce + RMSNorm: FLOPs
 * E + (E//C)(2C + 2) + 2E, bytes (4E + C) bpe; all-reduce: 0 FLOPs, 2E
 * bpe; reduce-scatter, all-gather: (E + E_out) bpe.  Table args: those
 * of struct coll, in its order.
 */
int
collective(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	const struct coll cs = { m->arg[0], m->arg[1], m->arg[2], m->arg[3], m->arg[4],
	    m->arg[5] }, *c = &cs;
	struct shape x, out, w;
	const char *dt;
	struct pynum E, C, f;
	int bpe;

	if (c->out >= 0 && c->outfirst && arg_shape(a, r, c->out, &out) < 0)
		return M_FAIL;
	if (arg_shape(a, r, c->x, &x) < 0)
		return M_FAIL;
	if (c->out >= 0 && !c->outfirst && arg_shape(a, r, c->out, &out) < 0)
		return M_FAIL;
	if (arg_str(a, r, FD_TYPES, c->dt, &dt) < 0)
		return M_FAIL;
	if (c->outfirst)
		p_shape(r, "out_shape", &out, 1);
	p_shape(r, "op_shape", &x, 1);
	if (c->out >= 0 && !c->outfirst)
		p_shape(r, "out_shape", &out, 1);
	p_str(r, "dtype_in", dt);
	if (c->strides && p_stride(a, r, "stride_input", c->x, 0) < 0)
		return M_FAIL;
	E = I(prod(r, &x));
	if (c->w >= 0) {
		if (arg_shape(a, r, c->w, &w) < 0)
			return M_FAIL;
		if (w.n < 1)
			return fail(r, "weight shape is empty");
		C = I(w.d[0]);
		p_num(r, "num_channels", C);
		f = mul(r, fdiv(r, E, C), add(r, mul(r, I(2), C), I(2)));
		r->flops = add(r, E, add(r, f, mul(r, E, I(2))));
	} else
		r->flops = I(0);
	if ((bpe = model_bpe(dt)) == 0)
		return fail(r, "unknown dtype %s", dt ? dt : "None");
	if (c->w >= 0)
		set_bytes(r, 1, add(r, add(r, mul(r, mul(r, I(2), E), I(bpe)), mul(r, C, I(bpe))),
		    mul(r, mul(r, I(2), E), I(bpe))));
	else if (c->out >= 0)
		set_bytes(r, 1, mul(r, add(r, E, I(prod(r, &out))), I(bpe)));
	else
		set_bytes(r, 1, mul(r, mul(r, I(2), E), I(bpe)));
	return M_OK;
}
