/* See LICENSE file for copyright and license details. */
/*
 * Rows read twice: a first pass that keeps of each row only its offset
 * (and what the program needs of it: a few numbers), then the rows
 * read again, one at a time, in any order.  A program so holds no
 * row's text (tl-sheet's order and percentages, tl-perfsheet's sheets).
 * A stream that cannot seek (a pipe) is copied to a temporary file in
 * TMPDIR as the first pass reads it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

void
rr_open(struct reread *rr, struct rec_reader *r)
{
	memset(rr, 0, sizeof(*rr));
	rr->r = r;
	/* (the header came by getline: the records start here) */
	rr->base = ftello(r->fp);
	if (rr->base < 0 || fseeko(r->fp, rr->base, SEEK_SET) != 0) {
		rr->base = 0;
		if ((rr->copy = tmpfile()) == NULL)
			tl_die("%s: cannot make a temporary file:", r->name);
	}
	rr->fp = rr->copy ? rr->copy : r->fp;
}

int
rr_next(struct reread *rr, off_t *off)
{
	struct rec_reader *r = rr->r;

	if (!rec_next(r))
		return 0;
	if (rr->copy && (fwrite(r->cur, 1, r->curlen, rr->copy) != r->curlen ||
	    putc('\n', rr->copy) == EOF))
		tl_die("%s: temporary file: write error:", r->name);
	*off = rr->off;
	rr->off += (off_t)r->curlen + 1;
	rec_split(r);
	return 1;
}

/*
 * pread's window: a row read right after the last one is likely to be
 * followed by the next (a big window serves many); one read out of
 * order (tl-sheet -s) takes a small one: stdio's seek refilled a whole
 * buffer per row, 20 s of system time for a million rows.
 */
#define RR_SMALL 512
#define RR_BIG (64 << 10)

/* The copy of a stream read once is written out before a row of it is
 * read again. */
static void
rr_flush(struct reread *rr)
{
	if (rr->copy && !rr->flushed) {
		if (fflush(rr->copy) != 0)
			tl_die("%s: temporary file: write error:", rr->r->name);
		rr->flushed = 1;
	}
}

/* The row of len bytes in rr->line, made r's record (line lineno). */
static void
rr_take(struct reread *rr, size_t len, size_t lineno)
{
	struct rec_reader *r = rr->r;

	rr->line[len] = '\0';
	r->cur = rr->line;
	r->curlen = len;
	r->lineno = lineno;
	rec_split(r);
}

void
rr_read(struct reread *rr, off_t off, size_t lineno)
{
	struct rec_reader *r = rr->r;
	off_t at = rr->base + off;
	size_t len = 0, want;
	const char *nl = NULL;
	ssize_t n;

	rr_flush(rr);
	if (at >= rr->wbase && at < rr->wbase + (off_t)rr->wlen)
		nl = memchr(rr->win + (at - rr->wbase), '\n',
		    rr->wlen - (size_t)(at - rr->wbase));
	if (nl == NULL) {
		/* the window: from at, big when reading on, small out of order */
		want = at == rr->wnext ? RR_BIG : RR_SMALL;
		tl_grow((void **)&rr->win, &rr->wcap, want, 1);
		if ((n = pread(fileno(rr->fp), rr->win, want, at)) < 0)
			tl_die("%s: cannot read again:", r->name);
		rr->wbase = at;
		rr->wlen = (size_t)n;
		nl = memchr(rr->win, '\n', rr->wlen);
	}
	if (nl != NULL) {
		len = (size_t)(nl - (rr->win + (at - rr->wbase)));
		tl_grow((void **)&rr->line, &rr->cap, len + 1, 1);
		memcpy(rr->line, rr->win + (at - rr->wbase), len);
	} else {
		/*
		 * A row longer than the window (which starts at it): its
		 * bytes, then reads from their end, each twice the last, up
		 * to the big window.  (Read again from the row's start in big
		 * windows, the rows of a kernel's long name out of order
		 * copied 64 KiB each: 24 GB for a million rows.)
		 */
		len = rr->wlen;
		tl_grow((void **)&rr->line, &rr->cap, len + 1, 1);
		if (len > 0)
			memcpy(rr->line, rr->win, len);
		want = len > RR_SMALL ? len : RR_SMALL;
		for (;;) {
			want = want < RR_BIG / 2 ? 2 * want : RR_BIG;
			tl_grow((void **)&rr->line, &rr->cap, len + want + 1, 1);
			if ((n = pread(fileno(rr->fp), rr->line + len, want,
			    at + (off_t)len)) < 0)
				tl_die("%s: cannot read again:", r->name);
			if (n == 0)
				tl_die("%s: read error (did the input change?)",
				    r->name);
			if ((nl = memchr(rr->line + len, '\n', (size_t)n)) != NULL) {
				len = (size_t)(nl - rr->line);
				break;
			}
			len += (size_t)n;
		}
	}
	rr->wnext = at + (off_t)len + 1;
	rr_take(rr, len, lineno);
}

void
rr_readn(struct reread *rr, off_t off, size_t len, size_t lineno)
{
	struct rec_reader *r = rr->r;
	ssize_t n;

	rr_flush(rr);
	/* (the row and its newline, which says it is the row) */
	tl_grow((void **)&rr->line, &rr->cap, len + 1, 1);
	n = pread(fileno(rr->fp), rr->line, len + 1, rr->base + off);
	if (n < 0)
		tl_die("%s: cannot read again:", r->name);
	if ((size_t)n != len + 1 || rr->line[len] != '\n')
		tl_die("%s: line %zu: no row of %zu bytes at offset %lld "
		    "(did the input change?)", r->name, lineno, len,
		    (long long)off);
	rr_take(rr, len, lineno);
}

void
rr_close(struct reread *rr)
{
	if (rr->copy)
		fclose(rr->copy);
	free(rr->line);
	free(rr->win);
	memset(rr, 0, sizeof(*rr));
}
