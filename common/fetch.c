/* See LICENSE file for copyright and license details. */
/*
 * fetch.c: the line at a byte offset of a record file, with pread.
 * Bulky fields (names of GPU events, inputs) do not travel through
 * the sorts of the tree stage: records carry the byte offset of the
 * event's line instead, and the readers fetch it back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

void
fetch_open(struct fetch *ft, const char *path)
{
	memset(ft, 0, sizeof(*ft));
	if (strcmp(path, "-") == 0)
		tl_die("the events must be a file, not standard input");
	ft->fp = tl_fopen(path, "r");
	rec_open(&ft->hdr, ft->fp, path);
	rec_read_header(&ft->hdr);
	ft->uidcol = rec_need(&ft->hdr, "UID");
	ft->cap = 1 << 12;	/* small: most reads are far from the last */
	ft->win = tl_malloc(ft->cap);
	ft->start = -1;
}

void
fetch_close(struct fetch *ft)
{
	rec_close(&ft->hdr);
	fclose(ft->fp);
	free(ft->win);
	free(ft->f);
}

void
fetch_line(struct fetch *ft, long long ref, long long uid)
{
	const char *name = ft->hdr.name;
	char *p, *nl, *end, *t;
	ssize_t n;
	int64_t u;

	for (;;) {
		if (ft->start >= 0 && ref >= ft->start &&
		    ref < ft->start + (long long)ft->len) {
			p = ft->win + (ref - ft->start);
			nl = memchr(p, '\n', ft->len - (size_t)(ref - ft->start));
			if (nl != NULL)
				break;
			if (ref == ft->start && ft->len < ft->cap)
				tl_die("%s: offset %lld: no newline", name, ref);
			/* (a line longer than the window: a wider one) */
			if (ref == ft->start) {
				ft->cap *= 2;
				ft->win = tl_realloc(ft->win, ft->cap);
			}
		}
		n = pread(fileno(ft->fp), ft->win, ft->cap, (off_t)ref);
		if (n < 0)
			tl_die("%s:", name);
		if (n == 0)
			tl_die("%s: offset %lld: past the end", name, ref);
		ft->start = ref;
		ft->len = (size_t)n;
	}
	ft->nf = 0;
	for (end = nl;; p = t + 1) {
		if (ft->nf == ft->fcap)
			tl_grow((void **)&ft->f, &ft->fcap, ft->nf + 1,
			    sizeof(*ft->f));
		t = rec_tabchr(p, end);
		ft->f[ft->nf].s = p;
		ft->f[ft->nf++].len = (size_t)(t - p);
		if (t == end)
			break;
	}
	if ((size_t)ft->uidcol >= ft->nf ||
	    num_int64(ft->f[ft->uidcol].s, ft->f[ft->uidcol].len, &u) < 0 ||
	    u != uid)
		tl_die("%s: offset %lld is not event %lld: the events changed?",
		    name, ref, uid);
}
