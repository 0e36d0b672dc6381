/* See LICENSE file for copyright and license details. */
/*
 * ivin.c: intervals.tsv, as the tree stage writes it (tl(7)), read
 * record by record in op order; and the kernels of an op folded into
 * TraceLens's busy time and kernel list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"

void
ivin_open(struct ivin *in, const char *path, const char *gvpath)
{
	static const char *const names[INCOL] = {
		"op", "kind", "ts", "dur", "name", "stream", "gpu", "ref",
		"launch"
	};
	size_t i;

	in->fp = io_open(path, "r", in->iob);
	rec_open(&in->r, in->fp, io_name(path));
	rec_read_header(&in->r);
	in->hasgv = gvpath != NULL;
	for (i = 0; i < INCOL; i++)
		in->c[i] = (i == IREF && !in->hasgv) || i == ILAUNCH ?
		    rec_col(&in->r, names[i]) : rec_need(&in->r, names[i]);
	in->op = -1;
	if (in->hasgv) {
		fetch_open(&in->gv, gvpath);
		in->gvname = rec_need(&in->gv.hdr, "name");
	}
}

void
ivin_close(struct ivin *in)
{
	rec_close(&in->r);
	fclose(in->fp);
	if (in->hasgv)
		fetch_close(&in->gv);
}

const char *
ivin_gvname(struct ivin *in, size_t *len)
{
	const struct rec_reader *r = &in->r;

	fetch_line(&in->gv, atoid(rec_get(r, in->c[IREF], NULL)),
	    atoid(rec_get(r, in->c[IGPU], NULL)));
	return fetch_field(&in->gv, in->gvname, len);
}

void
ivin_disorder(const struct ivin *in, long long op)
{
	tl_die("%s: line %zu: out of order (op %lld after %lld)",
	    in->r.name, in->r.lineno, op, in->op);
}

/* ---- the kernels of an op ---- */

void
kacc_add(struct kacc *k, struct ivin *in)
{
	const struct rec_reader *r = &in->r;
	const char *s;
	size_t len;
	union tv ts, dur;
	long long g;
	int exact = k->m.exact, sint, dint;

	s = rec_get(r, in->c[ITS], &len);
	if (ival_parse(exact, s, len, &ts) < 0)
		tl_die("%s: line %zu: ts is not a time: %.40s", r->name,
		    r->lineno, s);
	sint = num_isint(s, len);
	s = rec_get(r, in->c[IDUR], &len);
	if (ival_parse(exact, s, len, &dur) < 0)
		tl_die("%s: line %zu: dur is not a time: %.40s", r->name,
		    r->lineno, s);
	dint = num_isint(s, len);
	if (mg_add(&k->m, ts, ival_add(exact, ts, dur), sint, sint && dint) < 0)
		tl_die("%s: line %zu: ts decreases within op %lld", r->name,
		    r->lineno, in->op);
	g = atoid(rec_get(r, in->c[IGPU], NULL));
	if (k->n++ == 0 || g < k->g1)
		k->g1 = g;
	s = ivin_name(in, &len);
	if (k->k1.len == 0)
		buf_add(&k->k1, s, len);
	if (!k->list)
		return;
	if (k->launch) {
		struct kent *e;

		if (in->c[ILAUNCH] < 0)
			tl_die("%s: no launch column (not the tree stage's "
			    "intervals.tsv of this version)", r->name);
		tl_grow((void **)&k->ent, &k->entcap, k->n, sizeof(*k->ent));
		e = &k->ent[k->n - 1];
		e->launch = atoid(rec_get(r, in->c[ILAUNCH], NULL));
		e->gpu = g;
		e->off = k->kd.len;
		buf_adds(&k->kd, "{\"name\":");
	} else
		buf_adds(&k->kd, k->n > 1 ? ",{\"name\":" : "[{\"name\":");
	json_val(&k->kd, s, len);
	buf_adds(&k->kd, ",\"dur\":");
	s = rec_get(r, in->c[IDUR], &len);
	json_val(&k->kd, s, len);
	buf_adds(&k->kd, ",\"stream\":");
	s = rec_get(r, in->c[ISTREAM], &len);
	json_val(&k->kd, s, len);
	buf_addc(&k->kd, '}');
	if (k->launch)
		k->ent[k->n - 1].len = k->kd.len - k->ent[k->n - 1].off;
}

/* Launch UID, then GPU UID, then the order added (a stable sort). */
static int
kentcmp(const void *a, const void *b)
{
	const struct kent *x = a, *y = b;

	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

void
kacc_time(struct buf *b, struct kacc *k)
{
	char t[64];

	buf_tab(b);
	if (k->n > 0)
		buf_adds(b, mg_fmt(&k->m, mg_union(&k->m), t, sizeof(t)));
}

void
kacc_list(struct buf *b, struct kacc *k)
{
	size_t i;

	buf_tab(b);
	if (k->n == 0)
		return;
	if (k->launch) {
		qsort(k->ent, k->n, sizeof(*k->ent), kentcmp);
		buf_reset(&k->tmp);
		for (i = 0; i < k->n; i++) {
			buf_addc(&k->tmp, i > 0 ? ',' : '[');
			buf_add(&k->tmp, k->kd.s + k->ent[i].off, k->ent[i].len);
		}
		buf_addc(&k->tmp, ']');
		rec_bput(b, k->tmp.s, k->tmp.len);
		return;
	}
	buf_addc(&k->kd, ']');
	/* (the names were unescaped into JSON: escape its text again) */
	rec_bput(b, k->kd.s, k->kd.len);
}

void
kacc_free(struct kacc *k)
{
	buf_free(&k->k1);
	buf_free(&k->kd);
	buf_free(&k->tmp);
	free(k->ent);
}
