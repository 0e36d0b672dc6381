/* See LICENSE file for copyright and license details. */
/*
 * tl-perfops: the records tl-roofline --sheet-rows reads, of the
 * modelled ops: each op (UID order) with its process and thread names
 * (meta.tsv), its kernels' busy time, list and number (tl-pick -b's
 * records, by op) and its annotation (tl-report's annotations.tsv, by
 * UID).  Three merge joins and a table of meta.tsv's names.  Memory:
 * one record of each input, and meta.tsv.  tl-perfops(1) gives the
 * format.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

static const char *kind = "F";	/* -t: the first field of every row */

/* The ops' columns, in the order of ocols[] */
enum { CUID, CNAME, CPID, CTID, CDIMS, CTYPES, CSTRIDES, CCONC, NCOL };
static const char *const ocols[NCOL] = {
	"UID", "name", "pid", "tid", "Input Dims", "Input type",
	"Input Strides", "Concrete Inputs"
};

/* A file joined by UID (a UID may lead several records). */
struct side {
	struct ujoin j;		/* the join, its reader on fp */
	FILE *fp;		/* its file, owned (NULL: none) */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-perfops [-t kind] [-a annotations] -k kinfo -m meta "
	    "[ops]\n");
	exit(status);
}

/* Advance sd to op (calls in ascending op); 1 when its record is op's. */
static int
at(struct side *sd, long long op)
{
	return sd->fp != NULL && ujoin_at(&sd->j, op);
}

/*
 * Open path as sd (none when NULL).  Without a header, its lines are
 * not split (the first field ends at the first TAB of sd->j.r.cur).
 */
static void
sideopen(struct side *sd, const char *path, int header)
{
	memset(sd, 0, sizeof(*sd));
	if (path == NULL)
		return;
	sd->fp = io_open(path, "r", NULL);
	sd->j.dups = 1;
	sd->j.raw = !header;
	rec_open(&sd->j.r, sd->fp, io_name(path));
	if (header)
		rec_read_header(&sd->j.r);
}

static void
sideclose(struct side *sd)
{
	if (sd->fp == NULL)
		return;
	rec_close(&sd->j.r);
	if (sd->fp != stdin)
		fclose(sd->fp);
}

static int
perfops(const char *path, const char *kinfo, const char *ann,
    const char *metapath)
{
	struct rec_reader r;
	struct side k, a;
	struct meta mt;
	struct buf b = {0}, key = {0};
	FILE *fp = io_open(path, "r", NULL);
	int c[NCOL], hk;
	long long u, prev = -1;
	const char *s, *pid, *t;
	size_t i, len;

	meta_load(&mt, metapath);
	rec_open(&r, fp, io_name(path));
	rec_read_header(&r);
	for (i = 0; i < NCOL; i++)
		c[i] = rec_need(&r, ocols[i]);
	sideopen(&k, kinfo, 1);
	sideopen(&a, ann, 0);
	fputs("kind\tUID\tname\tprocess_name\tprocess_label\tthread_name\t"
	    "Input Dims\tInput type\tInput Strides\tConcrete Inputs\t"
	    "Kernel Time (\xc2\xb5s)\tkernel_names\tannotation\tnum_kernels\n",
	    stdout);
	while (rec_read(&r)) {
		s = rec_get(&r, c[CUID], &len);
		u = tl_uidof(&r, s, len);
		if (u < prev)
			tl_die("%s: line %zu: out of order (UID %lld after %lld)",
			    r.name, r.lineno, u, prev);
		prev = u;
		buf_reset(&b);
		buf_adds(&b, kind);
		buf_tab(&b), buf_add(&b, s, len);
		buf_tab(&b), buf_field(&b, &r, c[CNAME]);
		pid = rec_get(&r, c[CPID], NULL);
		buf_tabs(&b, meta_get(&mt, &key, pid, "0", "process_name"));
		buf_tabs(&b, meta_get(&mt, &key, pid, "0", "process_labels"));
		buf_tabs(&b, meta_get(&mt, &key, pid, rec_get(&r, c[CTID], NULL),
		    "thread_name"));
		for (i = CDIMS; i <= CCONC; i++)
			buf_tab(&b), buf_field(&b, &r, c[i]);
		hk = at(&k, u);
		buf_tabs(&b, hk ? rec_get(&k.j.r, 1, NULL) : "0");
		buf_tabs(&b, hk ? rec_get(&k.j.r, 2, NULL) : "");
		buf_tab(&b);
		if (at(&a, u) &&
		    (t = memchr(a.j.r.cur, '\t', a.j.r.curlen)) != NULL)
			buf_add(&b, t + 1, a.j.r.curlen -
			    (size_t)(t + 1 - a.j.r.cur));
		buf_tabs(&b, hk ? rec_get(&k.j.r, 3, NULL) : "0");
		buf_emit(stdout, &b);
	}
	buf_free(&b);
	buf_free(&key);
	meta_free(&mt);
	sideclose(&k);
	sideclose(&a);
	rec_close(&r);
	if (fp != stdin)
		fclose(fp);
	return TL_OK;
}

int
main(int argc, char *argv[])
{
	const char *kinfo = NULL, *ann = NULL, *meta = NULL;
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "a:k:m:t:")) != -1) {
		switch (ch) {
		case 'a': ann = optarg; break;
		case 'k': kinfo = optarg; break;
		case 'm': meta = optarg; break;
		case 't': kind = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || kinfo == NULL || meta == NULL)
		usage(TL_EUSAGE);
	return perfops(argc ? argv[0] : "-", kinfo, ann, meta) |
	    tl_fshut(stdout, "<stdout>");
}
