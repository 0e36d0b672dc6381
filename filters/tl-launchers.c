/* See LICENSE file for copyright and license details. */
/*
 * tl-launchers: tl-report's kernel launcher table: one row per op that
 * launches kernels itself, from tl-kernels' records (in op order), with
 * the op's fields from a tree folder's ops.tsv and meta.tsv and
 * TraceLens's op category (by name and first kernel).  Memory: one row
 * and meta.tsv.  tl-launchers(1) gives the format.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"
#include "opcat.h"

static const char *treedir;	/* -d: the tree folder (ops.tsv, meta.tsv) */
static const char *k1s;		/* -o: out, UID TAB k1 of each row */
static const char *cats;	/* -c: out, the rows for the summary by category */
static const char *names;	/* -n: out, the rows for the summary by name */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-launchers -d treedir [-c cats] [-n names] [-o k1s] [kernels]\n");
	exit(status);
}

/* The file path, for writing, with its header line, and iob (TL_IOBUF
 * bytes, to outlive the stream) its buffer; NULL for no path. */
static FILE *
outfile(const char *path, const char *header, char *iob)
{
	FILE *fp;

	if (path == NULL)
		return NULL;
	fp = io_open(path, "w", iob);
	fputs(header, fp);
	return fp;
}

/* Append s[0..len) as two hex digits a byte: in the bytes' order. */
static void
hex_bytes(struct buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char *p;

	/* (room for all first: no test a byte) */
	if (b->len + 2 * len + 1 > b->cap)
		buf_grow(b, b->len + 2 * len + 1);
	for (p = b->s + b->len; len > 0; s++, len--) {
		*p++ = hex[(unsigned char)*s >> 4];
		*p++ = hex[(unsigned char)*s & 15];
	}
	b->len = (size_t)(p - b->s);
	*p = '\0';
}

/*
 * The ops summaries' fields of the row in b (its tkey the field before
 * the last): to cfp, op category tkey direct; to nfp, nkey tkey name
 * "op category" direct subtree, nkey the name in hex.  Sorted as bytes,
 * whole lines, each file's rows come by its first field, then tkey
 * (which no two launchers share, as each has its own first GPU event),
 * as sort -s -k1,1 -k2,2 orders them: a category is plain ASCII, and
 * the hex of a name orders as its bytes, some of which may be below TAB.
 */
static void
sums(FILE *cfp, FILE *nfp, struct buf *sb, const struct buf *b,
    const char *cat, const char *name, const char *direct, const char *sub)
{
	const char *e = b->s + b->len, *tk;

	while (e[-1] != '\t')
		e--;
	for (tk = --e; tk[-1] != '\t'; tk--)
		;
	if (cfp) {
		buf_reset(sb);
		buf_adds(sb, cat);
		buf_tab(sb), buf_add(sb, tk, (size_t)(e - tk));
		buf_tabs(sb, direct);
		buf_emit(cfp, sb);
	}
	if (nfp) {
		buf_reset(sb);
		hex_bytes(sb, name, strlen(name));
		buf_tab(sb), buf_add(sb, tk, (size_t)(e - tk));
		buf_tabs(sb, name);
		buf_tabs(sb, cat);
		buf_tabs(sb, direct);
		buf_tabs(sb, sub);
		buf_emit(nfp, sb);
	}
}

/*
 * One row per launcher of the input (tl-kernels' records: op direct
 * count g1 k1 kd subtree, with a header, in op order), with its fields
 * from the tree folder's (-d) ops.tsv and meta.tsv, and TraceLens's op
 * category (by name and first kernel k1), as UID name "op category"
 * process_name process_label thread_name Input Dims, Input type, Input
 * Strides, Concrete Inputs, ts direct subtree g1 kd tkey num_kernels
 * (count, TraceLens's name for it); k1 goes to -o's UID TAB k1, the
 * ops summaries' fields to -c's and -n's files.  Memory: one row and
 * meta.tsv.
 */
static int
launchers(const char *path)
{
	static const char *const icols[] = {
		"op", "direct", "count", "g1", "k1", "kd", "subtree"
	};
	static char iob[3][TL_IOBUF];	/* the files' (see io_bigbuf) */
	struct rec_reader r;
	struct treeops to;
	struct buf b = {0}, key = {0}, nm = {0}, kn = {0}, sb = {0};
	FILE *fp = io_open(path, "r", NULL), *k1fp, *cfp, *nfp;
	const char *const *f = to.f;
	const char *st, *cat;
	int ic[LEN(icols)];
	long long op, prev = -1;
	const char *k1;
	size_t i, k1len, stlen;

	treeops_open(&to, treedir);
	rec_open(&r, fp, io_name(path));
	rec_read_header(&r);
	for (i = 0; i < LEN(icols); i++)
		ic[i] = rec_need(&r, icols[i]);
	fputs("UID\tname\top category\tprocess_name\tprocess_label\t"
	    "thread_name\tInput Dims\tInput type\tInput Strides\t"
	    "Concrete Inputs\tts\tdirect\tsubtree\tg1\tkd\ttkey\t"
	    "num_kernels\n", stdout);
	/* -o: k1 apart, for the one reader that wants it */
	k1fp = outfile(k1s, "UID\tk1\n", iob[0]);
	/* -c, -n: what the summaries sort, each led by its sort key: no
	 * cut of the table, and a sort of whole lines, not of fields */
	cfp = outfile(cats, "op category\ttkey\tdirect\n", iob[1]);
	nfp = outfile(names, "nkey\ttkey\tname\top category\tdirect\tsubtree\n", iob[2]);
	while (rec_read(&r)) {
		op = atoid(rec_get(&r, ic[0], NULL));
		if (op <= prev)
			tl_die("%s: line %zu: out of order (op %lld after %lld)",
			    r.name, r.lineno, op, prev);
		prev = op;
		/* a launcher launches kernels itself */
		if (atoid(rec_get(&r, ic[2], NULL)) <= 0)
			continue;
		if (!treeops_at(&to, op))
			tl_die("%s: line %zu: launcher %lld is not in ops.tsv",
			    r.name, r.lineno, op);
		k1 = rec_get(&r, ic[4], &k1len);
		st = rec_get(&r, ic[6], &stlen);
		buf_num(&b, op);
		buf_tabs(&b, f[ONAME]);
		cat = opcat(buf_unesc(&nm, f[ONAME], strlen(f[ONAME])),
		    k1len ? buf_unesc(&kn, k1, k1len) : NULL);
		buf_tabs(&b, cat);
		treeops_names(&b, &to, &key);
		buf_tabs(&b, f[OTS]);
		buf_tabs(&b, rec_get(&r, ic[1], NULL));
		buf_tabs(&b, stlen ? st : "0");
		buf_tabs(&b, rec_get(&r, ic[3], NULL));
		buf_tabs(&b, rec_get(&r, ic[5], NULL));
		if (k1fp) {
			fprintf(k1fp, "%lld\t", op);
			fwrite(k1, 1, k1len, k1fp);
			putc('\n', k1fp);
		}
		/* ts, then g1, as a key that sort compares as bytes */
		buf_tab(&b);
		key_dec(&b, f[OTS]);
		key_int(&b, atoid(rec_get(&r, ic[3], NULL)));
		buf_tabs(&b, rec_get(&r, ic[2], NULL));
		if (cfp || nfp)
			sums(cfp, nfp, &sb, &b, cat, f[ONAME], rec_get(&r, ic[1], NULL),
			    stlen ? st : "0");
		buf_emit(stdout, &b);
	}
	treeops_close(&to);
	buf_free(&b);
	buf_free(&key);
	buf_free(&nm);
	buf_free(&kn);
	buf_free(&sb);
	rec_close(&r);
	fclose(fp);
	return (k1fp ? tl_fshut(k1fp, k1s) : TL_OK) |
	    (cfp ? tl_fshut(cfp, cats) : TL_OK) |
	    (nfp ? tl_fshut(nfp, names) : TL_OK);
}


int
main(int argc, char *argv[])
{
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "c:d:n:o:")) != -1) {
		switch (ch) {
		case 'c': cats = optarg; break;
		case 'd': treedir = optarg; break;
		case 'n': names = optarg; break;
		case 'o': k1s = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (treedir == NULL || argc > 1)
		usage(TL_EUSAGE);
	return launchers(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
