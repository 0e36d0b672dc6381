/* See LICENSE file for copyright and license details. */
/*
 * tl-coll -r RANK: a rank's collective kernels, from tl-parse records,
 * with their values typed (common/coll.h) and their facts; and -n:
 * each kernel's index in its process group (sorted input).
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "treeio.h"
#include "numpy.h"
#include "stages.h"

/* Does s[0..n) hold pat, in any case (ASCII, as re.IGNORECASE does here)? */
static int
cicontains(const char *s, size_t n, const char *pat)
{
	size_t m = strlen(pat), i, j;

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++)
			if ((s[i + j] >= 'A' && s[i + j] <= 'Z' ? s[i + j] | 0x20 :
			    s[i + j]) != pat[j])
				break;
		if (j == m)
			return 1;
	}
	return 0;
}

/* TraceLens's communication kernels: nccl, rccl, cross_device_reduce. */
static int
iscomm(const char *s, size_t n)
{
	return cicontains(s, n, "nccl") || cicontains(s, n, "rccl") ||
	    cicontains(s, n, "cross_device_reduce");
}

/* What the cross-rank stage must know of all ranks before it starts. */
struct facts {
	int64_t n;		/* collective kernels */
	int pgset;		/* a Process Group Name is set, not Unknown_Group */
	int nstream;		/* distinct streams: 0, 1, or 2 for more */
	struct buf stream0;	/* the key of the first stream */
	unsigned col[NCOL];	/* fact bits of each cell column */
};

static void
factput(FILE *fp, long rank, const struct facts *f)
{
	static const char bits[] = "zifsx";
	int c, b;

	fprintf(fp, "%ld\t%lld\t%d\t%d", rank, (long long)f->n, f->pgset,
	    f->nstream);
	for (c = 0; c < NCOL; c++) {
		putc('\t', fp);
		for (b = 0; b < 5; b++)
			if (f->col[c] & 1u << b)
				putc(bits[b], fp);
	}
	putc('\n', fp);
}

/* Note a stream cell: nunique(), which drops None and sees 20 == 20.0. */
static void
seestream(struct facts *f, const char *cell, size_t len)
{
	struct buf k = {0};
	struct cnum v;
	char tmp[40];

	if (len == 0 || cell[0] == 'z' || f->nstream > 1)
		return;
	if (coll_num(cell, len, &v) == 0) {
		buf_addc(&k, 'n');
		buf_adds(&k, num_pyrepr(v.d, tmp, sizeof(tmp)));
	} else
		buf_add(&k, cell, len);
	if (f->nstream == 0) {
		buf_reset(&f->stream0);
		buf_add(&f->stream0, k.s, k.len);
		f->nstream = 1;
	} else if (k.len != f->stream0.len ||
	    memcmp(k.s, f->stream0.s, k.len) != 0)
		f->nstream = 2;
	buf_free(&k);
}

/* In or Out msg size (MB): nelems * bytes / 1024**2, or None. */
static void
msgsize(struct buf *out, const char *cell, size_t len, int bytes,
    int64_t uid, const char *what)
{
	struct cnum v;
	long double x;
	char tmp[40];

	buf_reset(out);
	if (bytes == 0) {
		buf_addc(out, 'z');
		return;
	}
	if (coll_num(cell, len, &v) < 0)
		tl_die("<stdin>: event %lld: %s is not a number (TraceLens "
		    "fails on it)", (long long)uid, what);
	/* an int product is exact (Python), then one rounding */
	x = v.isint ? (long double)v.i * bytes : (long double)(v.d * bytes);
	buf_addc(out, 'f');
	buf_adds(out, num_pyrepr((double)(x / 1048576.0L), tmp, sizeof(tmp)));
}

void
selectrank(const struct opts *opt)
{
	struct rec_reader r;
	struct buf cell[NCA], name = {0}, args = {0}, tsc = {0}, durc = {0};
	struct buf inmb = {0}, outmb = {0};
	struct facts f;
	const char *s, *pg;
	size_t len, pglen;
	int cuid, cname, cts, cdur, cargs, ccat, st, bytes, c, j;
	int64_t uid;
	uint64_t u;
	double d;
	FILE *ff;

	memset(cell, 0, sizeof(cell));
	memset(&f, 0, sizeof(f));
	rec_open(&r, stdin, "<stdin>");
	rec_read_header(&r);
	cuid = rec_need(&r, "UID");
	cname = rec_need(&r, "name");
	cts = rec_need(&r, "ts");
	cdur = rec_need(&r, "dur");
	cargs = rec_need(&r, "args");
	ccat = rec_col(&r, "cat");
	while (rec_read(&r)) {
		if (ccat >= 0) {
			s = rec_get(&r, ccat, &len);
			if (len != 6 || memcmp(s, "kernel", 6) != 0)
				continue;
		}
		s = rec_get(&r, cname, &len);
		buf_reset(&name);
		buf_add(&name, s, len);
		name.len = rec_unescape(name.s, name.len);
		if (!iscomm(name.s, name.len))
			continue;
		s = rec_get(&r, cuid, &len);
		if (num_int64(s, len, &uid) < 0 || uid < 0)
			tl_die("<stdin>: line %zu: UID is not a whole number",
			    r.lineno);
		s = rec_get(&r, cargs, &len);
		buf_reset(&args);
		buf_add(&args, s, len);
		args.len = rec_unescape(args.s, args.len);
		st = coll_args(cell, args.s ? args.s : "", args.len);
		if (st == -1)
			continue;	/* args is no object: nothing links it */
		if (st == -2)
			tl_die("<stdin>: event %lld: a number in args does not "
			    "fit in 64 bits (TraceLens's parser refuses it)",
			    (long long)uid);
		if (cell[CA_CORR].s[0] == 'z' && cell[CA_EXT].s[0] == 'z')
			continue;
		s = rec_get(&r, cts, &len);
		if (coll_numcell(&tsc, s, len) < 0)
			tl_die("<stdin>: event %lld: collective kernel without a "
			    "numeric ts (TraceLens fails on it)", (long long)uid);
		s = rec_get(&r, cdur, &len);
		if (coll_numcell(&durc, s, len) < 0)
			tl_die("<stdin>: event %lld: collective kernel without a "
			    "numeric dur (TraceLens fails on it)", (long long)uid);
		/* a custom collective kernel names its own type */
		if (cell[CA_COLL].s[0] == 'z' &&
		    cicontains(name.s, name.len, "cross_device_reduce")) {
			buf_reset(&cell[CA_COLL]);
			buf_adds(&cell[CA_COLL], "sallreduce");
		}
		bytes = dtypebytes(cell[CA_DTYPE].s, cell[CA_DTYPE].len);
		if (cell[CA_INNEL].s[0] == 'z')
			bytes = 0;
		msgsize(&inmb, cell[CA_INNEL].s, cell[CA_INNEL].len, bytes, uid,
		    "In msg nelems");
		msgsize(&outmb, cell[CA_OUTNEL].s, cell[CA_OUTNEL].len, bytes,
		    uid, "Out msg nelems");
		/* the process group, as the match key sees it */
		if (cell[CA_PG].s[0] == 'z') {
			pg = "Unknown_Group";
			pglen = strlen(pg);
		} else if (cell[CA_PG].s[0] == 's') {
			pg = cell[CA_PG].s + 1;
			pglen = cell[CA_PG].len - 1;
			if (pglen != 13 || memcmp(pg, "Unknown_Group", 13) != 0)
				f.pgset = 1;
		} else
			tl_die("<stdin>: event %lld: Process Group Name is not a "
			    "string (TraceLens fails on it)", (long long)uid);
		fwrite(pg, 1, pglen, stdout);
		num_double(tsc.s + 1, tsc.len - 1, &d);
		u = key_dbits(d);
		printf("\t%016llx%016llx\t%ld\t%lld", (unsigned long long)u,
		    (unsigned long long)uid, opt->rank, (long long)uid);
		for (c = 0; c < NCOL; c++) {
			const struct buf *b;

			switch (c) {
			case C_TS: b = &tsc; break;
			case C_DUR: b = &durc; break;
			case C_INMB: b = &inmb; break;
			case C_OUTMB: b = &outmb; break;
			default: b = &cell[c - C_PG]; break;
			}
			putchar('\t');
			fwrite(b->s, 1, b->len, stdout);
			f.col[c] |= coll_fact(b->s, b->len);
			if (c == C_STREAM)
				seestream(&f, b->s, b->len);
		}
		putchar('\n');
		f.n++;
	}
	ff = opt->facts ? fopen(opt->facts, "w") : NULL;
	if (opt->facts && ff == NULL)
		tl_die("%s:", opt->facts);
	if (ff != NULL) {
		factput(ff, opt->rank, &f);
		xclose(ff, opt->facts);
	}
	for (j = 0; j < NCA; j++)
		buf_free(&cell[j]);
	buf_free(&name);
	buf_free(&args);
	buf_free(&tsc);
	buf_free(&durc);
	buf_free(&inmb);
	buf_free(&outmb);
	buf_free(&f.stream0);
	rec_close(&r);
}

/* ---- -n: each kernel's index in its process group ---- */

void
number(void)
{
	struct rec_reader r;
	struct buf pg = {0}, key = {0};
	const char *s, *k;
	size_t len, klen, i;
	int64_t idx = 0;
	int c = 1, first = 1;

	rec_open(&r, stdin, "<stdin>");
	while (rec_read(&r)) {
		if (r.nf != NKEY + NCOL)
			tl_die("<stdin>: line %zu: %zu fields, not a collective "
			    "record", r.lineno, r.nf);
		s = rec_get(&r, 0, &len);
		k = rec_get(&r, 1, &klen);
		if (!first) {
			c = bytecmp(s, len, pg.s, pg.len);
			if (c < 0 || (c == 0 &&
			    bytecmp(k, klen, key.s, key.len) <= 0))
				tl_die("<stdin>: line %zu: not sorted by process "
				    "group and time", r.lineno);
		}
		if (first || c != 0) {
			buf_reset(&pg);
			buf_add(&pg, s, len);
			idx = 0;
		}
		first = 0;
		buf_reset(&key);
		buf_add(&key, k, klen);
		fwrite(s, 1, len, stdout);
		printf("\t%lld", (long long)idx++);
		for (i = 2; i < r.nf; i++) {
			putchar('\t');
			fwrite(r.f[i].s, 1, r.f[i].len, stdout);
		}
		putchar('\n');
	}
	buf_free(&pg);
	buf_free(&key);
	rec_close(&r);
}
