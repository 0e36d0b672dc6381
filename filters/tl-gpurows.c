/* See LICENSE file for copyright and license details. */
/*
 * tl-gpurows: the two views of the tree stage's gpu.tsv that the
 * report's GPU sheets read, in one pass: the busy intervals of the GPU
 * events (gpu_timeline's), each with its class (memcpy, comm or comp),
 * on stdout, and the kernels with their launch's names (kernels.tsv:
 * kernel_summary's and short_kernels'), with the facts the stages
 * decide by.  Any input order; the output keeps it.  Memory: one
 * record.  tl-gpurows(1) gives the formats.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

/* gpu.tsv's columns, in the order of gcols[] */
enum { CCPU, CUID, CCPUNAME, CRTNAME, CLINKED, CNAME, CSTREAM, CDUR,
    CDIMS, CSTRIDES, CCONC, CCAT, CTS, CRT, NCOL };
static const char *const gcols[NCOL] = {
	"cpu_op", "UID", "cpu_op_name", "runtime_name", "linked", "name",
	"stream", "dur", "Input Dims", "Input Strides", "Concrete Inputs",
	"cat", "ts", "runtime"
};

/* The options: what to write. */
struct opts {
	int runtime;		/* -r: the busy rows' runtime column */
	int shapes;		/* -s: the kernels' dims, strides, concrete */
	int unlinked;		/* -u: unlinked GPU events are busy too */
	const char *kpath;	/* -k: kernels.tsv */
	const char *fpath;	/* -f: the facts */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-gpurows [-rsu] -k kernels -f facts [gpu.tsv]\n");
	exit(status);
}

/* name, less a .kd suffix, is one of set[] (NULL-ended). */
static int
named(const char *s, size_t len, const char *const *set)
{
	size_t i;

	if (len > 3 && memcmp(s + len - 3, ".kd", 3) == 0)
		len -= 3;
	for (i = 0; set[i] != NULL; i++)
		if (fld_eq(s, len, set[i]))
			return 1;
	return 0;
}

/*
 * TraceLens's class of a GPU event for the timeline: copies (its
 * gpu_memcpy events and AMD's copy kernels), AMD's fill kernels as
 * computation, communication kernels, the rest computation.
 */
static const char *
gpuclass(int kernel, const char *cat, size_t catl, const char *name,
    size_t namel)
{
	static const char *const copy[] = {
		"MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
		"MEMORY_COPY_DEVICE_TO_DEVICE", "__amd_rocclr_copyBuffer",
		"__amd_rocclr_copyBufferRect", "__amd_rocclr_copyBufferAligned",
		"__amd_rocclr_copyBufferRectAligned", NULL
	};
	static const char *const fill[] = {
		"__amd_rocclr_fillBuffer", "__amd_rocclr_fillBufferAligned", NULL
	};
	if (fld_eq(cat, catl, "gpu_memcpy") || (kernel && named(name, namel, copy)))
		return "memcpy";
	if (kernel && named(name, namel, fill))
		return "comp";
	return tl_iscomm(name, namel) ? "comm" : "comp";
}

static int
gpurows(const char *path, const struct opts *o)
{
	static char iob[TL_IOBUF];	/* kernels.tsv's (see io_bigbuf) */
	struct rec_reader r;
	FILE *fp = io_open(path, "r", NULL), *kfp = io_open(o->kpath, "w", iob);
	FILE *ffp;
	struct buf b = {0};
	int c[NCOL], i, kernel, nk = 0, kc = 0, nb = 0;
	const char *cat, *name, *s;
	size_t catl, namel, len;

	rec_open(&r, fp, io_name(path));
	rec_read_header(&r);
	for (i = 0; i < NCOL; i++)
		c[i] = rec_need(&r, gcols[i]);
	printf("ts\tdur\tclass%s\n", o->runtime ? "\truntime" : "");
	fputs("cpu_op\tUID\tcpu_op_name\truntime_name\tlinked\tname\tstream\t"
	    "dur\tdims\tstrides\tconcrete\n", kfp);
	while (rec_read(&r)) {
		cat = rec_get(&r, c[CCAT], &catl);
		name = rec_get(&r, c[CNAME], &namel);
		kernel = fld_eq(cat, catl, "kernel");
		if (kernel) {
			nk = 1;
			if (rec_get(&r, c[CCPU], &len), len > 0)
				kc = 1;
			buf_reset(&b);
			for (i = CCPU; i <= CDUR; i++) {
				if (i > CCPU)
					buf_tab(&b);
				buf_field(&b, &r, c[i]);
			}
			for (i = CDIMS; i <= CCONC; i++) {
				buf_tab(&b);
				if (o->shapes)
					buf_field(&b, &r, c[i]);
			}
			buf_emit(kfp, &b);
		}
		s = rec_get(&r, c[CLINKED], &len);
		if (!o->unlinked && !tl_islinked(s, len))
			continue;
		nb = 1;
		buf_reset(&b);
		buf_field(&b, &r, c[CTS]);
		buf_tab(&b), buf_field(&b, &r, c[CDUR]);
		buf_tab(&b), buf_adds(&b, gpuclass(kernel, cat, catl, name, namel));
		if (o->runtime)
			buf_tab(&b), buf_field(&b, &r, c[CRT]);
		buf_emit(stdout, &b);
	}
	buf_free(&b);
	rec_close(&r);
	if (fp != stdin)
		fclose(fp);
	if (tl_fshut(kfp, o->kpath) != 0)
		return 1;
	ffp = io_open(o->fpath, "w", NULL);
	fprintf(ffp, "kernels=%d\nkernels_cpu_op=%d\nbusy_rows=%d\n", nk, kc, nb);
	return tl_fshut(ffp, o->fpath);
}

int
main(int argc, char *argv[])
{
	struct opts o = {0};
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "f:k:rsu")) != -1) {
		switch (ch) {
		case 'f': o.fpath = optarg; break;
		case 'k': o.kpath = optarg; break;
		case 'r': o.runtime = 1; break;
		case 's': o.shapes = 1; break;
		case 'u': o.unlinked = 1; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || o.kpath == NULL || o.fpath == NULL)
		usage(TL_EUSAGE);
	return gpurows(argc ? argv[0] : "-", &o) | tl_fshut(stdout, "<stdout>");
}
