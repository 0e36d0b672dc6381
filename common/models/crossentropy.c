/* See LICENSE file for copyright and license details. */
/*
 * CrossEntropy: Megatron's fused cross entropy (TraceLens's
 * CrossEntropy class).
 */
#include "models.h"

/*
 * CrossEntropyFunction: logits (batch, ..., vocab); 5 FLOPs per logit of
 * a row; bytes: the logits, 8-byte targets and float losses.
 */
int
cross_entropy(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape l;
	const char *dt;
	int n, bpe;

	if (arg_shape(a, r, 0, &l) < 0)
		return M_FAIL;
	if (l.n < 1)
		return fail(r, "logits shape is empty");
	if (type0(a, r, "c10::BFloat16", &dt, &n) < 0)
		return M_FAIL;
	p_int(r, "batch", l.d[0]);
	p_int(r, "vocab_size", l.d[l.n - 1]);
	p_shape(r, "logits_shape", &l, 0);
	r->dtype = n > 0 ? dt : NULL;
	bpe = bpe_or2(dt);
	r->flops = mul(r, mul(r, I(5), I(l.d[0])), I(l.d[l.n - 1]));
	set_bytes(r, 1, add(r, add(r, mul(r, I(prod(r, &l)), I(bpe)), mul(r, I(l.d[0]), I(8))),
	    mul(r, I(l.d[0]), I(4))));
	return M_OK;
}
