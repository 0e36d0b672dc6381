/* See LICENSE file for copyright and license details. */
/*
 * tl-uncovered: the GPU events that TraceLens makes synthetic ops of:
 * each linked GPU event of the tree stage's gpu.tsv (UID order) that
 * no collected op covers (the UIDs of a file, ascending: a merge join)
 * and that is no communication kernel (nccl, rccl,
 * cross_device_reduce), split by whether it has a cpu_op.  Memory: one
 * record.  tl-uncovered(1) gives the formats.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

/* gpu.tsv's columns, in the order of gcols[] */
enum { CUID, CLINKED, CNAME, CTS, CDUR, CSTREAM, CCPU, CCPUNAME, CRT,
    CRTNAME, NCOL };
static const char *const gcols[NCOL] = {
	"UID", "linked", "name", "ts", "dur", "stream", "cpu_op",
	"cpu_op_name", "runtime", "runtime_name"
};

/* The covered UIDs, one a line, ascending: read as a merge. */
static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-uncovered -c covered -o cpuevents [gpu.tsv]\n");
	exit(status);
}

static int
uncovered(const char *path, const char *cpath, const char *opath)
{
	struct rec_reader r;
	struct ujoin cv = {0};
	FILE *fp = io_open(path, "r", NULL), *cfp = io_open(cpath, "r", NULL);
	FILE *ofp = io_open(opath, "w", NULL), *out;
	struct buf b = {0};
	int c[NCOL];
	long long u, prev = -1;
	const char *s;
	size_t i, len;

	rec_open(&r, fp, io_name(path));
	rec_read_header(&r);
	for (i = 0; i < NCOL; i++)
		c[i] = rec_need(&r, gcols[i]);
	rec_open(&cv.r, cfp, io_name(cpath));
	while (rec_read(&r)) {
		s = rec_get(&r, c[CUID], &len);
		u = tl_uidof(&r, s, len);
		if (u <= prev)
			tl_die("%s: line %zu: out of order (UID %lld after %lld)",
			    r.name, r.lineno, u, prev);
		prev = u;
		s = rec_get(&r, c[CLINKED], &len);
		if (!tl_islinked(s, len) || ujoin_at(&cv, u))
			continue;
		s = rec_get(&r, c[CNAME], &len);
		if (tl_iscomm(s, len))
			continue;
		/* cpu_op name, or runtime UID runtime runtime_name; then
		 * ts dur name stream UID */
		buf_reset(&b);
		if (rec_get(&r, c[CCPU], &len), len > 0) {
			out = ofp;
			buf_field(&b, &r, c[CCPU]);
			buf_tab(&b), buf_field(&b, &r, c[CCPUNAME]);
		} else {
			out = stdout;
			buf_field(&b, &r, c[CRT]);
			buf_tab(&b), buf_field(&b, &r, c[CUID]);
			buf_tab(&b), buf_field(&b, &r, c[CRT]);
			buf_tab(&b), buf_field(&b, &r, c[CRTNAME]);
		}
		buf_tab(&b), buf_field(&b, &r, c[CTS]);
		buf_tab(&b), buf_field(&b, &r, c[CDUR]);
		buf_tab(&b), buf_field(&b, &r, c[CNAME]);
		buf_tab(&b), buf_field(&b, &r, c[CSTREAM]);
		buf_tab(&b), buf_field(&b, &r, c[CUID]);
		buf_emit(out, &b);
	}
	buf_free(&b);
	rec_close(&r);
	rec_close(&cv.r);
	if (fp != stdin)
		fclose(fp);
	fclose(cfp);
	return tl_fshut(ofp, opath);
}

int
main(int argc, char *argv[])
{
	const char *cpath = NULL, *opath = NULL;
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "c:o:")) != -1) {
		switch (ch) {
		case 'c': cpath = optarg; break;
		case 'o': opath = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || cpath == NULL || opath == NULL)
		usage(TL_EUSAGE);
	return uncovered(argc ? argv[0] : "-", cpath, opath) |
	    tl_fshut(stdout, "<stdout>");
}
