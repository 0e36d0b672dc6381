/* See LICENSE file for copyright and license details. */
/*
 * treeops.c: a tree folder's ops.tsv, read as a merge by UID (the
 * fields tl-launchers and tl-unified take of an op), with meta.tsv's
 * process and thread names.  Memory: one record, and meta.tsv.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"

static int
kvcmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	int c = strcmp(x->k, y->k);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int
kvkeycmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->k, ((const struct kv *)b)->k);
}

void
meta_load(struct meta *mt, const char *path)
{
	struct rec_reader r;
	struct buf k = {0};
	FILE *fp = io_open(path, "r", NULL);
	size_t cap = 0, i, j;

	memset(mt, 0, sizeof(*mt));
	rec_open(&r, fp, path);
	rec_read_header(&r);
	while (rec_read(&r)) {
		want_nf(&r, 4);
		buf_reset(&k);
		for (i = 0; i < 3; i++) {
			if (i)
				buf_tab(&k);
			buf_add(&k, r.f[i].s, r.f[i].len);
		}
		tl_grow((void **)&mt->e, &cap, mt->n + 1, sizeof(*mt->e));
		mt->e[mt->n].k = tl_strdup(k.s);
		mt->e[mt->n].v = tl_strndup(r.f[3].s, r.f[3].len);
		mt->e[mt->n].seq = mt->n;
		mt->n++;
	}
	if (mt->n)
		qsort(mt->e, mt->n, sizeof(*mt->e), kvcmp);
	/* keep the last of each key */
	for (i = j = 0; i < mt->n; i++) {
		if (i + 1 < mt->n && strcmp(mt->e[i].k, mt->e[i + 1].k) == 0) {
			free(mt->e[i].k);
			free(mt->e[i].v);
			continue;
		}
		mt->e[j++] = mt->e[i];
	}
	mt->n = j;
	buf_free(&k);
	rec_close(&r);
	fclose(fp);
}

const char *
meta_get(const struct meta *mt, struct buf *key, const char *pid,
    const char *tid, const char *kind)
{
	struct kv x, *e;

	buf_reset(key);
	buf_adds(key, pid);
	buf_tab(key);
	buf_adds(key, tid);
	buf_tab(key);
	buf_adds(key, kind);
	x.k = key->s;
	x.seq = 0;
	e = mt->n ? bsearch(&x, mt->e, mt->n, sizeof(*mt->e), kvkeycmp) : NULL;
	return e ? e->v : "Unknown";
}

void
meta_free(struct meta *mt)
{
	size_t i;

	for (i = 0; i < mt->n; i++) {
		free(mt->e[i].k);
		free(mt->e[i].v);
	}
	free(mt->e);
}

void
treeops_open(struct treeops *to, const char *dir)
{
	static const char *const cols[ONCOL] = {
		"UID", "name", "ts", "pid", "tid", "Input Dims", "Input type",
		"Input Strides", "Concrete Inputs", "dur"
	};
	size_t i;

	memset(to, 0, sizeof(*to));
	buf_adds(&to->path, dir);
	buf_adds(&to->path, "/meta.tsv");
	meta_load(&to->mt, to->path.s);
	buf_reset(&to->path);
	buf_adds(&to->path, dir);
	buf_adds(&to->path, "/ops.tsv");
	to->fp = io_open(to->path.s, "r", to->iob);
	rec_open(&to->r, to->fp, to->path.s);
	rec_read_header(&to->r);
	for (i = 0; i < ONCOL; i++)
		to->oc[i] = rec_need(&to->r, cols[i]);
	to->uid = -1;
}

int
treeops_at(struct treeops *to, long long uid)
{
	size_t i;

	/* (most records are skipped: only the UID of each is read, when
	 * it leads the record, as in the tree stage's ops.tsv) */
	while (to->uid < uid) {
		if (!rec_next(&to->r)) {
			to->uid = LLONG_MAX;
			break;
		}
		to->split = to->oc[OUID] != 0;
		if (to->split)
			rec_split(&to->r);
		to->uid = atoid(to->split ?
		    rec_get(&to->r, to->oc[OUID], NULL) : to->r.cur);
	}
	if (to->uid != uid)
		return 0;
	if (!to->split) {
		rec_split(&to->r);
		to->split = 1;
	}
	for (i = 0; i < ONCOL; i++)
		to->f[i] = rec_get(&to->r, to->oc[i], NULL);
	return 1;
}

void
treeops_names(struct buf *b, struct treeops *to, struct buf *key)
{
	size_t i;

	buf_tabs(b, meta_get(&to->mt, key, to->f[OPID], "0", "process_name"));
	buf_tabs(b, meta_get(&to->mt, key, to->f[OPID], "0", "process_labels"));
	buf_tabs(b, meta_get(&to->mt, key, to->f[OPID], to->f[OTID],
	    "thread_name"));
	for (i = ODIMS; i <= OCONC; i++)
		buf_tabs(b, to->f[i]);
}

void
treeops_close(struct treeops *to)
{
	meta_free(&to->mt);
	rec_close(&to->r);
	fclose(to->fp);
	buf_free(&to->path);
}
