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

void
rr_read(struct reread *rr, off_t off, size_t lineno)
{
	struct rec_reader *r = rr->r;
	ssize_t n;

	if (rr->copy && !rr->flushed) {
		if (fflush(rr->copy) != 0)
			tl_die("%s: temporary file: write error:", r->name);
		rr->flushed = 1;
	}
	if (fseeko(rr->fp, rr->base + off, SEEK_SET) != 0)
		tl_die("%s: cannot seek:", r->name);
	errno = 0;
	if ((n = getline(&rr->line, &rr->cap, rr->fp)) <= 0 ||
	    rr->line[n - 1] != '\n')
		tl_die("%s: read error (did the input change?)", r->name);
	rr->line[--n] = '\0';
	r->cur = rr->line;
	r->curlen = (size_t)n;
	r->lineno = lineno;
	rec_split(r);
}

void
rr_close(struct reread *rr)
{
	if (rr->copy)
		fclose(rr->copy);
	free(rr->line);
	memset(rr, 0, sizeof(*rr));
}
