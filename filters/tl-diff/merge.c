/* See LICENSE file for copyright and license details. */
/*
 * merge.c: the merge of the root pairs, node by node in pre-order on a
 * stack of frames, and the merged records it writes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "diff.h"

static const char *const outhdr[] = {
	"mid", "parent", "root", "type", "key1", "key2",
	"uid1", "cat1", "name1", "gpu1", "ngpu1", "ts1", "dur1", "runtime1",
	"cpu_op1", "cpu_op_name1", "dims1", "types1", "strides1", "concrete1",
	"uid2", "cat2", "name2", "gpu2", "ngpu2", "ts2", "dur2", "runtime2",
	"cpu_op2", "cpu_op_name2", "dims2", "types2", "strides2", "concrete2"
};

/* v as %lld writes it (fprintf was a sixth of the merge's cost) */
static void
putll(FILE *fp, long long v)
{
	char b[24];

	fputs(num_lld(v, b + sizeof(b)), fp);
}

static void
putside(FILE *fp, struct side *s, int k)
{
	struct node *nd;

	if (k < 0) {
		fputs("\t\t\t\t\t\t\t\t\t\t\t\t\t\t", fp);
		return;
	}
	nd = &s->n[k];
	putc('\t', fp);
	putll(fp, nd->uid);
	putc('\t', fp);
	rec_puts(fp, nd->t[T_CAT]);
	putc('\t', fp);
	rec_puts(fp, nd->t[T_NAME]);
	putc('\t', fp);
	putll(fp, nd->gpupath);
	putc('\t', fp);
	if (!nd->gpuev)
		rec_puts(fp, nd->t[T_NGPU][0] ? nd->t[T_NGPU] : "0");
	putc('\t', fp);
	rec_puts(fp, nd->t[T_TS]);
	putc('\t', fp);
	rec_puts(fp, nd->t[T_DUR]);
	putc('\t', fp);
	if ((nd->gpuev || nd->extra) && nd->hasparent)
		putll(fp, nd->parent);
	if (nd->extra) {
		/* its nearest cpu_op, as tl-tree gives it for GPU events */
		int c = nd->par;

		while (c >= 0 && !s->n[c].cpuop)
			c = s->n[c].par;
		if (c < 0) {
			fputs("\t\t\t\t\t\t", fp);
			return;
		}
		putc('\t', fp);
		putll(fp, s->n[c].uid);
		putc('\t', fp);
		rec_puts(fp, s->n[c].t[T_NAME]);
		for (int t = T_DIMS; t <= T_CONCRETE; t++) {
			putc('\t', fp);
			rec_puts(fp, s->n[c].t[t]);
		}
		return;
	}
	for (int t = T_CPUOP; t <= T_CONCRETE; t++) {
		putc('\t', fp);
		if (nd->gpuev)
			rec_puts(fp, nd->t[t]);
	}
}

/* The linked events off the GPU path below side x's event k, as records with no mid. */
static void
putextras(struct merge *m, int x, int k, long long id)
{
	struct side *s = m->s[x];
	size_t i;

	if (k < 0)
		return;
	for (i = 0; i < s->n[k].nkids; i++) {
		int c = s->n[k].kids[i];

		if (!s->n[c].extra)
			continue;
		putc('\t', m->out);
		putll(m->out, id);
		putc('\t', m->out);
		putll(m->out, m->rootidx);
		fputs(x == 0 ? "\ttrace1\t\t" : "\ttrace2\t\t", m->out);
		putside(m->out, m->s[0], x == 0 ? c : -1);
		putside(m->out, m->s[1], x == 1 ? c : -1);
		putc('\n', m->out);
	}
}

/*
 * Remember the pair (u1, u2); TraceLens would reuse the merged node of a
 * pair seen before, which makes the merged tree a DAG: refuse that.
 * An open-addressing set, emptied per root pair.
 */
static void
mark(struct merge *m, int u1, int u2)
{
	uint64_t key = ((uint64_t)(uint32_t)(u1 + 1) << 32) | (uint32_t)(u2 + 1);
	size_t i, mask;

	if (2 * (m->nseen + 1) > m->seencap) {
		long long *old = m->seen;
		size_t oldcap = m->seencap, k;

		m->seencap = oldcap ? 2 * oldcap : 1024;
		m->seen = tl_calloc(m->seencap, sizeof(*m->seen));
		mask = m->seencap - 1;
		for (k = 0; k < m->nseen; k++) {
			long long v = old[m->used[k]];

			for (i = ((uint64_t)v * 0x9e3779b97f4a7c15ULL) >> 20 & mask;
			    m->seen[i] != 0; i = (i + 1) & mask)
				;
			m->seen[i] = v;
			m->used[k] = i;
		}
		free(old);
	}
	mask = m->seencap - 1;
	for (i = (key * 0x9e3779b97f4a7c15ULL) >> 20 & mask; m->seen[i] != 0;
	    i = (i + 1) & mask)
		if ((uint64_t)m->seen[i] == key)
			tl_die("rank %s/%s: the pair (%lld, %lld) is merged twice; the merged tree would not be a tree",
			    m->s[0]->rank ? m->s[0]->rank : "-",
			    m->s[1]->rank ? m->s[1]->rank : "-",
			    u1 >= 0 ? m->s[0]->n[u1].uid : -1,
			    u2 >= 0 ? m->s[1]->n[u2].uid : -1);
	m->seen[i] = (long long)key;
	tl_grow((void **)&m->used, &m->usedcap, m->nseen + 1, sizeof(*m->used));
	m->used[m->nseen++] = i;
}

/* Empty the pair set for the next root pair. */
static void
unmark(struct merge *m)
{
	size_t k;

	for (k = 0; k < m->nseen; k++)
		m->seen[m->used[k]] = 0;
	m->nseen = 0;
}

/*
 * A lone child cl->v[0] of u on side s, facing several: when it is a
 * chain of wrappers, u becomes the last wrapper and cl its children.
 */
static void
descend(struct side *s, int *u, struct ilist *cl)
{
	struct ilist deeper = {0};
	int c = collapse(s, cl->v[0], &deeper);

	if (deeper.n > 0) {
		*u = c;
		free(cl->v);
		*cl = deeper;
	} else {
		free(deeper.v);
	}
}

/* Write the merged node of (u1, u2) and align its children into f. */
static void
visit(struct merge *m, int u1, int u2, long long parent, struct frame *f)
{
	struct side *s1 = m->s[0], *s2 = m->s[1];
	struct ilist c1 = {0}, c2 = {0};
	struct oplist ops = {0};
	long long id = m->nextid++;
	int k1 = u1, k2 = u2;
	size_t k;

	mark(m, u1, u2);
	childlists(m, u1, u2, &c1, &c2);

	/* Phase 1: a single child facing several is descended through wrappers */
	if (c1.n != c2.n) {
		if (c1.n == 1)
			descend(s1, &u1, &c1);
		else if (c2.n == 1)
			descend(s2, &u2, &c2);
	}
	/* Phase 2 */
	if (c1.n == c2.n && !anydispatch(s1, c1.v, c1.n) && !anydispatch(s2, c2.v, c2.n)) {
		for (k = 0; k < c1.n; k++)
			opush(&ops, 'm', (int)k, (int)k);
	} else {
		alignedwf(m, c1.v, c1.n, c2.v, c2.n, 0, &ops);
	}
	/* Phase 3 */
	for (k = 0; k < ops.n; k++)
		if (ops.v[k].t != 'm')
			break;
	if (k < ops.n)
		reconcile(m, &ops, &c1, &c2);
	/* Phase 4 */
	recollapse(m, &ops, &c1, &c2);

	putll(m->out, id);
	putc('\t', m->out);
	if (parent >= 0)
		putll(m->out, parent);
	putc('\t', m->out);
	putll(m->out, m->rootidx);
	fputs(u1 >= 0 && u2 >= 0 ? "\tcombined\t" : u1 >= 0 ? "\ttrace1\t" :
	    "\ttrace2\t", m->out);
	if (k1 >= 0)
		putll(m->out, s1->n[k1].uid);
	putc('\t', m->out);
	if (k2 >= 0)
		putll(m->out, s2->n[k2].uid);
	putside(m->out, s1, u1);
	putside(m->out, s2, u2);
	putc('\n', m->out);
	putextras(m, 0, u1, id);
	putextras(m, 1, u2, id);

	f->ops = ops;
	f->c1 = c1;
	f->c2 = c2;
	f->id = id;
	f->next = 0;
}

/* Merge the pair of roots (u1, u2) and everything below, in pre-order. */
static void
merge(struct merge *m, int u1, int u2)
{
	struct frame *st = m->stack, *f;
	size_t n = 0;

	tl_grow((void **)&st, &m->stackcap, 1, sizeof(*st));
	visit(m, u1, u2, -1, &st[n++]);
	while (n > 0) {
		f = &st[n - 1];
		if (f->next < f->ops.n) {
			struct op *o = &f->ops.v[f->next++];
			int a = o->i >= 0 ? f->c1.v[o->i] : -1;
			int b = o->j >= 0 ? f->c2.v[o->j] : -1;
			long long id = f->id;

			tl_grow((void **)&st, &m->stackcap, n + 1, sizeof(*st));
			visit(m, a, b, id, &st[n++]);
		} else {
			free(f->ops.v);
			free(f->c1.v);
			free(f->c2.v);
			n--;
		}
	}
	m->stack = st;
}

/* Merge the root groups of a and b pair by pair, as records on out. */
void
tldiff(struct side *a, struct side *b, FILE *out)
{
	struct merge m;
	int more1, more2;

	memset(&m, 0, sizeof(m));
	m.s[0] = a;
	m.s[1] = b;
	m.out = out;
	rec_write(out, outhdr, LEN(outhdr));
	more1 = side_next(a);
	more2 = side_next(b);
	if (!more1)
		tl_die("%s: no CPU op trees (TraceLens needs cpu_root_nodes in both traces)", a->r.name);
	if (!more2)
		tl_die("%s: no CPU op trees (TraceLens needs cpu_root_nodes in both traces)", b->r.name);
	while (more1 || more2) {
		unmark(&m);
		merge(&m, more1 ? a->root : -1, more2 ? b->root : -1);
		m.rootidx++;
		if (more1)
			more1 = side_next(a);
		if (more2)
			more2 = side_next(b);
	}
	free(m.seen);
	free(m.used);
	free(m.stack);
}
