/* See LICENSE file for copyright and license details. */
/*
 * tl-roofline: add TraceLens's perf-model columns (FLOPs, bytes,
 * throughput, roofline) to a stream of op records.  The models live in
 * common/models/; this file reads records, the GPU spec, and writes
 * the columns.  One record at a time: memory is one record (and one of
 * --fwd-args, read in step by UID) plus a small table of warnings.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "gpuarch.h"
#include "shape.h"
#include "perfmodel.h"
#include "treeio.h"

/* Options. */
static int bwdflag;		/* --bwd: backward metrics */
static int fixedflag;		/* --fixed-models */
static const char *archarg;	/* --gpu-arch NAME|FILE */
static int modelledflag;	/* --modelled: only ops that have a model */
static int sheetflag;		/* --sheet-rows: only ops with a sheet row */
static const char *metpath;	/* --metrics: every op's model columns, out */
static const char *fwdpath;	/* --fwd-args: the forward ops' args, in */
static const char *builtpath;	/* --built: with --modelled, the UIDs of
				   ops whose model builds from their args, out */

/* The GPU spec of --gpu-arch (gpuarch.h), and where it came from. */
struct arch {
	char *path;		/* the file read, owned */
	struct gpuarch g;	/* its contents */
};

/* Ops not modelled, by (name, reason), for the summary line. */
struct warnent {
	char *what;		/* "name: reason", owned */
	size_t n;		/* how many ops */
};

struct warns {
	struct warnent e[64];	/* first distinct reasons */
	size_t ne;		/* entries used */
	size_t total;		/* all ops counted */
};

/* The columns tl-roofline appends, in order. */
static const char *const outcols[] = {
	"perf_model", "model_status", "sheet", "op category", "params", "GFLOPS",
	"Data Moved (MB)", "FLOPS/Byte", "TB/s", "TFLOPS/s", "Compute Spec",
	"Roofline Time (µs)", "Roofline Bound", "Pct Roofline"
};
enum { NBASE = 11, NOUT = LEN(outcols) };

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s [--bwd] [--check-arch] [--fixed-models] [--fwd-args file]\n"
	    "       [--gpu-arch name|file] [--modelled [--built file]] [--metrics file]\n"
	    "       [--sheet-rows] [file]\n",
	    tl_progname());
	exit(status);
}

static void
warn_add(struct warns *w, const char *name, const char *why)
{
	char buf[512];
	size_t i;

	w->total++;
	snprintf(buf, sizeof(buf), "%s: %s", name, why);
	for (i = 0; i < w->ne; i++)
		if (strcmp(w->e[i].what, buf) == 0) {
			w->e[i].n++;
			return;
		}
	if (w->ne < LEN(w->e)) {
		w->e[w->ne].what = tl_strdup(buf);
		w->e[w->ne++].n = 1;
	}
}

static void
warn_print(struct warns *w)
{
	size_t i, shown = 0;

	if (w->total == 0)
		return;
	fprintf(stderr, "%s: %zu op%s not modelled:", tl_progname(), w->total,
	    w->total == 1 ? "" : "s");
	for (i = 0; i < w->ne && i < 4; i++) {
		fprintf(stderr, "%s %s (%zu)", i ? "," : "", w->e[i].what, w->e[i].n);
		shown += w->e[i].n;
	}
	if (shown < w->total)
		fprintf(stderr, ", %zu more", w->total - shown);
	fputc('\n', stderr);
	for (i = 0; i < w->ne; i++)
		free(w->e[i].what);
}

/* ---- the GPU spec ---- */

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = tl_fopen(path, "r");
	char *s = NULL;
	size_t cap = 0, n;

	*len = 0;
	for (;;) {
		tl_grow((void **)&s, &cap, *len + 65536, 1);
		n = fread(s + *len, 1, cap - *len - 1, fp);
		*len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp))
		tl_die("%s:", path);
	fclose(fp);
	s[*len] = '\0';
	return s;
}

/* The directory of this program, or NULL. */
static char *
bindir(const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t n;

	if ((n = readlink("/proc/self/exe", buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		return tl_strdup(dirname(buf));
	}
	if (strchr(argv0, '/') != NULL) {
		snprintf(buf, sizeof(buf), "%s", argv0);
		return tl_strdup(dirname(buf));
	}
	return NULL;
}

/*
 * NAME|FILE: a path to a file, else NAME.json in $TL_ARCH_DIR, or in
 * ../share/tl/arch then ../scripts/arch beside the program.
 */
static void
arch_load(struct arch *a, const char *arg, const char *argv0)
{
	char path[PATH_MAX], *dir, *js;
	const char *env = getenv("TL_ARCH_DIR"), *err;
	size_t len;

	memset(a, 0, sizeof(*a));
	if (strchr(arg, '/') != NULL || access(arg, R_OK) == 0) {
		snprintf(path, sizeof(path), "%s", arg);
	} else if (env != NULL && *env != '\0') {
		snprintf(path, sizeof(path), "%s/%s.json", env, arg);
	} else {
		if ((dir = bindir(argv0)) == NULL)
			tl_usage_die("--gpu-arch %s: cannot find the arch directory", arg);
		snprintf(path, sizeof(path), "%s/../share/tl/arch/%s.json", dir, arg);
		if (access(path, R_OK) != 0)
			snprintf(path, sizeof(path), "%s/../scripts/arch/%s.json", dir, arg);
		free(dir);
	}
	/*
	 * A file named (a path, or NAME.json: --gpu_arch_json_path's) that
	 * is not there is a missing input, as a missing trace is, and
	 * TraceLens's FileNotFoundError: exit 1, naming the file, not the
	 * spec directory's NAME.json.json.
	 */
	if (access(path, R_OK) != 0 && (strchr(arg, '/') != NULL ||
	    ((len = strlen(arg)) > 5 && strcmp(arg + len - 5, ".json") == 0)))
		tl_die("--gpu-arch %s: cannot read the GPU spec:", arg);
	if (access(path, R_OK) != 0)
		tl_usage_die("--gpu-arch %s: no such GPU spec (%s)", arg, path);
	a->path = tl_strdup(path);
	js = slurp(path, &len);
	if (gpuarch_parse(&a->g, js, len, &err) < 0)
		tl_die("%s: not a GPU spec: %s", path, err);
	free(js);
}

/* ---- records ---- */

/* Column indexes of the input. */
struct cols {
	int name, dims, types, strides, concrete;	/* needed */
	int kname, knames, ktime, outtype, annot;	/* optional, -1 */
	int uid;		/* needed with --fwd-args, else -1 */
};

/*
 * --fwd-args: the args of the forward op whose params a backward op's
 * model takes, a second record stream by UID, read in step with the
 * records (both ascend by UID).
 */
struct fwdin {
	struct rec_reader r;	/* the stream, its header read */
	FILE *fp;		/* its file */
	int col[5];		/* UID, Input Dims, Input type, Input Strides, Concrete Inputs */
	int sheetcol;		/* the optional sheet column, or -1 */
	unsigned long long uid;	/* UID of the record in r; ULLONG_MAX past the end */
	struct opargs a;	/* the args of that record, when it matched */
	int sheet;		/* that record's sheet flag: 0, for the metrics only */
};

/*
 * Whether the line rec_next read may be of an op with a model: field i,
 * the name, read off the line without splitting it (a name with an
 * escape: yes, the split decides).  b is scratch.
 */
static int
maybe_model(const struct rec_reader *r, int i, struct buf *b)
{
	const char *s = r->cur, *e = s + r->curlen, *t;

	if (i < 0)
		return 1;
	for (; i > 0 && s != NULL; i--)
		if ((s = memchr(s, '\t', (size_t)(e - s))) != NULL)
			s++;
	if (s == NULL)
		return 1;
	if ((t = memchr(s, '\t', (size_t)(e - s))) == NULL)
		t = e;
	if (memchr(s, '\\', (size_t)(t - s)) != NULL)
		return 1;
	buf_reset(b);
	buf_add(b, s, (size_t)(t - s));
	return b->len == 0 || model_find(b->s) != NULL;
}

/* Unescape field i of the current record into b; 1 if non-empty. */
static int
getfield(struct rec_reader *r, int i, struct buf *b)
{
	size_t len;
	const char *s = rec_get(r, i, &len);

	buf_reset(b);
	buf_add(b, s, len);
	b->len = rec_unescape(b->s, b->len);
	return b->len > 0;
}

/* Parse a JSON field into d; *has, *bad say what was there. */
static void
getjson(struct rec_reader *r, int i, struct buf *b, struct jdoc *d, int *has,
    int *bad)
{
	*has = *bad = 0;
	jdoc_clear(d);
	if (i < 0 || !getfield(r, i, b))
		return;
	if (jdoc_parse(d, b->s, b->len) < 0)
		*bad = 1;
	else
		*has = 1;
}

static void
putnum(FILE *fp, int ok, double d)
{
	char s[40];

	putc('\t', fp);
	if (ok && !isnan(d))
		fputs(num_pyrepr(d, s, sizeof(s)), fp);
}

static void
putstr(FILE *fp, const char *s)
{
	putc('\t', fp);
	if (s != NULL)
		rec_puts(fp, s);
}

/* Append the model columns of one op. */
static void
model_cols(FILE *fp, const struct model *m, int st, const struct mresult *res,
    int hasKT, double kt, const struct arch *arch)
{
	static const char *const stname[] = { "ok", "failed", "undefined" };
	double gflops = NAN, bytes = NAN, cu, mu, roof = NAN;
	const double *peak = NULL;
	const char *prec = NULL, *bound = NULL;
	char spec[64] = "";
	int ok = m != NULL && st == M_OK, hb = ok && res->has_bytes;

	putstr(fp, m ? m->cls : NULL);
	putstr(fp, m && st >= 0 ? stname[st] : NULL);
	putstr(fp, m ? m->fam->sheet : NULL);
	putstr(fp, m ? (bwdflag ? m->fam->bwdcat : m->fam->cat) : NULL);
	putstr(fp, ok ? res->params.s : NULL);
	if (ok) {
		gflops = pynum_double(res->flops) / 1e9;
		bytes = pynum_double(res->bytes);
		prec = res->prec[0] ? res->prec : model_precision(res->dtype);
		if (prec != NULL)
			snprintf(spec, sizeof(spec), "%s_%s", m->fam->maf, prec);
	}
	putnum(fp, ok, gflops);
	putnum(fp, hb, bytes / (1024 * 1024));
	putnum(fp, hb, bytes > 0 ? (gflops * 1e9) / bytes : NAN);
	putnum(fp, hb && hasKT, kt > 0 ? (bytes / 1e12) / (kt / 1e6) : NAN);
	putnum(fp, ok && hasKT, kt > 0 ? (gflops / 1e3) / (kt / 1e6) : NAN);
	putstr(fp, spec);
	if (arch == NULL)
		return;
	if (ok && *spec)
		peak = gpuarch_peak(&arch->g, spec);
	if (peak != NULL && arch->g.has_bw && hb && gflops > 0) {
		cu = (gflops * 1e9 / (*peak * 1e12)) * 1e6;
		mu = (bytes / (arch->g.bw * 1e9)) * 1e6;
		roof = MAX(cu, mu);
		bound = cu >= mu ? "COMPUTE_BOUND" : "MEMORY_BOUND";
	}
	putnum(fp, bound != NULL, roof);
	putstr(fp, bound);
	putnum(fp, bound != NULL && hasKT, kt > 0 ? (roof / kt) * 100 : NAN);
}

/*
 * The header of --metrics: the input's UID and kernel time (when it
 * has one), then the model columns, as on the standard output.  mc:
 * the two columns in the input (-1: none).
 */
static void
metrics_head(FILE *fp, const int *mc, size_t nout)
{
	size_t i;

	fputs("UID", fp);
	if (mc[1] >= 0)
		fputs("\tKernel Time (µs)", fp);
	for (i = 0; i < nout; i++) {
		putc('\t', fp);
		rec_puts(fp, outcols[i]);
	}
	putc('\n', fp);
}

/* Field i of r, a UID: a decimal integer. */
static unsigned long long
fielduid(struct rec_reader *r, int i, struct buf *b)
{
	unsigned long long v;
	char *e;

	getfield(r, i, b);
	errno = 0;
	v = b->len > 0 && b->s[0] >= '0' && b->s[0] <= '9' ? strtoull(b->s, &e, 10) : 0;
	if (b->len == 0 || b->s[0] < '0' || b->s[0] > '9' || *e != '\0' ||
	    errno != 0 || v == ULLONG_MAX)
		tl_die("%s: line %zu: UID is not an integer: %s", r->name, r->lineno,
		    b->s ? b->s : "");
	return v;
}

static void
fwd_open(struct fwdin *f, const char *path, int fixed)
{
	static const char *const need[] = {
		"UID", "Input Dims", "Input type", "Input Strides", "Concrete Inputs"
	};
	size_t i;

	memset(f, 0, sizeof(*f));
	f->fp = tl_fopen(path, "r");
	rec_open(&f->r, f->fp, path);
	rec_read_header(&f->r);
	for (i = 0; i < LEN(need); i++)
		f->col[i] = rec_need(&f->r, need[i]);
	f->sheetcol = rec_col(&f->r, "sheet");
	f->a.fixed = fixed;
	f->a.name = "";
}

/* The forward op's args of the op with UID u, or NULL (u ascends). */
static const struct opargs *
fwd_find(struct fwdin *f, unsigned long long u, struct buf *b)
{
	unsigned long long v;

	while (f->uid != ULLONG_MAX && (f->r.lineno < 2 || f->uid < u)) {
		if (!rec_read(&f->r)) {
			f->uid = ULLONG_MAX;
			break;
		}
		rec_check_width(&f->r);
		v = fielduid(&f->r, f->col[0], b);
		if (f->r.lineno > 2 && v <= f->uid)
			tl_die("%s: line %zu: UID %llu after %llu: not ascending",
			    f->r.name, f->r.lineno, v, f->uid);
		f->uid = v;
	}
	if (f->uid != u)
		return NULL;
	getjson(&f->r, f->col[1], b, &f->a.dims, &f->a.has_dims, &f->a.bad_dims);
	getjson(&f->r, f->col[2], b, &f->a.types, &f->a.has_types, &f->a.bad_types);
	getjson(&f->r, f->col[3], b, &f->a.strides, &f->a.has_strides,
	    &f->a.bad_strides);
	getjson(&f->r, f->col[4], b, &f->a.concrete, &f->a.has_concrete,
	    &f->a.bad_concrete);
	f->sheet = f->sheetcol < 0 || !getfield(&f->r, f->sheetcol, b) ||
	    strcmp(b->s, "0") != 0;
	return &f->a;
}

static void
fwd_close(struct fwdin *f)
{
	rec_close(&f->r);
	fclose(f->fp);
	jdoc_free(&f->a.dims);
	jdoc_free(&f->a.types);
	jdoc_free(&f->a.strides);
	jdoc_free(&f->a.concrete);
}

static void
roofline(struct rec_reader *r, FILE *out, FILE *met, FILE *built,
    const struct arch *arch, struct fwdin *fwd)
{
	struct cols c;
	struct opargs a;
	struct mresult res;
	struct buf name = { 0 }, tmp = { 0 }, kn = { 0 }, an = { 0 }, kjs = { 0 };
	struct lazyjson kj;
	struct warns w = { 0 };
	const struct model *m;
	size_t i, nout = arch ? NOUT : NBASE;
	double kt = 0;
	unsigned long long uid, lastuid = 0;
	int st = M_OK, sst, hasKT, dummy, mc[2];

	memset(&a, 0, sizeof(a));
	memset(&kj, 0, sizeof(kj));
	a.knames = &kj;
	memset(&res, 0, sizeof(res));
	rec_read_header(r);
	c.name = rec_need(r, "name");
	c.dims = rec_need(r, "Input Dims");
	c.types = rec_need(r, "Input type");
	c.strides = rec_need(r, "Input Strides");
	c.concrete = rec_need(r, "Concrete Inputs");
	c.kname = rec_col(r, "kernel_name");
	c.knames = rec_col(r, "kernel_names");
	c.ktime = rec_col(r, "Kernel Time (µs)");
	c.outtype = rec_col(r, "Output type");
	c.annot = rec_col(r, "annotation");
	c.uid = fwd || built ? rec_need(r, "UID") : -1;
	for (i = 0; i < nout; i++)
		if (rec_col(r, outcols[i]) >= 0)
			tl_die("%s: input already has a field '%s'", r->name, outcols[i]);
	for (i = 0; i < r->nhdr; i++) {
		if (i > 0)
			putc('\t', out);
		rec_puts(out, r->hdr[i]);
	}
	for (i = 0; i < nout; i++) {
		putc('\t', out);
		rec_puts(out, outcols[i]);
	}
	putc('\n', out);
	mc[0] = met ? rec_need(r, "UID") : -1;
	mc[1] = c.ktime;
	if (met)
		metrics_head(met, mc, nout);
	a.fixed = fixedflag;
	while (rec_next(r)) {
		/* --modelled: most ops have no model, told by the name alone */
		if (modelledflag && !maybe_model(r, c.name, &name))
			continue;
		rec_split(r);
		rec_check_width(r);
		getfield(r, c.name, &name);
		a.name = name.s ? name.s : "";
		m = memchr(a.name, '\0', name.len) ? NULL : model_find(a.name);
		hasKT = c.ktime >= 0 && getfield(r, c.ktime, &tmp);
		if (hasKT && num_double(tmp.s, tmp.len, &kt) < 0)
			tl_die("%s: line %zu: Kernel Time (µs) is not a number: %s",
			    r->name, r->lineno, tmp.s);
		if (m != NULL && (m->can != NULL || !modelledflag || built != NULL)) {
			getjson(r, c.dims, &tmp, &a.dims, &a.has_dims, &a.bad_dims);
			getjson(r, c.types, &tmp, &a.types, &a.has_types, &a.bad_types);
			getjson(r, c.strides, &tmp, &a.strides, &a.has_strides,
			    &a.bad_strides);
			getjson(r, c.concrete, &tmp, &a.concrete, &a.has_concrete,
			    &a.bad_concrete);
			/* a model that takes only some ops of its name: the others have none */
			if (!model_can(m, &a))
				m = NULL;
		}
		if (m != NULL && modelledflag) {
			st = -1;	/* selection only: no metrics */
			/*
			 * --built: the model run on the args alone (kernel
			 * names can only add a failure: a GEMM's transpose)
			 */
			getjson(r, c.outtype, &tmp, &a.outtype, &a.has_outtype, &dummy);
			kj.done = 0;
			kj.s = NULL;
			a.kname = NULL;
			a.annotation = NULL;
			a.fwd = NULL;
			if (built != NULL && model_run(m, &a, &res, bwdflag) == M_OK) {
				fwrite(r->f[c.uid].s, 1, r->f[c.uid].len, built);
				putc('\n', built);
			}
		} else if (m != NULL) {
			getjson(r, c.outtype, &tmp, &a.outtype, &a.has_outtype, &dummy);
			/* (parsed only by the models that read it) */
			kj.done = 0;
			kj.s = NULL;
			if (c.knames >= 0 && getfield(r, c.knames, &kjs)) {
				kj.s = kjs.s;
				kj.len = kjs.len;
			}
			a.kname = c.kname >= 0 && getfield(r, c.kname, &kn) ? kn.s : NULL;
			a.annotation = c.annot >= 0 && getfield(r, c.annot, &an) ? an.s : NULL;
			a.fwd = NULL;
			if (fwd != NULL) {
				uid = fielduid(r, c.uid, &tmp);
				if (uid < lastuid)
					tl_die("%s: line %zu: UID %llu after %llu: --fwd-args "
					    "needs UID order", r->name, r->lineno, uid, lastuid);
				lastuid = uid;
				a.fwd = fwd_find(fwd, uid, &tmp);
			}
			st = model_run(m, &a, &res, bwdflag);
			if (st == M_FAIL)
				warn_add(&w, a.name, res.why);
			else if (st == M_OK && !res.has_bytes)
				warn_add(&w, a.name, res.why[0] ? res.why :
				    "unknown dtype, bytes left empty");
		} else if (modelledflag)
			continue;
		/* forward args for the metrics only: no sheet row */
		sst = st;
		if (m != NULL && st != M_FAIL && a.fwd != NULL && !fwd->sheet) {
			sst = M_FAIL;
			warn_add(&w, a.name, "no forward op of its sequence number before it "
			    "(metrics for unified_perf_summary only)");
		}
		if (met) {
			fwrite(r->f[mc[0]].s, 1, r->f[mc[0]].len, met);
			if (mc[1] >= 0) {
				putc('\t', met);
				fwrite(r->f[mc[1]].s, 1, r->f[mc[1]].len, met);
			}
			model_cols(met, m, st, &res, hasKT, kt, arch);
			putc('\n', met);
		}
		/* (a sheet row: a model that ran, of a family with a sheet) */
		if (sheetflag && !(m != NULL && sst == M_OK && m->fam->sheet != NULL &&
		    *m->fam->sheet != '\0'))
			continue;
		for (i = 0; i < r->nf; i++) {
			if (i > 0)
				putc('\t', out);
			fwrite(r->f[i].s, 1, r->f[i].len, out);
		}
		model_cols(out, m, sst, &res, hasKT, kt, arch);
		putc('\n', out);
	}
	warn_print(&w);
	buf_free(&name);
	buf_free(&tmp);
	buf_free(&kn);
	buf_free(&an);
	buf_free(&res.params);
	jdoc_free(&a.dims);
	jdoc_free(&a.types);
	jdoc_free(&a.strides);
	jdoc_free(&a.concrete);
	jdoc_free(&a.outtype);
	jdoc_free(&kj.d);
	buf_free(&kjs);
}

int
main(int argc, char *argv[])
{
	static const struct option lo[] = {
		{ "built", required_argument, NULL, 'k' },
		{ "bwd", no_argument, NULL, 'b' },
		{ "check-arch", no_argument, NULL, 'C' },
		{ "fixed-models", no_argument, NULL, 'F' },
		{ "fwd-args", required_argument, NULL, 'f' },
		{ "gpu-arch", required_argument, NULL, 'g' },
		{ "modelled", no_argument, NULL, 'm' },
		{ "metrics", required_argument, NULL, 'o' },
		{ "sheet-rows", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	static char iob[2][TL_IOBUF];	/* met's, built's (see io_bigbuf) */
	struct rec_reader r;
	struct arch arch;
	struct fwdin fwd;
	const char *in = "-", *argv0 = argv[0];
	FILE *fp, *met, *built;
	int ch, st, checkflag = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt_long(argc, argv, "bCFf:g:k:mo:s", lo, NULL)) != -1) {
		switch (ch) {
		case 'b': bwdflag = 1; break;
		case 'C': checkflag = 1; break;
		case 'F': fixedflag = 1; break;
		case 'f': fwdpath = optarg; break;
		case 'g': archarg = optarg; break;
		case 'k': builtpath = optarg; break;
		case 'm': modelledflag = 1; break;
		case 'o': metpath = optarg; break;
		case 's': sheetflag = 1; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (builtpath != NULL && !modelledflag))
		usage(TL_EUSAGE);
	if (argc == 1)
		in = argv[0];
	if (archarg != NULL)
		arch_load(&arch, archarg, argv0);
	/* (tl-report's check of its --gpu-arch, before any work) */
	if (checkflag) {
		if (archarg != NULL)
			free(arch.path);
		return TL_OK;
	}
	fp = tl_fopen(in, "r");
	met = metpath ? io_open(metpath, "w", iob[0]) : NULL;
	built = builtpath ? io_open(builtpath, "w", iob[1]) : NULL;
	rec_open(&r, fp, strcmp(in, "-") == 0 ? "<stdin>" : in);
	if (fwdpath != NULL)
		fwd_open(&fwd, fwdpath, fixedflag);
	roofline(&r, stdout, met, built, archarg ? &arch : NULL,
	    fwdpath ? &fwd : NULL);
	rec_close(&r);
	if (fwdpath != NULL)
		fwd_close(&fwd);
	if (fp != stdin)
		fclose(fp);
	if (archarg != NULL)
		free(arch.path);
	st = tl_fshut(stdout, "<stdout>");
	if (met)
		st |= tl_fshut(met, metpath);
	if (built)
		st |= tl_fshut(built, builtpath);
	return st;
}
