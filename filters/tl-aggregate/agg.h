/* See LICENSE file for copyright and license details. */
/*
 * agg.h: what the parts of tl-aggregate (the files beside it) share,
 * for them and tl-aggregate.c alone: the kernel-list summaries of
 * kstats and ktrunc (klist.c), and the statistics they borrow from
 * tl-aggregate.c.  Include after tl.h.
 */
#ifndef TL_AGG_H
#define TL_AGG_H

/* ---- klist.c: a group's kernel lists (kstats, ktrunc) ---- */

struct klist;
struct klist *kl_new(void);
void kl_reset(struct klist *o);
void kl_add(struct klist *o, const char *json, size_t len, const char *opname,
    const char *field, struct rec_reader *r);
void kl_put(FILE *fp, struct klist *o, int trunc, int exact);
void kl_free(struct klist *o);

/* ---- tl-aggregate.c ---- */

double median(double *a, size_t n);

#endif
