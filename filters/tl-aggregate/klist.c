/* See LICENSE file for copyright and license details. */
/*
 * klist.c: tl-aggregate's kstats and ktrunc, the summaries of a group's
 * kernel lists (JSON lists of {name, dur, ...}) as TraceLens writes
 * them: the first list is the template, and each position's durations
 * are summed, averaged, and so on across the lists of its length.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#include <jsmn.h>

#include "tl.h"
#include "jtok.h"
#include "numpy.h"
#include "agg.h"

/* Position-wise kernel durations for kstats/ktrunc. */
struct kpos {
	struct buf name;	/* decoded kernel name of the template */
	struct buf rest;	/* other template members as Python "'k': v, " */
	struct buf stream;	/* the template's stream as Python "'stream': v, " */
	struct buf cs;		/* its call_stack's names, each NUL-ended */
	size_t csoff;		/* where the call_stack member starts in rest */
	size_t csend;		/* and ends (csoff == csend: none) */
	size_t ncs;		/* names in cs */
	double *d;		/* durations at this position, owned */
	int nonint;		/* some duration is not an integer text */
	size_t n;		/* used */
	size_t cap;		/* allocated */
};

/* A group's kernel lists, position by position. */
struct klist {
	struct kpos *kp;	/* template positions, owned */
	size_t nkp;		/* positions; 0 before the template */
	int ktemplate;		/* the template is set */
	jsmntok_t *tok;		/* JSON tokens, owned, reused */
	size_t ntok;		/* tokens allocated */
	struct kdur *dv;	/* kl_fast's dur values, owned, reused */
	size_t dvcap;		/* allocated in dv */
};

/* One "dur" member of a list item, as kl_fast finds it. */
struct kdur {
	int item;		/* the item's position in the list */
	const char *s;		/* the value's text (a string's, inside its quotes) */
	size_t n;		/* its length */
};

/*
 * Decode the JSON string body s[0..n) into b; a bad escape keeps the
 * text as it stands, since a kernel name is only ever shown.
 */
static void
jdecode(struct buf *b, const char *s, size_t n)
{
	buf_reset(b);
	if (json_unescape(b, s, n) < 0) {
		buf_reset(b);
		buf_add(b, s, n);
	}
}

/*
 * Keep the names of the call_stack at token t (a JSON list of strings)
 * in k->cs, for call_stack_full; anything else is no stack.
 */
static void
kl_stack(struct kpos *k, const char *json, jsmntok_t *tok, int t, int nt)
{
	struct buf v = {0};
	int e, i;

	buf_reset(&k->cs);
	k->ncs = 0;
	if (tok[t].type != JSMN_ARRAY)
		return;
	for (e = 0, i = t + 1; e < tok[t].size; e++, i = jtok_skip(tok, i, nt)) {
		if (tok[i].type != JSMN_STRING)
			continue;
		jdecode(&v, json + tok[i].start, (size_t)(tok[i].end - tok[i].start));
		buf_add(&k->cs, v.s ? v.s : "", v.len);
		buf_addc(&k->cs, '\0');
		k->ncs++;
	}
	buf_free(&v);
}

/* Past the JSON string whose opening quote is at p, or NULL. */
static const char *
kf_str(const char *p, const char *e)
{
	int i;

	for (p++; p < e; p++) {
		/* (kernel names are long and plain: 8 bytes at a time) */
		p += plainrun(p, (size_t)(e - p), '"');
		if (p == e)
			break;
		if (*p == '"')
			return p + 1;
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p != '\\')
			continue;
		/* (the escapes jsmn takes; any other is jsmn's to refuse) */
		if (++p == e)
			return NULL;
		if (*p == 'u') {
			for (i = 0; i < 4; i++)
				if (++p == e || !((*p >= '0' && *p <= '9') ||
				    (*p >= 'a' && *p <= 'f') ||
				    (*p >= 'A' && *p <= 'F')))
					return NULL;
		} else if (*p == '\0' || strchr("\"/\\bfrnt", *p) == NULL) {
			return NULL;
		}
	}
	return NULL;
}

static const char *
kf_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* Past a number or literal's characters at p (none: p). */
static const char *
kf_prim(const char *p, const char *e)
{
	while (p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
	    *p == '.' || *p == '-' || *p == '+' || *p == 'E'))
		p++;
	return p;
}

/*
 * Past the JSON value at p (white space before it skipped), or NULL when
 * it is not plain JSON or nests deeper than depth.
 */
static const char *
kf_value(const char *p, const char *e, int depth)
{
	const char *v;
	char close;

	p = kf_ws(p, e);
	if (p == e)
		return NULL;
	if (*p == '"')
		return kf_str(p, e);
	if (*p != '[' && *p != '{') {
		v = kf_prim(p, e);
		return v == p ? NULL : v;
	}
	if (depth == 0)
		return NULL;
	close = *p == '[' ? ']' : '}';
	p = kf_ws(p + 1, e);
	if (p < e && *p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = kf_ws(p, e);
			if (p == e || *p != '"' || (p = kf_str(p, e)) == NULL)
				return NULL;
			p = kf_ws(p, e);
			if (p == e || *p++ != ':')
				return NULL;
		}
		if ((p = kf_value(p, e, depth - 1)) == NULL)
			return NULL;
		p = kf_ws(p, e);
		if (p < e && *p == ',') {
			p++;
			continue;
		}
		if (p < e && *p == close)
			return p + 1;
		return NULL;
	}
}

/*
 * A kernel list after the template, when it is a plain JSON list of
 * objects (what tl's writers make): its items in *nel and its "dur"
 * members in o->dv (*ndv of them, in order), found in one scan without
 * tokens; jsmn took a third of tl-aggregate's instructions.  -1 for
 * anything else (an item that is no object, a key that is no string,
 * text after the list ...): jsmn's path decides then, as it always did.
 */
static int
kl_fast(struct klist *o, const char *json, size_t len, int *nel, size_t *ndv)
{
	const char *p = json, *e = json + len, *k, *v;
	size_t kn;
	int item = 0;

	*ndv = 0;
	p = kf_ws(p, e);
	if (p == e || *p++ != '[')
		return -1;
	p = kf_ws(p, e);
	if (p < e && *p == ']') {
		*nel = 0;
		return kf_ws(p + 1, e) == e ? 0 : -1;
	}
	for (;; item++) {
		p = kf_ws(p, e);
		if (p == e || *p++ != '{')
			return -1;
		p = kf_ws(p, e);
		if (p < e && *p == '}')
			p++;
		else for (;;) {
			if (p == e || *p != '"' || (v = kf_str(p, e)) == NULL)
				return -1;
			k = p + 1;
			kn = (size_t)(v - 1 - k);
			p = kf_ws(v, e);
			if (p == e || *p++ != ':')
				return -1;
			p = kf_ws(p, e);
			if (p == e)
				return -1;
			if (*p == '"') {
				if ((v = kf_str(p, e)) == NULL)
					return -1;
			} else if ((v = kf_value(p, e, 16)) == NULL) {
				return -1;
			}
			if (kn == 3 && memcmp(k, "dur", 3) == 0) {
				if (*p == '[' || *p == '{')
					return -1;
				tl_grow((void **)&o->dv, &o->dvcap, *ndv + 1,
				    sizeof(*o->dv));
				o->dv[*ndv].item = item;
				o->dv[*ndv].s = *p == '"' ? p + 1 : p;
				o->dv[(*ndv)++].n = (size_t)(*p == '"' ?
				    v - 1 - (p + 1) : v - p);
			}
			p = kf_ws(v, e);
			if (p < e && *p == ',') {
				p = kf_ws(p + 1, e);
				continue;
			}
			if (p < e && *p == '}') {
				p++;
				break;
			}
			return -1;
		}
		p = kf_ws(p, e);
		if (p < e && *p == ',') {
			p++;
			continue;
		}
		if (p < e && *p == ']')
			break;
		return -1;
	}
	if (kf_ws(p + 1, e) != e)
		return -1;
	*nel = item + 1;
	return 0;
}

/* Add the dur text s[0..n) of list item e to its position k. */
static void
kl_dur(struct kpos *k, const char *s, size_t n, int e,
    const struct rec_reader *r, const char *opname)
{
	double d;

	if (num_double(s, n, &d) < 0)
		tl_die("%s: line %zu: %s: bad dur in list item %d",
		    r->name, r->lineno, opname, e);
	if (!num_isint(s, n))
		k->nonint = 1;
	tl_grow((void **)&k->d, &k->cap, k->n + 1, sizeof(*k->d));
	k->d[k->n++] = d;
}

/*
 * Token j, an object's key, has a token after it (jsmn, not strict,
 * takes `{"dur": 1, 67}` for an object whose last key has none: its
 * value was read past the tokens, from the last list's).
 */
static void
kl_member(int j, int nt, const struct rec_reader *r, const char *opname,
    const char *field)
{
	if (j + 1 >= nt)
		tl_die("%s: line %zu: %s: '%s' is not a JSON list",
		    r->name, r->lineno, opname, field);
}

/*
 * Add one kernel list (JSON text) to the position-wise durations of o;
 * opname and field (the operation and its field) name it in errors.
 */
void
kl_add(struct klist *o, const char *json, size_t len, const char *opname,
    const char *field, struct rec_reader *r)
{
	jsmntok_t *tok;
	jsmn_parser p;
	struct kpos *k;
	struct buf key = {0}, val = {0};
	int nt, i, j, e, m, nel, pos, tup;
	size_t ndv, x;

	/* (after the template, a plain list needs no tokens) */
	if (o->ktemplate && kl_fast(o, json, len, &nel, &ndv) == 0) {
		if (nel == 0 || (size_t)nel != o->nkp)
			return;
		for (e = 0, x = 0; e < nel; e++) {
			for (pos = 0; x < ndv && o->dv[x].item == e; x++) {
				kl_dur(&o->kp[e], o->dv[x].s, o->dv[x].n, e, r,
				    opname);
				pos = 1;
			}
			if (!pos)
				tl_die("%s: line %zu: %s: list item %d has no dur",
				    r->name, r->lineno, opname, e);
		}
		return;
	}
	for (;;) {
		if (o->ntok == 0) {
			o->ntok = 256;
			o->tok = tl_malloc(o->ntok * sizeof(*o->tok));
		}
		jsmn_init(&p);
		nt = jsmn_parse(&p, json, len, o->tok, (unsigned)o->ntok);
		if (nt != JSMN_ERROR_NOMEM)
			break;
		o->ntok *= 2;
		o->tok = tl_realloc(o->tok, o->ntok * sizeof(*o->tok));
	}
	tok = o->tok;
	if (nt < 1 || tok[0].type != JSMN_ARRAY)
		tl_die("%s: line %zu: %s: '%s' is not a JSON list",
		    r->name, r->lineno, opname, field);
	nel = tok[0].size;
	if (nel == 0)
		return;
	if (!o->ktemplate) {
		o->ktemplate = 1;
		o->nkp = (size_t)nel;
		o->kp = tl_calloc(o->nkp, sizeof(*o->kp));
		for (e = 0, i = 1; e < nel; e++, i = jtok_skip(tok, i, nt)) {
			k = &o->kp[e];
			if (tok[i].type != JSMN_OBJECT)
				tl_die("%s: line %zu: %s: list item %d is not "
				    "an object", r->name, r->lineno,
				    opname, e);
			for (m = 0, j = i + 1; m < tok[i].size; m++) {
				jdecode(&key, json + tok[j].start,
				    (size_t)(tok[j].end - tok[j].start));
				if (strcmp(key.s, "dur") != 0 &&
				    strcmp(key.s, "gpu_op_uid") != 0)
					kl_member(j, nt, r, opname, field);
				if (strcmp(key.s, "name") == 0) {
					jdecode(&k->name, json + tok[j + 1].start,
					    (size_t)(tok[j + 1].end -
					    tok[j + 1].start));
				} else if (strcmp(key.s, "dur") != 0 &&
				    strcmp(key.s, "gpu_op_uid") != 0) {
					/* (a call_stack is a Python list) */
					tup = strcmp(key.s, "call_stack") != 0;
					if (!tup) {
						kl_stack(k, json, tok, j + 1, nt);
						k->csoff = k->rest.len;
					}
					pystr(&k->rest, key.s, key.len);
					buf_adds(&k->rest, ": ");
					buf_reset(&val);
					if (tok[j + 1].type == JSMN_STRING)
						pylit(&val, json +
						    tok[j + 1].start - 1,
						    (size_t)(tok[j + 1].end -
						    tok[j + 1].start + 2), tup);
					else
						pylit(&val, json +
						    tok[j + 1].start,
						    (size_t)(tok[j + 1].end -
						    tok[j + 1].start), tup);
					buf_add(&k->rest, val.s ? val.s : "",
					    val.len);
					buf_adds(&k->rest, ", ");
					if (!tup)
						k->csend = k->rest.len;
					/* (ktrunc writes the stream alone) */
					if (strcmp(key.s, "stream") == 0) {
						buf_adds(&k->stream, "'stream': ");
						buf_add(&k->stream, val.s ? val.s : "",
						    val.len);
						buf_adds(&k->stream, ", ");
					}
				}
				j = jtok_skip(tok, j, nt);
			}
		}
	}
	/* TraceLens skips a list whose length differs from the template */
	if ((size_t)nel != o->nkp)
		goto out;
	for (e = 0, i = 1; e < nel; e++, i = jtok_skip(tok, i, nt)) {
		pos = 0;
		for (m = 0, j = i + 1; m < tok[i].size; m++, j = jtok_skip(tok, j, nt)) {
			if (tok[j].end - tok[j].start != 3 ||
			    memcmp(json + tok[j].start, "dur", 3) != 0)
				continue;
			kl_member(j, nt, r, opname, field);
			kl_dur(&o->kp[e], json + tok[j + 1].start,
			    (size_t)(tok[j + 1].end - tok[j + 1].start), e, r, opname);
			pos = 1;
		}
		if (!pos)
			tl_die("%s: line %zu: %s: list item %d has no dur",
			    r->name, r->lineno, opname, e);
	}
out:
	buf_free(&key);
	buf_free(&val);
}

/* The summary of one template position, as TraceLens computes it. */
struct kres {
	struct kpos *k;		/* its position, not owned */
	double total, mean, med, std, min, max;	/* statistics */
	int empty;		/* no durations: only count and total */
	int isint;		/* np.array of ints: total, min, max are int64 */
};

static int
krescmp(const void *a, const void *b)
{
	const struct kres *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return x->total < y->total ? -1 : 1;
	c = strcmp(x->k->name.s ? x->k->name.s : "",
	    y->k->name.s ? y->k->name.s : "");
	if (c)
		return c;
	return (x > y) - (x < y);	/* stable, like Python's sort */
}

/* name[:64] + '...' when longer than 64 characters (code points). */
static void
truncname(struct buf *b, const char *s, size_t len)
{
	size_t i, nch = 0, cut = len;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (nch == 64 && cut == len)
				cut = i;
			nch++;
		}
	if (nch <= 64) {
		pystr(b, s, len);
		return;
	}
	{
		struct buf t = {0};

		buf_add(&t, s, cut);
		buf_adds(&t, "...");
		pystr(b, t.s, t.len);
		buf_free(&t);
	}
}

/* d as numpy writes it: an int64 when isint, else a float64. */
static char *
kfmt(double d, int isint, char *buf, size_t size)
{
	return isint ? num_pyint(d, buf, size) : num_pyrepr(d, buf, size);
}

/* One kernel's chain for call_stack_full: its call_stack, then its name. */
struct chain {
	const char **s;		/* the names, not owned */
	size_t n;		/* names */
};

static int
chaineq(const struct chain *a, size_t ao, const struct chain *b, size_t bo)
{
	size_t i;

	if (a->n - ao != b->n - bo)
		return 0;
	for (i = 0; i < a->n - ao; i++)
		if (strcmp(a->s[ao + i], b->s[bo + i]) != 0)
			return 0;
	return 1;
}

/*
 * Append the names c->s[from..) to b: as the items of Python's str()
 * of a list (repr of each, ", " between) when !flat, else each
 * followed by the byte 037 (tl-unified -e's flattened stack).
 */
static void
putnames(struct buf *b, const struct chain *c, size_t from, int flat)
{
	size_t i;

	for (i = from; i < c->n; i++) {
		if (flat) {
			buf_adds(b, c->s[i]);
			buf_addc(b, 037);
			continue;
		}
		if (i > from)
			buf_adds(b, ", ");
		pystr(b, c->s[i], strlen(c->s[i]));
	}
}

/*
 * TraceLens's call_stack_full of the kernels in res (kstats's order):
 * one chain as it is; several, their common prefix and then each
 * distinct tail as a list, in the order first seen.  flat: the names
 * as _find_entry_point flattens them, each ended by the byte 037;
 * none ("Not found") is empty.
 */
static void
csfull(struct buf *b, struct kres *res, size_t n, int flat)
{
	struct chain *c;
	size_t i, j, m, minlen, pre;
	int nb;

	if (n == 0) {
		if (!flat)
			buf_adds(b, "Not found");
		return;
	}
	c = tl_calloc(n, sizeof(*c));
	for (i = 0; i < n; i++) {
		struct kpos *k = res[i].k;
		const char *p = k->cs.s;

		c[i].s = tl_calloc(k->ncs + 1, sizeof(*c[i].s));
		for (j = 0; j < k->ncs; j++) {
			c[i].s[j] = p;
			p += strlen(p) + 1;
		}
		c[i].s[j] = k->name.s ? k->name.s : "";
		c[i].n = k->ncs + 1;
	}
	pre = 0;
	if (n > 1) {
		minlen = c[0].n;
		for (i = 1; i < n; i++)
			if (c[i].n < minlen)
				minlen = c[i].n;
		for (pre = 0; pre < minlen; pre++) {
			for (i = 1; i < n; i++)
				if (strcmp(c[i].s[pre], c[0].s[pre]) != 0)
					break;
			if (i < n)
				break;
		}
	}
	if (!flat)
		buf_addc(b, '[');
	if (n == 1) {
		putnames(b, &c[0], 0, flat);
	} else {
		struct chain pc = { c[0].s, pre };

		putnames(b, &pc, 0, flat);
		nb = pre > 0;
		for (i = 0; i < n; i++) {
			for (m = 0; m < i; m++)
				if (chaineq(&c[m], pre, &c[i], pre))
					break;
			if (m < i)
				continue;
			if (!flat) {
				if (nb)
					buf_adds(b, ", ");
				buf_addc(b, '[');
			}
			putnames(b, &c[i], pre, flat);
			if (!flat)
				buf_addc(b, ']');
			nb = 1;
		}
	}
	if (!flat)
		buf_addc(b, ']');
	for (i = 0; i < n; i++)
		free(c[i].s);
	free(c);
}

/*
 * The summary of o as mode says: kstats's (KL_STATS; KL_STATSNC without
 * the call_stacks, as TraceLens leaves them with --include_call_stack),
 * ktrunc's (KL_TRUNC), call_stack_full (KL_CSFULL) or its names
 * flattened (KL_CSFLAT); exact (-x) says the durations are tl's exact
 * decimals.
 */
void
kl_put(FILE *fp, struct klist *o, enum klmode mode, int exact)
{
	int trunc = mode == KL_TRUNC;
	struct kres *res;
	struct buf b = {0};
	char nb[64];
	size_t i, n;
	double *x, *sq;

	if (!o->ktemplate) {
		if (mode == KL_STATS || mode == KL_STATSNC)
			rec_puts(fp, "[]");
		else if (mode == KL_CSFULL)
			rec_puts(fp, "Not found");
		return;
	}
	res = tl_calloc(o->nkp, sizeof(*res));
	for (i = 0; i < o->nkp; i++) {
		struct kpos *k = &o->kp[i];

		res[i].k = k;
		if (k->name.s == NULL)
			buf_add(&k->name, "", 0);
		n = k->n;
		res[i].total = np_sum(k->d, n);
		if (n == 0) {
			res[i].empty = 1;
			continue;
		}
		/* (-x: tl's exact decimals are not Python's ints) */
		res[i].isint = !exact && !k->nonint;
		res[i].mean = res[i].total / (double)n;
		x = tl_malloc(n * sizeof(*x));
		sq = tl_malloc(n * sizeof(*sq));
		memcpy(x, k->d, n * sizeof(*x));
		for (size_t j = 0; j < n; j++) {
			double dv = fabs(k->d[j] - res[i].mean);

			sq[j] = dv * dv;
		}
		res[i].std = sqrt(np_sum(sq, n) / (double)n);
		res[i].med = median(x, n);
		res[i].min = x[0];
		res[i].max = x[n - 1];
		free(x);
		free(sq);
	}
	qsort(res, o->nkp, sizeof(*res), krescmp);
	if (mode == KL_CSFULL || mode == KL_CSFLAT) {
		csfull(&b, res, o->nkp, mode == KL_CSFLAT);
		goto put;
	}
	buf_addc(&b, '[');
	for (i = 0; i < o->nkp; i++) {
		struct kres *q = &res[i];

		if (i)
			buf_adds(&b, ", ");
		buf_adds(&b, "{'name': ");
		if (trunc) {
			truncname(&b, q->k->name.s, q->k->name.len);
			buf_adds(&b, ", ");
			if (q->k->stream.len > 0)
				buf_add(&b, q->k->stream.s, q->k->stream.len);
			else
				buf_adds(&b, "'stream': None, ");
			buf_adds(&b, "'mean_duration_us': ");
			buf_adds(&b, q->empty ? "0" :
			    num_pyrepr(np_round2(q->mean), nb, sizeof(nb)));
			buf_addc(&b, '}');
			continue;
		}
		pystr(&b, q->k->name.s, q->k->name.len);
		buf_adds(&b, ", ");
		if (mode == KL_STATSNC && q->k->csend > q->k->csoff) {
			buf_add(&b, q->k->rest.s, q->k->csoff);
			buf_add(&b, q->k->rest.s + q->k->csend,
			    q->k->rest.len - q->k->csend);
		} else if (q->k->rest.len > 0)
			buf_add(&b, q->k->rest.s, q->k->rest.len);
		snprintf(nb, sizeof(nb), "%zu", q->k->n);
		buf_adds(&b, "'count': ");
		buf_adds(&b, nb);
		buf_adds(&b, ", 'total_duration_us': ");
		buf_adds(&b, kfmt(q->total, q->isint, nb, sizeof(nb)));
		if (!q->empty) {
			buf_adds(&b, ", 'mean_duration_us': ");
			buf_adds(&b, num_pyrepr(q->mean, nb, sizeof(nb)));
			buf_adds(&b, ", 'median_duration_us': ");
			buf_adds(&b, num_pyrepr(q->med, nb, sizeof(nb)));
			buf_adds(&b, ", 'std_dev_duration_us': ");
			buf_adds(&b, num_pyrepr(q->std, nb, sizeof(nb)));
			buf_adds(&b, ", 'min_duration_us': ");
			buf_adds(&b, kfmt(q->min, q->isint, nb, sizeof(nb)));
			buf_adds(&b, ", 'max_duration_us': ");
			buf_adds(&b, kfmt(q->max, q->isint, nb, sizeof(nb)));
		}
		buf_addc(&b, '}');
	}
	buf_addc(&b, ']');
put:
	rec_put(fp, b.s ? b.s : "", b.len);
	buf_free(&b);
	free(res);
}

struct klist *
kl_new(void)
{
	return tl_calloc(1, sizeof(struct klist));
}

/* Forget the group's lists, for the next group. */
void
kl_reset(struct klist *o)
{
	size_t i;

	for (i = 0; i < o->nkp; i++) {
		buf_free(&o->kp[i].name);
		buf_free(&o->kp[i].rest);
		buf_free(&o->kp[i].stream);
		buf_free(&o->kp[i].cs);
		free(o->kp[i].d);
	}
	free(o->kp);
	o->kp = NULL;
	o->nkp = 0;
	o->ktemplate = 0;
}

void
kl_free(struct klist *o)
{
	if (o == NULL)
		return;
	kl_reset(o);
	free(o->tok);
	free(o->dv);
	free(o);
}
