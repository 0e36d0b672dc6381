/* See LICENSE file for copyright and license details. */
/*
 * tl-json: records as nested JSON objects with lists at the leaves, as
 * Python's json.dump(indent=2, ensure_ascii=False) writes a dict of
 * dicts of lists: TraceDiff's cpu_op maps.  The records come grouped
 * by their keys (the first -k fields), and the output is written as
 * they come: memory is one record.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

static int skip;	/* -s: leading fields left out (the records' sort keys) */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s [-i indent] [-k keys] [-s skip] [file]\n", tl_progname());
	exit(status);
}

/* Append a newline and the indent of depth d. */
static void
nl(struct buf *b, int indent, int d)
{
	int i;

	buf_addc(b, '\n');
	for (i = 0; i < indent * d; i++)
		buf_addc(b, ' ');
}

/* Append field s[0..len) (escaped, tl(7)) as a JSON string. */
static void
str(struct buf *b, const char *s, size_t len)
{
	char *t = tl_strndup(s, len);

	json_pystr(b, t, rec_unescape(t, len));
	free(t);
}

/*
 * Write record r as the next leaf of the nesting: close the lists and
 * objects of the keys it does not share with the last record (prev,
 * nkeys keys), open its own, and add its value.  first: no record yet.
 */
static void
leaf(struct buf *b, const struct rec_reader *r, struct buf *prev,
    int nkeys, int indent, int first)
{
	const char *s;
	size_t len;
	int j, d;

	buf_reset(b);
	buf_adds(b, "");
	/* the first key that differs from the last record's */
	for (d = 0; !first && d < nkeys; d++) {
		s = rec_get(r, skip + d, &len);
		if (prev[d].len != len || (len > 0 && memcmp(prev[d].s, s, len) != 0))
			break;
	}
	if (first) {
		buf_addc(b, '{');
		d = 0;
	} else if (d == nkeys) {
		buf_addc(b, ',');
	} else {
		nl(b, indent, nkeys);
		buf_addc(b, ']');
		for (j = nkeys - 1; j > d; j--) {
			nl(b, indent, j);
			buf_addc(b, '}');
		}
		buf_addc(b, ',');
	}
	for (j = d; j < nkeys; j++) {
		nl(b, indent, j + 1);
		s = rec_get(r, skip + j, &len);
		str(b, s, len);
		buf_adds(b, j + 1 < nkeys ? ": {" : ": [");
		buf_reset(&prev[j]);
		buf_add(&prev[j], s, len);
	}
	nl(b, indent, nkeys + 1);
	s = rec_get(r, skip + nkeys, &len);
	str(b, s, len);
	fwrite(b->s, 1, b->len, stdout);
}

/*
 * The records of r as one JSON object.  The object at depth j holds
 * the keys of field j at indent j + 1; the list of the last key's
 * values is at depth nkeys.  Memory: the last record's keys.
 */
static void
nest(struct rec_reader *r, int nkeys, int indent)
{
	struct buf b = {0}, *prev;
	int i, first = 1;

	rec_read_header(r);
	if ((int)r->nhdr < skip + nkeys + 1)
		tl_die("%s: %s%d keys and a value want %d fields, not %zu", r->name,
		    skip ? "skipped fields, " : "", nkeys, skip + nkeys + 1, r->nhdr);
	prev = tl_calloc((size_t)nkeys, sizeof(*prev));
	while (rec_read(r)) {
		rec_check_width(r);
		leaf(&b, r, prev, nkeys, indent, first);
		first = 0;
	}
	buf_reset(&b);
	buf_adds(&b, "");
	if (first) {
		buf_adds(&b, "{}");
	} else {
		nl(&b, indent, nkeys);
		buf_addc(&b, ']');
		for (i = nkeys - 1; i >= 0; i--) {
			nl(&b, indent, i);
			buf_addc(&b, '}');
		}
	}
	fwrite(b.s, 1, b.len, stdout);
	for (i = 0; i < nkeys; i++)
		buf_free(&prev[i]);
	free(prev);
	buf_free(&b);
}

int
main(int argc, char *argv[])
{
	struct rec_reader r;
	FILE *in = stdin;
	int c, nkeys = 1, indent = 2;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "i:k:s:")) != -1) {
		switch (c) {
		case 'i':
			indent = (int)tl_strtonum(optarg, 0, 16, "-i");
			break;
		case 'k':
			nkeys = (int)tl_strtonum(optarg, 1, 64, "-k");
			break;
		case 's':
			skip = (int)tl_strtonum(optarg, 0, 64, "-s");
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(TL_EUSAGE);
	if (argc == 1)
		in = tl_fopen(argv[0], "r");
	rec_open(&r, in, argc == 1 ? argv[0] : "<stdin>");
	nest(&r, nkeys, indent);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return tl_fshut(stdout, "<stdout>");
}
