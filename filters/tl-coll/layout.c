/* See LICENSE file for copyright and license details. */
/*
 * tl-coll: the per-rank columns of the per-collective sheets (-i, -a),
 * and the rows they are made of.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "stages.h"

void
layinit(struct layout *L, long world, int nkind)
{
	long r;

	memset(L, 0, sizeof(*L));
	L->world = world;
	L->nkind = nkind;
	L->order = tl_calloc((size_t)world + 1, sizeof(*L->order));
	L->bend = tl_calloc((size_t)world + 1, sizeof(*L->bend));
	L->pos = tl_calloc((size_t)world + 1, sizeof(*L->pos));
	L->present = tl_calloc((size_t)world + 1, sizeof(*L->present));
	L->facts = tl_calloc((size_t)(world + 1) * (size_t)nkind,
	    sizeof(*L->facts));
	L->at = tl_calloc((size_t)world + 1, sizeof(*L->at));
	for (r = 0; r < world; r++)
		L->pos[r] = L->at[r] = -1;
}

void
layfree(struct layout *L)
{
	free(L->order);
	free(L->bend);
	free(L->pos);
	free(L->present);
	free(L->facts);
	free(L->at);
}

/* The print class of kind k of rank r's columns. */
int
layclass(const struct layout *L, long r, int k)
{
	unsigned f = L->facts[(size_t)r * (size_t)L->nkind + (size_t)k];

	if (L->present[r] < L->rows)
		f |= F_Z;
	return coll_class(f);
}

/* Split line (NUL-ended, newline removed) at TABs into f, lens. */
static size_t
split(char *line, size_t len, char ***f, size_t **fl, size_t *cap)
{
	size_t n = 0;
	char *p = line, *e = line + len, *t;

	for (;;) {
		tl_grow((void **)f, cap, n + 1, sizeof(**f));
		*fl = tl_realloc(*fl, *cap * sizeof(**fl));
		t = memchr(p, '\t', (size_t)(e - p));
		(*f)[n] = p;
		(*fl)[n] = (t ? t : e) - p;
		n++;
		if (t == NULL)
			break;
		*t = '\0';
		p = t + 1;
	}
	return n;
}

/* Read the next row of a per-collective sheet file; 0 at its end. */
int
readrow(FILE *fp, struct row *w, size_t ngen, size_t per)
{
	ssize_t n;
	size_t k;

	errno = 0;
	if ((n = getline(&w->line, &w->cap, fp)) <= 0) {
		if (ferror(fp))
			tl_die("%s:", w->name);
		return 0;
	}
	w->lineno++;
	if (w->line[n - 1] == '\n')
		w->line[--n] = '\0';
	w->nf = split(w->line, (size_t)n, &w->f, &w->fl, &w->fcap);
	if (w->lineno == 1)
		return 1;
	if (w->nf < ngen + 1)
		tl_die("%s: line %zu: %zu fields, too few", w->name, w->lineno,
		    w->nf);
	w->nr = (size_t)fieldlong(w->f[ngen], w->fl[ngen], "rank count",
	    w->name, w->lineno);
	if (w->nf != ngen + 1 + w->nr * per)
		tl_die("%s: line %zu: %zu fields, not %zu ranks of %zu", w->name,
		    w->lineno, w->nf, w->nr, per);
	for (k = 0; k < w->nr; k++)
		fieldlong(w->f[ngen + 1 + k * per], w->fl[ngen + 1 + k * per],
		    "rank", w->name, w->lineno);
	return 1;
}

/* Take row w's ranks into the layout (pass 1). */
void
laysee(struct layout *L, const struct row *w, size_t ngen, size_t per)
{
	size_t k, j;
	long r;

	L->rows++;
	for (k = 0; k < w->nr; k++) {
		r = rowrank(w, ngen, per, k);
		if (r < 0 || r >= L->world)
			tl_die("%s: line %zu: rank %ld of a job of %ld", w->name,
			    w->lineno, r, L->world);
		if (L->pos[r] < 0) {
			L->pos[r] = (long)L->n;
			L->order[L->n++] = r;
		}
		L->present[r]++;
		for (j = 0; j < (size_t)L->nkind; j++) {
			size_t i = ngen + 1 + k * per + 1 + j;

			L->facts[(size_t)r * (size_t)L->nkind + j] |=
			    coll_fact(w->f[i], w->fl[i]);
		}
	}
	if (L->nb == 0 || L->bend[L->nb - 1] < L->n)
		L->bend[L->nb++] = L->n;
}

/* The header of the per-rank columns: per batch, kinds a, then kinds b. */
void
layhead(FILE *fp, const struct layout *L, const char *const *kinds, int na,
    int nb)
{
	char name[160];
	size_t b, i, lo;
	int k;

	for (b = 0, lo = 0; b < L->nb; lo = L->bend[b++]) {
		for (i = lo; i < L->bend[b]; i++)
			for (k = 0; k < na; k++) {
				snprintf(name, sizeof(name), "rank_%ld_%s",
				    L->order[i], kinds[k]);
				csvname(fp, name, 0);
			}
		for (i = lo; i < L->bend[b]; i++)
			for (k = na; k < na + nb; k++) {
				snprintf(name, sizeof(name), "rank_%ld_%s",
				    L->order[i], kinds[k]);
				csvname(fp, name, 0);
			}
	}
}

/* The per-rank cells of row w, in the layout's order. */
static void
laycells(FILE *fp, const struct layout *L, const struct row *w, size_t ngen,
    size_t per, int na, int nb, struct buf *tmp)
{
	long *at = L->at;
	size_t b, i, lo, k;
	long r;
	int j;

	for (k = 0; k < w->nr; k++)
		at[rowrank(w, ngen, per, k)] = (long)k;
	for (b = 0, lo = 0; b < L->nb; lo = L->bend[b++]) {
		for (int half = 0; half < 2; half++)
			for (i = lo; i < L->bend[b]; i++) {
				r = L->order[i];
				for (j = half ? na : 0; j < (half ? na + nb : na);
				    j++) {
					csv_sep(fp, 0);
					if (at[r] < 0)
						continue;
					k = ngen + 1 + (size_t)at[r] * per + 1 +
					    (size_t)j;
					buf_reset(tmp);
					coll_render(tmp, w->f[k], w->fl[k],
					    layclass(L, r, j));
					tmp->len = rec_unescape(tmp->s ? tmp->s :
					    "", tmp->len);
					csv_cell(fp, tmp->s ? tmp->s : "",
					    tmp->len);
				}
			}
	}
	for (k = 0; k < w->nr; k++)
		at[rowrank(w, ngen, per, k)] = -1;
}

FILE *
openrows(const char *path, struct row *w)
{
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		tl_die("%s:", path);
	w->name = path;
	w->lineno = 0;
	return fp;
}

void
rowfree(struct row *w)
{
	free(w->line);
	free(w->f);
	free(w->fl);
}

/*
 * A whole row of a laid-out sheet: w's generic fields from first on,
 * its per-rank cells, then with node its node field last.
 */
void
layrow(FILE *fp, const struct layout *L, const struct row *w, size_t ngen,
    size_t first, int node, size_t per, int na, int nb, struct buf *tmp)
{
	size_t k;

	for (k = first; k < ngen - (size_t)node; k++)
		csvfield(fp, w->f[k], w->fl[k], k == first, tmp);
	laycells(fp, L, w, ngen, per, na, nb, tmp);
	if (node)
		csvfield(fp, w->f[ngen - 1], w->fl[ngen - 1], 0, tmp);
	putc('\n', fp);
}
