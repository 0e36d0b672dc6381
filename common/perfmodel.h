/* See LICENSE file for copyright and license details. */
/*
 * perfmodel.h: TraceLens's perf models (FLOPs and bytes of an op from
 * its shapes and dtypes), for tl-roofline(1).
 *
 * common/models/ holds them: table.c, the one table op name -> model,
 * and one file of formulas per family of TraceLens model classes (see
 * the comment at the top of table.c).  Numbers follow Python's
 * arithmetic: a pynum is an int or a float, as the same Python
 * expression would give, so GFLOPS and params print as TraceLens
 * prints them.
 */
#ifndef PERFMODEL_H
#define PERFMODEL_H

#include <stdint.h>

#include "tl.h"
#include "shape.h"

/* A Python number. */
struct pynum {
	int isf;	/* 1: float (f), 0: int (i) */
	int64_t i;	/* the int */
	double f;	/* the float */
};

/* The sheet family of a model class (TraceLens's category attributes). */
struct mfamily {
	const char *sheet;	/* sheet category: GEMM, SDPA, CONV ... */
	const char *cat;	/* fwd op category: GEMM, SDPA_fwd, elementwise ... */
	const char *bwdcat;	/* bwd op category, or NULL when none */
	const char *maf;	/* "matrix" or "vector" */
};

/* A JSON field parsed on first use. */
struct lazyjson {
	struct jdoc d;		/* the parse, once done */
	const char *s;		/* the JSON text, or NULL for an empty field; not owned */
	size_t len;		/* length of s */
	int done;		/* d holds s parsed (or failed to) */
};

/* The inputs of one op, parsed from its record. */
struct opargs {
	const char *name;	/* op name, not owned */
	struct jdoc dims;	/* Input Dims */
	struct jdoc types;	/* Input type */
	struct jdoc strides;	/* Input Strides */
	struct jdoc concrete;	/* Concrete Inputs */
	struct jdoc outtype;	/* Output type (rarely in traces) */
	struct lazyjson *knames;	/* kernel_names, parsed on first use (few models read it); not owned */
	int has_dims, has_types, has_strides, has_concrete, has_outtype; /* field present and valid */
	int bad_dims, bad_types, bad_strides, bad_concrete; /* field present but not JSON */
	const char *kname;	/* kernel_name, or NULL; not owned */
	const char *annotation;	/* name of the user_annotation around the op, or NULL; not owned */
	int fixed;		/* --fixed-models: TraceLens's quirks fixed */
	const struct opargs *fwd;	/* the args of the forward op whose params the model takes (tl-roofline -f), or NULL; not owned */
};

/* What a model gives for one op. */
struct mresult {
	struct buf params;	/* param_details as a Python dict literal */
	struct pynum flops;	/* FLOPs */
	int has_bytes;		/* 0: bytes is None in TraceLens */
	struct pynum bytes;	/* bytes moved */
	const char *dtype;	/* dtype naming the compute precision, or NULL; points into opargs */
	char prec[32];		/* precision named by the model itself, or "": model_precision(dtype) */
	char why[160];		/* reason, when the model fails (or, when ok, why bytes are None) */
	int ovf;		/* an int overflowed int64 (Python would not) */
	int inmetrics;		/* the failure is in flops() or bytes(), not in reading the op */
};

/* A model's verdict. */
enum {
	M_OK,		/* numbers computed */
	M_FAIL,		/* TraceLens raises an error: not modelled */
	M_UNDEF		/* TraceLens raises NotImplementedError */
};

/* How a model answers for the backward (tl-roofline --bwd): a table column. */
enum {
	BWD_OWN,	/* the formula takes bwd (a backward model, or the same numbers) */
	BWD_UNDEF,	/* flops_bwd raises NotImplementedError: params read, then undefined */
	BWD_FAIL,	/* the class has no flops_bwd: params read, then failed */
	BWD_NONE	/* never modelled backward: undefined, the args unread */
};

struct model;

/*
 * A formula: the params, FLOPs and bytes of op a by TraceLens's model
 * class m->cls, into r (bwd: its flops_bwd and bytes_bwd; always 0
 * unless m->bwd is BWD_OWN); M_OK, M_FAIL or M_UNDEF.
 */
typedef int mformula(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd);

/* One row of the op table. */
struct model {
	const char *op;		/* exact op name (prefix: a name prefix) */
	const char *cls;	/* TraceLens class name */
	const struct mfamily *fam;	/* sheet family */
	mformula *fn;		/* formula, or NULL: none in tl yet (the op fails) */
	int arg[6];		/* the formula's parameters: argument slots, variants */
	int bwd;		/* BWD_OWN, BWD_UNDEF, BWD_FAIL or BWD_NONE */
	int (*can)(const struct opargs *);	/* TraceLens's can_model, or NULL: all ops */
	int prefix;		/* 1: op is a name prefix, tried after the exact names */
};

/*
 * The model of an op name, or NULL: an exact name first, then a
 * prefix (triton_poi_ ...).  A model with a can function models only
 * the ops it accepts (model_can).
 */
const struct model *model_find(const char *name);
/* TraceLens's _has_perf_model for an op that model_find gave m. */
int model_can(const struct model *m, const struct opargs *a);
/* All models, for listing; *n gets the count. */
const struct model *model_table(size_t *n);
/*
 * Run model m on a (bwd: TraceLens's flops_bwd/bytes_bwd).  Resets r
 * first.  Returns M_OK, M_FAIL (r->why says why) or M_UNDEF.
 */
int model_run(const struct model *m, const struct opargs *a, struct mresult *r,
    int bwd);
/* TraceLens's torch_dtype_map: "fp16" ..., or NULL. */
const char *model_precision(const char *dtype);
/* TraceLens's name2bpe: bytes per element, or 0 for None. */
int model_bpe(const char *dtype);
/* The value of a pynum as a double, as Python's float() of it. */
static inline double
pynum_double(struct pynum v)
{
	return v.isf ? v.f : (double)v.i;
}

/* 1 if s[0..n) is an ATen operator name (atenops.c). */
int aten_known(const char *s, size_t n);

#endif
