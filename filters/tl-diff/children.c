/* See LICENSE file for copyright and license details. */
/*
 * children.c: the children lists of a merged pair and TraceDiff's
 * passes over them: names missing on one side added, single-child
 * wrappers collapsed, the unmatched reconciled and aligned again.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "diff.h"

int
anydispatch(struct side *s, const int *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s->n[v[i]].dispatch)
			return 1;
	return 0;
}

/*
 * Descend from k through single-GPU-path-child wrappers (TraceLens's
 * collapse_single_gpu_child); kids gets the GPU-path children of the
 * node reached when it stopped on a count other than one.
 */
int
collapse(struct side *s, int k, struct ilist *kids)
{
	struct ilist g = {0};
	size_t i;

	kids->n = 0;
	for (;;) {
		struct node *nd = &s->n[k];

		if (nd->dispatch)
			break;
		if (nd->cpuop) {
			for (i = 0; i < nd->nkids; i++)
				if (s->n[nd->kids[i]].dispatch)
					break;
			if (i < nd->nkids)
				break;
		}
		gpukids(s, k, &g);
		if (g.n != 1) {
			for (i = 0; i < g.n; i++)
				ipush(kids, g.v[i]);
			break;
		}
		k = g.v[0];
	}
	free(g.v);
	return k;
}

/* Children lists of a pair, with missing names added (get_children_with_missing). */
void
childlists(struct merge *m, int u1, int u2, struct ilist *c1, struct ilist *c2)
{
	struct side *s[2] = { m->s[0], m->s[1] };
	struct ilist *c[2] = { c1, c2 };
	int u[2] = { u1, u2 }, x, y;
	size_t k, q, n0[2];

	for (x = 0; x < 2; x++)
		gpukids(s[x], u[x], c[x]);
	n0[0] = c1->n;
	n0[1] = c2->n;
	for (x = 0; x < 2; x++) {
		y = 1 - x;
		if (u[y] < 0)
			continue;
		/* names on x's GPU path but not on y's: y's last child of that name */
		for (k = 0; k < n0[x]; k++) {
			const char *nm = s[x]->n[c[x]->v[k]].norm;
			struct node *py = &s[y]->n[u[y]];
			int last = -1;

			for (q = 0; q < k; q++)
				if (nameeq(s[x]->n[c[x]->v[q]].norm, nm))
					break;
			if (q < k)
				continue;	/* seen */
			for (q = 0; q < n0[y]; q++)
				if (nameeq(s[y]->n[c[y]->v[q]].norm, nm))
					break;
			if (q < n0[y])
				continue;	/* on y's GPU path too */
			for (q = 0; q < py->nkids; q++)
				if (nameeq(s[y]->n[py->kids[q]].norm, nm))
					last = py->kids[q];
			if (last >= 0)
				ipush(c[y], last);
		}
	}
	sortts(s[0], c1->v, c1->n);
	sortts(s[1], c2->v, c2->n);
}

/*
 * The children c of side s with each one marked in sub replaced by its
 * own children, into out, in ts order; tmp is scratch.
 */
static void
expand(struct side *s, const struct ilist *c, const char *sub,
    struct ilist *out, struct ilist *tmp)
{
	size_t k, q;

	for (k = 0; k < c->n; k++) {
		if (!sub[k]) {
			ipush(out, c->v[k]);
			continue;
		}
		gpukids(s, c->v[k], tmp);
		for (q = 0; q < tmp->n; q++)
			ipush(out, tmp->v[q]);
	}
	sortts(s, out->v, out->n);
}

/* TraceLens's reconcile_unmatched; 1 when lists changed. */
int
reconcile(struct merge *m, struct oplist *ops, struct ilist *c1, struct ilist *c2)
{
	struct side *s1 = m->s[0], *s2 = m->s[1];
	struct ilist d = {0}, in = {0}, im1 = {0}, im2 = {0}, n1 = {0}, n2 = {0};
	char *sub1, *sub2;
	size_t k, a, b, q;
	int changed = 0;

	for (k = 0; k < ops->n; k++) {
		if (ops->v[k].t == 'd')
			ipush(&d, ops->v[k].i);
		else if (ops->v[k].t == 'i')
			ipush(&in, ops->v[k].j);
	}
	if (d.n == 0 || in.n == 0) {
		free(d.v);
		free(in.v);
		return 0;
	}
	sub1 = tl_calloc(c1->n + 1, 1);
	sub2 = tl_calloc(c2->n + 1, 1);
	for (a = 0; a < d.n; a++)
		for (b = 0; b < in.n; b++) {
			struct node *nd = &s1->n[c1->v[d.v[a]]];
			struct node *ni = &s2->n[c2->v[in.v[b]]];
			int skipd = nd->dispatch || strcmp(nd->t[T_CAT], "kernel") == 0;
			int skipi = ni->dispatch || strcmp(ni->t[T_CAT], "kernel") == 0;

			if (skipd || skipi)
				continue;
			gpukids(s1, c1->v[d.v[a]], &im1);
			gpukids(s2, c2->v[in.v[b]], &im2);
			if (nd->norm != NULL)
				for (q = 0; q < im2.n; q++)
					if (nameeq(s2->n[im2.v[q]].norm, nd->norm)) {
						sub2[in.v[b]] = 1;
						break;
					}
			if (ni->norm != NULL)
				for (q = 0; q < im1.n; q++)
					if (nameeq(s1->n[im1.v[q]].norm, ni->norm)) {
						sub1[d.v[a]] = 1;
						break;
					}
			if (im1.n > 0 && im1.n == im2.n) {
				for (q = 0; q < im1.n; q++)
					if (!nameeq(s1->n[im1.v[q]].norm, s2->n[im2.v[q]].norm))
						break;
				if (q == im1.n)
					sub1[d.v[a]] = sub2[in.v[b]] = 1;
			}
		}
	for (k = 0; k < c1->n; k++)
		changed |= sub1[k];
	for (k = 0; k < c2->n; k++)
		changed |= sub2[k];
	if (changed) {
		expand(s1, c1, sub1, &n1, &im1);
		expand(s2, c2, sub2, &n2, &im2);
	}
	if (changed) {
		/* pinned matches keep their pairs; the rest is aligned again */
		struct oplist nops = {0}, fops = {0};
		struct ilist f1 = {0}, f2 = {0}, fi1 = {0}, fi2 = {0};
		char *p1 = tl_calloc(n1.n + 1, 1), *p2 = tl_calloc(n2.n + 1, 1);

		for (k = 0; k < ops->n; k++) {
			int ri = -1, rj = -1;

			if (ops->v[k].t != 'm')
				continue;
			for (q = 0; q < n1.n; q++)
				if (n1.v[q] == c1->v[ops->v[k].i])
					ri = (int)q;
			for (q = 0; q < n2.n; q++)
				if (n2.v[q] == c2->v[ops->v[k].j])
					rj = (int)q;
			if (ri >= 0 && rj >= 0) {
				opush(&nops, 'm', ri, rj);
				p1[ri] = p2[rj] = 1;
			}
		}
		for (q = 0; q < n1.n; q++)
			if (!p1[q]) {
				ipush(&f1, (int)q);
				ipush(&fi1, n1.v[q]);
			}
		for (q = 0; q < n2.n; q++)
			if (!p2[q]) {
				ipush(&f2, (int)q);
				ipush(&fi2, n2.v[q]);
			}
		if (f1.n > 0 && f2.n > 0) {
			if (f1.n == f2.n && !anydispatch(s1, fi1.v, fi1.n) &&
			    !anydispatch(s2, fi2.v, fi2.n)) {
				for (q = 0; q < f1.n; q++)
					opush(&fops, 'm', (int)q, (int)q);
			} else {
				alignedwf(m, fi1.v, fi1.n, fi2.v, fi2.n, 0, &fops);
			}
			for (q = 0; q < fops.n; q++)
				opush(&nops, fops.v[q].t,
				    fops.v[q].i >= 0 ? f1.v[fops.v[q].i] : -1,
				    fops.v[q].j >= 0 ? f2.v[fops.v[q].j] : -1);
		} else {
			for (q = 0; q < f1.n; q++)
				opush(&nops, 'd', f1.v[q], -1);
			for (q = 0; q < f2.n; q++)
				opush(&nops, 'i', -1, f2.v[q]);
		}
		free(ops->v);
		*ops = nops;
		free(c1->v);
		free(c2->v);
		*c1 = n1;
		*c2 = n2;
		n1.v = n2.v = NULL;
		free(fops.v);
		free(f1.v);
		free(f2.v);
		free(fi1.v);
		free(fi2.v);
		free(p1);
		free(p2);
	}
	free(n1.v);
	free(n2.v);
	free(sub1);
	free(sub2);
	free(d.v);
	free(in.v);
	free(im1.v);
	free(im2.v);
	return changed;
}

/* Phase 4: collapse the unmatched and align them again. */
void
recollapse(struct merge *m, struct oplist *ops, struct ilist *c1, struct ilist *c2)
{
	struct ilist u1 = {0}, u2 = {0}, k1 = {0}, k2 = {0}, dummy = {0};
	struct ilist s1 = {0}, s2 = {0}, x1 = {0}, x2 = {0};
	struct oplist p1 = {0}, p2 = {0}, co = {0}, nops = {0};
	size_t k;

	for (k = 0; k < ops->n; k++) {
		if (ops->v[k].t == 'd')
			ipush(&u1, ops->v[k].i);
		else if (ops->v[k].t == 'i')
			ipush(&u2, ops->v[k].j);
	}
	if (u1.n == 0 || u2.n == 0)
		goto out;
	for (k = 0; k < u1.n; k++)
		ipush(&k1, collapse(m->s[0], c1->v[u1.v[k]], &dummy));
	for (k = 0; k < u2.n; k++)
		ipush(&k2, collapse(m->s[1], c2->v[u2.v[k]], &dummy));
	alignedwf(m, k1.v, k1.n, k2.v, k2.n, 0, &p1);
	for (k = 0; k < p1.n; k++) {
		if (p1.v[k].t == 'd')
			ipush(&s1, p1.v[k].i);
		else if (p1.v[k].t == 'i')
			ipush(&s2, p1.v[k].j);
	}
	if (s1.n > 0 && s2.n > 0) {
		for (k = 0; k < s1.n; k++)
			ipush(&x1, k1.v[s1.v[k]]);
		for (k = 0; k < s2.n; k++)
			ipush(&x2, k2.v[s2.v[k]]);
		alignedwf(m, x1.v, x1.n, x2.v, x2.n, 1, &p2);
		for (k = 0; k < p1.n; k++)
			if (p1.v[k].t == 'm')
				opush(&co, 'm', p1.v[k].i, p1.v[k].j);
		for (k = 0; k < p2.n; k++)
			opush(&co, p2.v[k].t,
			    p2.v[k].i >= 0 ? s1.v[p2.v[k].i] : -1,
			    p2.v[k].j >= 0 ? s2.v[p2.v[k].j] : -1);
	} else {
		for (k = 0; k < p1.n; k++)
			opush(&co, p1.v[k].t, p1.v[k].i, p1.v[k].j);
	}
	for (k = 0; k < ops->n; k++)
		if (ops->v[k].t == 'm')
			opush(&nops, 'm', ops->v[k].i, ops->v[k].j);
	for (k = 0; k < co.n; k++) {
		int oi = co.v[k].i >= 0 ? u1.v[co.v[k].i] : -1;
		int oj = co.v[k].j >= 0 ? u2.v[co.v[k].j] : -1;

		if (oi >= 0)
			c1->v[oi] = k1.v[co.v[k].i];
		if (oj >= 0)
			c2->v[oj] = k2.v[co.v[k].j];
		opush(&nops, co.v[k].t, oi, oj);
	}
	free(ops->v);
	*ops = nops;
	nops.v = NULL;
out:
	free(u1.v);
	free(u2.v);
	free(k1.v);
	free(k2.v);
	free(dummy.v);
	free(s1.v);
	free(s2.v);
	free(x1.v);
	free(x2.v);
	free(p1.v);
	free(p2.v);
	free(co.v);
}
