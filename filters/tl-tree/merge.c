/* See LICENSE file for copyright and license details. */
/*
 * tl-tree -m merge: the events again, in trace order, each with its
 * records of the host, link, intervals and fwd modes -> ops.tsv,
 * gpu.tsv and dropped_ops.tsv.  tl-tree -m gpu: gpu.tsv alone, from the
 * GPU events and link's records, which merge -N then leaves to it: it
 * needs no counts of intervals, so it runs while they are made, and
 * what merge does once they come is shorter.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"
#include "tree.h"

/* The merge's inputs besides the events, and its outputs. */
struct merge {
	struct uside t;		/* tree records */
	struct uside n;		/* GPU-event counts */
	struct uside w;		/* forward links */
	struct uside g;		/* launched events */
	struct fetch ft;	/* the events again, for cpu_op inputs */
	int inp[4];		/* columns of the four Input fields */
	FILE *ops;		/* ops.tsv */
	FILE *dropped;		/* dropped_ops.tsv: cpu_ops out of the tree */
	FILE *gpu;		/* gpu.tsv */
	FILE *fwd;		/* -a: fwd TAB UID of each linked op, or NULL */
	struct buf row;		/* the record being built */
	long long unlinked;	/* gpu_events_unlinked */
	int work;		/* some GPU event is a kernel or linked */
};

/* An ops.tsv record: the event's own fields and its place in the tree. */
static void
ops_row(struct merge *m, FILE *out, struct lazy *z, const struct evcols *c,
    long long uid, const char *parent, const char *depth, long long ngpu,
    int cpuroot, const char *root)
{
	int cols[] = { c->uid, c->cat, c->name, c->pid, c->tid, c->ts, c->dur,
	    -1, -1, c->ext, c->seq, c->dims, c->types, c->strides,
	    c->concrete };
	struct buf *b = &m->row;
	size_t i, j, len;
	const char *s;

	for (i = 0; i < LEN(cols); i = j) {
		if (cols[i] < 0) {
			buf_adds(b, i == 7 ? parent : depth);
			buf_tab(b);
			j = i + 1;
			continue;
		}
		/* a run of adjacent columns (cat to dur, the inputs) is
		 * one copy: the line's TABs between them are the record's */
		for (j = i + 1; j < LEN(cols) && cols[j - 1] >= 0 &&
		    cols[j] == cols[j - 1] + 1; j++)
			;
		s = lazy_get(z, cols[i], &len);
		if (j > i + 1) {
			const char *e = lazy_get(z, cols[j - 1], &len);

			if ((size_t)cols[j - 1] < z->nf) {
				buf_add(b, s, (size_t)(e + len - s));
				buf_tab(b);
				continue;
			}
			/* (a short line: the fields past its end are empty) */
			j = i + 1;
			s = lazy_get(z, cols[i], &len);
		}
		buf_add(b, s, len);
		buf_tab(b);
	}
	buf_num(b, ngpu);
	buf_tab(b);
	if (m->w.uid == uid) {
		buf_add(b, m->w.r.f[1].s, m->w.r.f[1].len);
		if (m->fwd != NULL && m->w.r.f[1].len > 0) {
			fwrite(m->w.r.f[1].s, 1, m->w.r.f[1].len, m->fwd);
			fprintf(m->fwd, "\t%lld\n", uid);
		}
	}
	buf_tab(b);
	buf_addc(b, cpuroot ? '1' : '0');
	buf_tab(b);
	buf_adds(b, root);
	buf_emit(out, b);
}

static void
gpu_row(struct merge *m, struct lazy *z, const struct evcols *c, int linked)
{
	int cols[] = { c->uid, c->cat, c->name, c->pid, c->tid, c->stream,
	    c->ts, c->dur, c->corr };
	struct buf *b = &m->row;
	const struct rec_reader *g = &m->g.r;
	size_t i;

	for (i = 0; i < LEN(cols); i++) {
		lazy_put(b, z, cols[i]);
		buf_tab(b);
	}
	if (!linked) {
		buf_adds(b, "0\t\t\t\t\t\t\t\t\t\t\t");
		buf_emit(m->gpu, b);
		m->unlinked++;
		return;
	}
	/* runtime, its name, launcher, its name, cpu_op, its name */
	buf_addc(b, '1');
	for (i = 1; i < 7; i++) {
		buf_tab(b);
		buf_add(b, g->f[i].s, g->f[i].len);
	}
	if (g->f[7].len > 0)
		fetch_line(&m->ft, atoid(g->f[7].s),
		    atoid(g->f[5].s));
	for (i = 0; i < LEN(m->inp); i++) {
		buf_tab(b);
		if (g->f[7].len > 0 && (size_t)m->inp[i] < m->ft.nf)
			buf_add(b, m->ft.f[m->inp[i]].s, m->ft.f[m->inp[i]].len);
	}
	buf_tab(b);
	buf_add(b, g->f[9].s, g->f[9].len);
	buf_emit(m->gpu, b);
}

/*
 * nogpu: the GPU events are gpu mode's; the forward links of any (a
 * kernel's name and sequence number may look like a backward node's)
 * are skipped here, as merge takes them without a row.
 */
static void
merge_event(struct merge *m, struct lazy *z, const struct evcols *c,
    int nogpu)
{
	long long uid = lazy_uid(z, c->uid), ngpu = 0;
	size_t catl;
	const char *cat = lazy_get(z, c->cat, &catl);
	int gpu;

	gpu = gpucat(cat, catl);
	if (uside_at(&m->n, uid)) {
		ngpu = atoid(m->n.r.f[1].s);
		uside_next(&m->n);
	}
	if (nogpu)
		uside_seek(&m->w, uid);
	uside_at(&m->w, uid);
	if (uside_at(&m->t, uid)) {
		/* dropped runtime events stay only as launches of GPU work */
		if (m->t.r.f[1].s[0] == 'x')
			ops_row(m, m->dropped, z, c, uid, "", "0", 0, 0, "");
		else if (m->t.r.f[1].s[0] == 'p' || ngpu > 0)
			ops_row(m, m->ops, z, c, uid, m->t.r.f[2].s,
			    m->t.r.f[3].s, ngpu, m->t.r.f[4].s[0] == '1',
			    m->t.r.f[5].s);
		uside_next(&m->t);
	} else if (ngpu > 0) {
		tl_die("%s: line %zu: UID %lld has GPU events but no tree record",
		    m->n.r.name, m->n.r.lineno, uid);
	} else if (!gpu && uside_at(&m->g, uid)) {
		/* a flow target that is no GPU event: a leaf under its launch */
		ops_row(m, m->ops, z, c, uid, m->g.r.f[1].s, m->g.r.f[8].s, 0,
		    0, m->g.r.f[9].s);
		uside_next(&m->g);
	}
	if (uside_at(&m->w, uid))
		uside_next(&m->w);
	if (gpu) {
		int linked = uside_at(&m->g, uid);

		gpu_row(m, z, c, linked);
		if (linked)
			uside_next(&m->g);
	}
}

/* The columns of gpu.tsv. */
static const char gpuhdr[] = "UID\tcat\tname\tpid\ttid\tstream\tts\tdur\t"
    "correlation\tlinked\truntime\truntime_name\tlauncher\tlauncher_name\t"
    "cpu_op\tcpu_op_name\tInput Dims\tInput type\tInput Strides\t"
    "Concrete Inputs\troot\n";

/* One input of merge: events in UID order. */
struct mergein {
	struct rec_reader r;	/* the header */
	struct lazy z;		/* the lines */
	struct evcols c;	/* its columns */
	FILE *fp;		/* the file, owned */
	long long uid;		/* UID of the current line; -1 at the end */
};

static void
mergein_next(struct mergein *mi, int skipgpu)
{
	size_t catl;
	const char *cat;

	for (;;) {
		if (!lazy_read(&mi->z)) {
			mi->uid = -1;
			return;
		}
		if (!skipgpu)
			break;
		cat = lazy_get(&mi->z, mi->c.cat, &catl);
		if (!gpucat(cat, catl))
			break;
	}
	mi->uid = lazy_uid(&mi->z, mi->c.uid);
}

static void
mergein_open(struct mergein *mi, const char *path, char *buf, int skipgpu)
{
	memset(mi, 0, sizeof(*mi));
	mi->fp = io_open(path, "r", buf);
	rec_open(&mi->r, mi->fp, io_name(path));
	rec_read_header(&mi->r);
	evcols(&mi->r, &mi->c);
	mi->z.fp = mi->fp;
	mi->z.name = mi->r.name;
	mi->z.lineno = mi->r.lineno;
	mergein_next(mi, skipgpu);
}

static void
mergein_close(struct mergein *mi)
{
	free(mi->z.line);
	free(mi->z.f);
	rec_close(&mi->r);
	if (mi->fp != stdin)
		fclose(mi->fp);
}

/*
 * The events (with -G, all but the GPU events, which come from the
 * GPU events file: the two are merged by UID), each with its records
 * of the tree, link and fwd passes -> ops.tsv and gpu.tsv.
 */
int
merge(const struct opts *opt, const char *path)
{
	static char iob[8][TL_IOBUF];	/* stdio's: n t w g, events, ops, gpu, -G */
	static const char ophdr[] = "UID\tcat\tname\tpid\ttid\tts\tdur\t"
	    "parent\tdepth\tExternal id\tSequence number\tInput Dims\t"
	    "Input type\tInput Strides\tConcrete Inputs\tngpu\tfwd\t"
	    "cpu_root\troot\n";
	struct mergein ev, gv, *x;
	struct merge m;
	int status, skipgpu = opt->gvpath != NULL || opt->nogpu;

	memset(&m, 0, sizeof(m));
	/* first: the counts may come through a fifo that waits for us */
	uside_open(&m.n, opt->npath, 2, 0, iob[0]);
	mergein_open(&ev, path, iob[4], skipgpu);
	memset(&gv, 0, sizeof(gv));
	gv.uid = -1;
	if (opt->gvpath && !opt->nogpu)
		mergein_open(&gv, opt->gvpath, iob[7], 0);
	uside_open(&m.t, opt->tpath, 6, 1, iob[1]);
	uside_open(&m.w, opt->wpath, 2, 1, iob[2]);
	uside_open(&m.g, opt->gpath, 10, 1, iob[3]);
	fetch_open(&m.ft, path);
	m.inp[0] = rec_need(&m.ft.hdr, "Input Dims");
	m.inp[1] = rec_need(&m.ft.hdr, "Input type");
	m.inp[2] = rec_need(&m.ft.hdr, "Input Strides");
	m.inp[3] = rec_need(&m.ft.hdr, "Concrete Inputs");
	m.ops = io_create(opt->dir, "ops.tsv", iob[5]);
	if (!opt->nogpu)
		m.gpu = io_create(opt->dir, "gpu.tsv", iob[6]);
	/* (few or none: stdio's own buffer) */
	m.dropped = io_create(opt->dir, "dropped_ops.tsv", NULL);
	if (opt->apath)
		m.fwd = io_open(opt->apath, "w", NULL);
	fputs(ophdr, m.ops);
	fputs(ophdr, m.dropped);
	if (m.gpu)
		fputs(gpuhdr, m.gpu);
	/* (in trace order, as split checked: a side record out of place dies) */
	while (ev.uid >= 0 || gv.uid >= 0) {
		x = gv.uid < 0 || (ev.uid >= 0 && ev.uid < gv.uid) ? &ev : &gv;
		merge_event(&m, &x->z, &x->c, opt->nogpu);
		mergein_next(x, x == &ev && skipgpu);
	}
	uside_close(&m.t);
	uside_close(&m.n);
	uside_close(&m.w);
	uside_close(&m.g);
	fetch_close(&m.ft);
	status = tl_fshut(m.ops, "ops.tsv");
	if (m.gpu)
		status |= tl_fshut(m.gpu, "gpu.tsv");
	status |= tl_fshut(m.dropped, "dropped_ops.tsv");
	if (m.fwd)
		status |= tl_fshut(m.fwd, opt->apath);
	if (opt->fpath && !opt->nogpu) {
		FILE *ff = io_open(opt->fpath, "w", NULL);

		fact(ff, "gpu_events_unlinked", m.unlinked);
		status |= tl_fshut(ff, opt->fpath);
	}
	buf_free(&m.row);
	mergein_close(&ev);
	if (gv.fp)
		mergein_close(&gv);
	return status;
}

/* The record r as it came (its fields rejoined) to fp. */
static void
pass(struct buf *b, const struct rec_reader *r, FILE *fp)
{
	size_t i;

	for (i = 0; i < r->nf; i++) {
		if (i > 0)
			buf_tab(b);
		buf_add(b, r->f[i].s, r->f[i].len);
	}
	buf_emit(fp, b);
}

/*
 * The GPU events (-G), each with its launched-event record if it has
 * one -> gpu.tsv; the records of the other launched events (flow
 * targets that are no GPU event) go on to the standard output, for
 * merge -N.  path is the launched-event records, sorted by UID.  -o:
 * the fact gpu_work, 1 when some GPU event is a kernel or linked (what
 * tl-report's perf models need).
 */
int
gpumode(const struct opts *opt, const char *path)
{
	static char iob[3][TL_IOBUF];	/* stdio's: records, -G, gpu.tsv */
	struct mergein gv;
	struct merge m;
	int linked, status;

	memset(&m, 0, sizeof(m));
	/* first: the records come once link has ended, when the events'
	 * files are whole */
	uside_open(&m.g, path, 10, 1, iob[0]);
	mergein_open(&gv, opt->gvpath, iob[1], 0);
	fetch_open(&m.ft, opt->epath);
	m.inp[0] = rec_need(&m.ft.hdr, "Input Dims");
	m.inp[1] = rec_need(&m.ft.hdr, "Input type");
	m.inp[2] = rec_need(&m.ft.hdr, "Input Strides");
	m.inp[3] = rec_need(&m.ft.hdr, "Concrete Inputs");
	m.gpu = io_create(opt->dir, "gpu.tsv", iob[2]);
	fputs(gpuhdr, m.gpu);
	while (gv.uid >= 0 || m.g.uid >= 0) {
		if (gv.uid < 0 || (m.g.uid >= 0 && m.g.uid < gv.uid)) {
			pass(&m.row, &m.g.r, stdout);
			uside_next(&m.g);
			continue;
		}
		linked = m.g.uid == gv.uid;
		if (!m.work) {
			size_t catl;
			const char *cat = lazy_get(&gv.z, gv.c.cat, &catl);

			m.work = linked || fld_eq(cat, catl, "kernel");
		}
		gpu_row(&m, &gv.z, &gv.c, linked);
		if (linked)
			uside_next(&m.g);
		mergein_next(&gv, 0);
	}
	uside_close(&m.g);
	fetch_close(&m.ft);
	status = tl_fshut(m.gpu, "gpu.tsv");
	if (opt->fpath) {
		FILE *ff = io_open(opt->fpath, "w", NULL);

		fact(ff, "gpu_events_unlinked", m.unlinked);
		status |= tl_fshut(ff, opt->fpath);
	}
	if (opt->opath) {
		FILE *fo = io_open(opt->opath, "w", NULL);

		fact(fo, "gpu_work", m.work);
		status |= tl_fshut(fo, opt->opath);
	}
	buf_free(&m.row);
	mergein_close(&gv);
	return status;
}
