/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for the argument-field parsers (common/shape.c) and
 * the perf models that read them (common/models/), built and run
 * by tests/fuzz/run.  The input is cut at LF into up to five fields:
 * Input Dims, Input type, Input Strides, Concrete Inputs, and a kernel
 * name.  For each input it checks that:
 * - jdoc_parse either fails or builds a tree whose child links stay in
 *   the document and whose strings are NUL-terminated at their length;
 * - shape_pylist, shape_pybools, shape_pyint, shape_pyfloat and
 *   shape_split never read past the string and respect SHAPE_MAX;
 * - every model of the table, fwd and bwd, plain and --fixed-models,
 *   returns a verdict without a sanitizer report, and a success gives
 *   a dict literal "{...}" and, without bytes, no Data Moved.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "shape.h"
#include "perfmodel.h"

static void
check_tree(const struct jdoc *d, const struct jval *v, int depth)
{
	const struct jval *e;
	size_t i;

	if (depth > 70)
		abort();
	if (v->t == J_STR) {
		if (v->s + v->len >= d->str.len || d->str.s[v->s + v->len] != '\0')
			abort();
		return;
	}
	if (v->t != J_ARR && v->t != J_OBJ)
		return;
	if (v->t == J_OBJ && v->n % 2 != 0)
		abort();
	for (i = 0; i < v->n; i++) {
		size_t k = v->first;
		size_t j;

		for (j = 0; j < i; j++)
			k = d->v[k].next;
		if (k == 0 || k >= d->nv)
			abort();
		e = &d->v[k];
		check_tree(d, e, depth + 1);
	}
}

static void
parse_field(struct jdoc *d, const char *s, int *has, int *bad)
{
	*has = *bad = 0;
	jdoc_clear(d);
	if (*s == '\0')
		return;
	if (jdoc_parse(d, s, strlen(s)) < 0) {
		*bad = 1;
		if (jdoc_root(d) != NULL)
			abort();
		return;
	}
	*has = 1;
	check_tree(d, jdoc_root(d), 0);
}

static void
literals(const char *s)
{
	struct shape sh;
	int b[8];
	size_t n;
	int64_t v;
	double d;

	if (shape_pylist(s, &sh) == 0 && sh.n > SHAPE_MAX)
		abort();
	if (shape_pybools(s, b, LEN(b), &n) == 0 && n > LEN(b))
		abort();
	(void)shape_pyint(s, &v);
	(void)shape_pyfloat(s, &d);
	if (shape_split(s, s + strlen(s), &sh) == 0 && sh.n > SHAPE_MAX)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct opargs a;
	static struct mresult r;
	static struct lazyjson kj;
	char *buf, *f[5] = { "", "", "", "", "" }, *p;
	const struct model *m;
	size_t i, n, nf = 0;
	int bwd, fixed, st, dummy;

	buf = malloc(size + 1);
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (p = buf; nf < LEN(f); nf++) {
		f[nf] = p;
		if ((p = strchr(p, '\n')) == NULL)
			break;
		*p++ = '\0';
	}
	/* a NUL inside a field just shortens it */
	parse_field(&a.dims, f[0], &a.has_dims, &a.bad_dims);
	parse_field(&a.types, f[1], &a.has_types, &a.bad_types);
	parse_field(&a.strides, f[2], &a.has_strides, &a.bad_strides);
	parse_field(&a.concrete, f[3], &a.has_concrete, &a.bad_concrete);
	/* (parsed by the first model that reads it, as in tl-roofline) */
	kj.done = 0;
	kj.s = *f[4] != '\0' ? f[4] : NULL;
	kj.len = strlen(f[4]);
	a.knames = &kj;
	parse_field(&a.outtype, f[1], &a.has_outtype, &dummy);
	a.kname = f[4];
	for (i = 0; i < 4; i++)
		literals(f[i]);
	m = model_table(&n);
	for (i = 0; i < n; i++) {
		a.name = m[i].op;
		for (bwd = 0; bwd < 2; bwd++)
			for (fixed = 0; fixed < 2; fixed++) {
				a.fixed = fixed;
				st = model_run(&m[i], &a, &r, bwd);
				if (st == M_OK && (r.params.len < 2 ||
				    r.params.s[0] != '{' ||
				    r.params.s[r.params.len - 1] != '}'))
					abort();
				if (st == M_OK)
					(void)model_precision(r.dtype);
			}
	}
	free(buf);
	return 0;
}
