/* See LICENSE file for copyright and license details. */
/*
 * InferenceAttention: the attention of inference engines (vLLM, SGLang,
 * ATOM, AITER; TraceLens's InferenceAttention classes), whose FLOPs
 * need the sq/sk sums of the iteration the op runs in; the KV-cache
 * store, and AITER's sparse prefill.
 */
#include <string.h>

#include "models.h"

/*
 * The sq/sk aggregates of an iteration: context (c_) and generation
 * (g_) token counts, and the sums of sq*sq and sq*sk over requests.
 */
struct chunks {
	int64_t c_sq, c_sk, c_sqsq, c_sqsk;	/* context (prefill) requests */
	int64_t g_sq, g_sk, g_sqsq, g_sqsk;	/* generation (decode) requests */
};

static int
isword(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* Match literal lit at *p; advance. */
static int
lit(const char **p, const char *l)
{
	size_t n = strlen(l);

	if (strncmp(*p, l, n) != 0)
		return 0;
	*p += n;
	return 1;
}

/* Match \d+ at *p into *v (ovf on overflow); advance. */
static int
digits(const char **p, int64_t *v, int *ovf)
{
	uint64_t u = 0;
	const char *s = *p;

	if (!isdig(*s))
		return 0;
	for (; isdig(*s); s++) {
		if (u > ((uint64_t)INT64_MAX - 9) / 10)
			*ovf = 1;
		u = u * 10 + (*s - '0');
	}
	*v = (int64_t)(u & INT64_MAX);
	*p = s;
	return 1;
}

/*
 * vLLM's detailed iteration name, matched at the start:
 * execute_N_context_N(sqNskNsqsqNsqskN)_generation_N(sqNskNsqsqNsqskN)
 */
static int
ann_vllm(const char *s, struct chunks *c, int *ovf)
{
	int64_t x;

	return lit(&s, "execute_") && digits(&s, &x, ovf) && lit(&s, "_context_") &&
	    digits(&s, &x, ovf) && lit(&s, "(sq") && digits(&s, &c->c_sq, ovf) &&
	    lit(&s, "sk") && digits(&s, &c->c_sk, ovf) && lit(&s, "sqsq") &&
	    digits(&s, &c->c_sqsq, ovf) && lit(&s, "sqsk") &&
	    digits(&s, &c->c_sqsk, ovf) && lit(&s, ")_generation_") &&
	    digits(&s, &x, ovf) && lit(&s, "(sq") && digits(&s, &c->g_sq, ovf) &&
	    lit(&s, "sk") && digits(&s, &c->g_sk, ovf) && lit(&s, "sqsq") &&
	    digits(&s, &c->g_sqsq, ovf) && lit(&s, "sqsk") &&
	    digits(&s, &c->g_sqsk, ovf) && lit(&s, ")");
}

/*
 * The key=value pairs of b[0..e), as re.findall(KEY=VALUE) finds them
 * (later keys win): key a \w run right before '='; the value \d+
 * (atom 0) or, for ATOM, a [...] list (optionally ...+N) or \S+.
 * Calls want() for the keys asked for; returns nothing.
 */
struct kv {
	const char *k[8];	/* keys wanted */
	int64_t *v[8];		/* where their int() goes (0 when not an int) */
	int seen[8];		/* key found */
	size_t n;		/* keys */
};

static void
kv_scan(const char *b, const char *e, int atom, struct kv *kv, int *ovf)
{
	const char *p = b, *q, *v, *ve;
	size_t i, kl;
	int64_t x;

	while (p < e) {
		if (!isword(*p)) {
			p++;
			continue;
		}
		for (q = p; q < e && isword(*q); q++)
			;
		if (q + 1 >= e || *q != '=') {
			p = q;
			continue;
		}
		v = q + 1;
		if (!atom) {
			if (!isdig(*v)) {
				p = q;
				continue;
			}
			for (ve = v; ve < e && isdig(*ve); ve++)
				;
		} else {
			ve = NULL;
			if (*v == '[') {
				const char *r = memchr(v, ']', e - v);

				if (r != NULL) {
					ve = r + 1;
					if (e - ve >= 5 && strncmp(ve, "...+", 4) == 0 &&
					    isdig(ve[4]))
						for (ve += 4; ve < e && isdig(*ve); ve++)
							;
				}
			}
			if (ve == NULL) {
				if (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r' ||
				    *v == '\f' || *v == '\v') {
					p = q;
					continue;
				}
				for (ve = v; ve < e && !(*ve == ' ' || *ve == '\t' ||
				    *ve == '\n' || *ve == '\r' || *ve == '\f' || *ve == '\v'); ve++)
					;
			}
		}
		kl = q - p;
		for (i = 0; i < kv->n; i++)
			if (strlen(kv->k[i]) == kl && strncmp(kv->k[i], p, kl) == 0) {
				char tmp[64];
				size_t vl = ve - v;

				kv->seen[i] = 1;
				*kv->v[i] = 0;
				if (vl < sizeof(tmp)) {
					memcpy(tmp, v, vl);
					tmp[vl] = '\0';
					if (shape_pyint(tmp, &x) == 0)
						*kv->v[i] = x;
					else if (bigint(tmp))
						*ovf = 1;
				} else {
					const char *d = v;

					while (d < ve && isdig(*d))
						d++;
					if (d == ve)
						*ovf = 1;	/* 64 digits */
				}
			}
		p = ve;
	}
}

/*
 * SGLang's detailed step name, matched at the start:
 * step[(EXTEND|DECODE|MIXED)\b ... sqsq=N ...]; the aggregates are the
 * c_/g_ keys between the first '[' and the last ']'.
 */
static int
ann_sglang(const char *s, struct chunks *c, int *ovf)
{
	const char *p = s, *r, *b, *e, *m;
	struct kv kv = { { "c_sq", "c_sk", "c_sqsq", "c_sqsk", "g_sq", "g_sk",
	    "g_sqsq", "g_sqsk" }, { &c->c_sq, &c->c_sk, &c->c_sqsq, &c->c_sqsk,
	    &c->g_sq, &c->g_sk, &c->g_sqsq, &c->g_sqsk }, { 0 }, 8 };

	if (!lit(&p, "step[") || !(lit(&p, "EXTEND") || lit(&p, "DECODE") ||
	    lit(&p, "MIXED")) || *p == '\0' || isword(*p))
		return 0;
	if ((r = strchr(p, ']')) == NULL)
		return 0;
	for (m = p; (m = strstr(m, "sqsq=")) != NULL && m < r; m++)
		if (m + 5 < r && isdig(m[5]))
			break;
	if (m == NULL || m >= r)
		return 0;
	b = strchr(s, '[') + 1;
	e = strrchr(s, ']');
	kv_scan(b, e, 0, &kv, ovf);
	return 1;
}

/*
 * ATOM's name: (prefill|decode)[...] on its first line, with sqsq= and
 * sqsk= keys; tok, sk, sqsq, sqsk give the prefill (c_) or decode (g_)
 * aggregates.
 */
static int
ann_atom(const char *s, struct chunks *c, int *ovf)
{
	const char *p = s, *nl, *e;
	int64_t tok = 0, sk = 0, sqsq = 0, sqsk = 0;
	int pre;
	struct kv kv = { { "tok", "sk", "sqsq", "sqsk" }, { &tok, &sk, &sqsq, &sqsk },
	    { 0 }, 4 };

	if ((pre = lit(&p, "prefill[")) == 0 && !lit(&p, "decode["))
		return 0;
	nl = strchr(p, '\n');
	if (nl == NULL)
		nl = p + strlen(p);
	for (e = nl; e > p && e[-1] != ']'; e--)
		;
	if (e == p)
		return 0;
	kv_scan(p, e - 1, 1, &kv, ovf);
	if (!kv.seen[2] || !kv.seen[3])
		return 0;
	if (pre) {
		c->c_sq = tok, c->c_sk = sk, c->c_sqsq = sqsq, c->c_sqsk = sqsk;
	} else {
		c->g_sq = tok, c->g_sk = sk, c->g_sqsq = sqsq, c->g_sqsk = sqsk;
	}
	return 1;
}

/*
 * TraceLens's IterationAnnotation(...).chunk_stats(): 0 and *c filled
 * for a detailed vLLM, SGLang or ATOM iteration name; -1 for any other
 * (native names carry no sq/sk sums; "NA" when the op is under none).
 */
static int
ann_chunks(const char *ann, struct chunks *c, int *ovf)
{
	memset(c, 0, sizeof(*c));
	if (ann == NULL)
		return -1;
	if (ann_vllm(ann, c, ovf))
		return 0;
	memset(c, 0, sizeof(*c));
	if (ann_sglang(ann, c, ovf))
		return 0;
	memset(c, 0, sizeof(*c));
	if (ann_atom(ann, c, ovf))
		return 0;
	return -1;
}

/*
 * vllm::unified_attention_with_output: q (N_Q, H_Q, d) and k (..., N_KV,
 * H_KV, d) with the sq/sk sums of the iteration the op runs in (its
 * annotation column: the name of the user_annotation around it).
 * FLOPs: context QK^T and PV over sum(sq*sk) minus half the causal
 * sum(sq*sq), plus generation over sum(sq*sk); bytes: Q, O and the new
 * K, V in the Q dtype, the cached K, V in the KV dtype.
 */
int
infattn_vllm(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct chunks c;
	struct shape q, k;
	const char *dq = NULL, *dkv;
	int64_t NQ, HQ, dqk, NKV, HKV, dv, x;
	struct pynum f, t, cq, ckv, gq, gkv;
	long nt;
	int ovf = 0, bpe, bkv;

	/* TraceLens turns every parse error into "no perf": flops() is None */
	if (ann_chunks(a->annotation, &c, &ovf) < 0)
		return fail(r, "no sq/sk iteration annotation");
	if (arg_shape(a, r, 0, &q) < 0 || arg_shape(a, r, 1, &k) < 0 ||
	    (nt = arg_len(a, r, FD_TYPES)) < 0 || arg_str(a, r, FD_TYPES, 0, &dq) < 0)
		return M_FAIL;
	if (q.n != 3 || k.n < 3)
		return fail(r, "q is not (N, H, d) or k has fewer than 3 dims");
	NQ = q.d[0], HQ = q.d[1], dqk = q.d[2];
	NKV = k.d[k.n - 3], HKV = k.d[k.n - 2], dv = k.d[k.n - 1];
	dkv = dq;
	if (nt > 1 && arg_str(a, r, FD_TYPES, 1, &dkv) < 0)
		return M_FAIL;
	if (ovf)
		r->ovf = 1;
	p_int(r, "B", 1);
	p_int(r, "N_Q", NQ);
	p_int(r, "H_Q", HQ);
	p_int(r, "H_V", HKV);
	p_int(r, "H_K", HKV);
	p_int(r, "N_KV", NKV);
	p_int(r, "H_KV", HKV);
	p_int(r, "d_h_qk", dqk);
	p_int(r, "d_h_v", dv);
	p_num(r, "dropout", F(0.0));
	p_bool(r, "causal", 0);
	p_bool(r, "flash_impl", 1);
	p_int(r, "c_sq", c.c_sq);
	p_int(r, "c_sk", c.c_sk);
	p_int(r, "c_sqsq", c.c_sqsq);
	p_int(r, "c_sqsk", c.c_sqsk);
	p_int(r, "g_sq", c.g_sq);
	p_int(r, "g_sk", c.g_sk);
	p_int(r, "g_sqsq", c.g_sqsq);
	p_int(r, "g_sqsk", c.g_sqsk);
	p_str(r, "dtype_Q", dq);
	p_str(r, "dtype_KV", dkv);
	if (c.c_sq == 0 && c.g_sq == 0)
		return M_UNDEF;	/* decode without annotations: NotImplementedError */
	r->dtype = dq != NULL && *dq ? dq : NULL;
	/* H_Q*(2*s*d): s = sum(sq*sk) for context and generation, less sum(sq*sq) causal */
	f = mul(r, I(HQ), mul(r, mul(r, I(2), I(c.c_sqsk)), I(dqk)));
	t = mul(r, I(HQ), mul(r, mul(r, I(2), I(c.c_sqsk)), I(dv)));
	f = sub(r, f, mul(r, I(HQ), mul(r, mul(r, I(1), I(c.c_sqsq)), I(dqk))));
	t = sub(r, t, mul(r, I(HQ), mul(r, mul(r, I(1), I(c.c_sqsq)), I(dv))));
	f = add(r, f, t);
	f = add(r, f, mul(r, I(HQ), mul(r, mul(r, I(2), I(c.g_sqsk)), I(dqk))));
	r->flops = add(r, f, mul(r, I(HQ), mul(r, mul(r, I(2), I(c.g_sqsk)), I(dv))));
	bpe = model_bpe(dq);
	if (bpe == 0)
		bpe = 2;	/* "name2bpe(dtype_Q) or 2" */
	bkv = dkv != NULL && *dkv ? model_bpe(dkv) : 0;
	if (bkv == 0)
		bkv = bpe;
#define Q4(s, h) add(r, add(r, add(r, mul(r, mul(r, I(s), I(HQ)), I(dqk)), \
	mul(r, mul(r, I(s), I(HQ)), I(dv))), mul(r, mul(r, I(s), I(h)), I(dqk))), \
	mul(r, mul(r, I(s), I(h)), I(dv)))
	cq = Q4(c.c_sq, HKV);
	gq = Q4(c.g_sq, HKV);
#undef Q4
	x = sub(r, I(c.c_sk), I(c.c_sq)).i;
	ckv = add(r, mul(r, mul(r, I(x), I(HKV)), I(dqk)), mul(r, mul(r, I(x), I(HKV)), I(dv)));
	x = sub(r, I(c.g_sk), I(c.g_sq)).i;
	gkv = add(r, mul(r, mul(r, I(x), I(HKV)), I(dqk)), mul(r, mul(r, I(x), I(HKV)), I(dv)));
	set_bytes(r, 1, add(r, mul(r, add(r, cq, gq), I(bpe)), mul(r, add(r, ckv, gkv), I(bkv))));
	return M_OK;
}

/*
 * The other inference-attention ops read the same annotation, which
 * TraceLens's perf report attaches to vllm::unified_attention_with_output
 * only: for them it is always missing, and they are never modelled.
 */
int
infattn_unannotated(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	return fail(r, "no iteration annotation (TraceLens annotates only "
	    "vllm::unified_attention_with_output)");
}

/* sglang::store_cache: k at Input Dims[0]; no FLOPs; 4 E bpe (k, v read and written). */
int
infattn_store_cache(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape k;
	const char *dt;
	struct pynum E;

	if (arg_shape(a, r, 0, &k) < 0 || arg_str(a, r, FD_TYPES, 0, &dt) < 0)
		return M_FAIL;
	E = I(prod(r, &k));
	p_shape(r, "op_shape", &k, 1);
	p_num(r, "nelems", E);
	p_str(r, "dtype", dt);
	r->dtype = dt != NULL && *dt ? dt : NULL;
	r->flops = I(0);
	set_bytes(r, 1, mul(r, mul(r, I(4), E), I(bpe_or2(dt))));
	return M_OK;
}

/*
 * aiter::pa_sparse_prefill_opus_fwd (DeepSeek-V4 sparse prefill): q
 * (N_Q, H_Q, d) at Input Dims[0]; the (query, KV slot) pairs are the
 * lengths of the prefix and extend index lists at [2], [5]; one latent
 * KV head.  Any parse error: not modelled (TraceLens's "no perf").
 */
int
infattn_pa_sparse_prefill(const struct opargs *a, struct mresult *r,
    const struct model *m, int bwd)
{
	struct shape q, p2, p5;
	const char *dq, *dkv;
	struct pynum pairs, b;
	long nt;
	int bq, bk;

	if (arg_shape(a, r, 0, &q) < 0 || arg_shape(a, r, 2, &p2) < 0 ||
	    arg_shape(a, r, 5, &p5) < 0 || (nt = arg_len(a, r, FD_TYPES)) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &dq) < 0)
		return M_FAIL;
	if (q.n < 3 || p2.n < 1 || p5.n < 1)
		return fail(r, "q or index shapes too short");
	dkv = dq;
	if (nt > 1 && arg_str(a, r, FD_TYPES, 1, &dkv) < 0)
		return M_FAIL;
	pairs = add(r, I(p2.d[0]), I(p5.d[0]));
	p_int(r, "B", 1);
	p_int(r, "N_Q", q.d[0]);
	p_int(r, "H_Q", q.d[1]);
	p_int(r, "H_V", 1);
	p_int(r, "H_K", 1);
	p_num(r, "N_KV", pairs);
	p_int(r, "H_KV", 1);
	p_int(r, "d_h_qk", q.d[2]);
	p_int(r, "d_h_v", q.d[2]);
	p_num(r, "dropout", F(0.0));
	p_bool(r, "causal", 0);
	p_bool(r, "flash_impl", 1);
	p_num(r, "prefill_pairs", pairs);
	p_str(r, "dtype_Q", dq);
	p_str(r, "dtype_KV", dkv);
	/* precision: the Q dtype, else bf16 */
	r->dtype = dq != NULL && *dq ? dq : "c10::bfloat16";
	r->flops = mul(r, mul(r, mul(r, pairs, I(q.d[1])), I(2)), add(r, I(q.d[2]), I(q.d[2])));
	bq = model_bpe(dq) ? model_bpe(dq) : 2;
	bk = dkv != NULL && *dkv && model_bpe(dkv) ? model_bpe(dkv) : bq;
	b = mul(r, mul(r, mul(r, mul(r, I(2), I(q.d[0])), I(q.d[1])), I(q.d[2])), I(bq));
	set_bytes(r, 1, add(r, b, mul(r, mul(r, pairs, I(q.d[2])), I(bk))));
	return M_OK;
}
