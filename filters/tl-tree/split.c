/* See LICENSE file for copyright and license details. */
/*
 * tl-tree -m split: the events, in trace order, split into the records
 * of the later modes (host, link, sequence and stream records, each
 * led by a key that sorts as bytes), the facts only the whole trace
 * shows, and the copies of the lines later passes read by offset.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"
#include "tree.h"

static int
prefix(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && memcmp(s, lit, n) == 0;
}

/* ASCII case-insensitive substring test, as re.IGNORECASE finds it. */
static int
hascase(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit), i, j;

	for (i = 0; i + n <= len; i++) {
		for (j = 0; j < n; j++) {
			if (lower(s[i + j]) != lit[j])
				break;
		}
		if (j == n)
			return 1;
	}
	return 0;
}

/* Substring test, bytes as they are. */
static int
hassub(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit), i;

	for (i = 0; i + n <= len; i++)
		if (s[i] == lit[0] && memcmp(s + i, lit, n) == 0)
			return 1;
	return 0;
}

/* The number of fields of the current line, split or not. */
static size_t
lazy_width(const struct lazy *z)
{
	const char *p = z->rest;
	size_t n = z->nf;

	if (p == NULL)
		return n;
	/* (a loop the compiler vectorises: a memchr call per field was a
	 * fifth of split's time) */
	for (n++; p < z->end; p++)
		n += *p == '\t';
	return n;
}

static void
lazy_key(struct buf *b, struct lazy *z, int col)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);

	key_text(b, s, len);
}

static int
ztime(int exact, struct lazy *z, int col, struct ttv *t)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);

	return tparse(exact, s, len, t);
}

/* A time field as exact ns, or as its double rounded to ns. */
static int
zns(struct lazy *z, int col, int64_t *ns)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);
	double d;

	if (num_us_to_ns(s, len, ns) == 0)
		return 0;
	if (num_double(s, len, &d) < 0 || !(fabs(d) < 9e15))
		return -1;
	*ns = (int64_t)llround(d * 1000);
	return 0;
}

/* One (pid, tid), numbered by split's table of threads: its last ts. */
struct thr {
	int64_t last;	/* ts of the thread's latest complete event, ns */
	int seen;	/* last is set */
};

/* Split's outputs and counters. */
struct split {
	const struct opts *opt;	/* the options */
	FILE *h;		/* host records */
	FILE *l;		/* link records */
	FILE *q;		/* sequence records */
	FILE *o;		/* GPU stream records */
	FILE *m;		/* meta.tsv */
	FILE *sel;		/* -s: the events coll_analysis and annotations read */
	FILE *pend;		/* link records before the key is known */
	int key;		/* -1 undecided, 0 correlation, 1 External id */
	long long outoforder;	/* events_out_of_time_order */
	long long zerodur;	/* gpu_events_zero_duration */
	long long ac2g;		/* ac2g flow events */
	long long legacy;	/* async_cpu_to_gpu / async flow events */
	long long noid;		/* flow events without an id */
	long long lone;		/* lone surrogates read as U+FFFD (tl-parse) */
	struct strtab thrs;	/* threads: grouping keys of pid and tid */
	struct thr *thr;	/* each thread's last ts, by its number */
	size_t thrcap;		/* threads allocated in thr */
	struct buf line;	/* record being built */
};

/* A link record of an event that carries linking id id (see split_link). */
static void
link_rec(struct split *sp, char role, const char *id, size_t idlen,
    const char *const *f, const size_t *fl, int nf)
{
	struct buf *b = &sp->line;
	long long uid = atoid(f[0]);
	int i;

	key_text(b, id, idlen);
	buf_addc(b, role);
	key_uid(b, uid);
	for (i = 0; i < nf; i++) {
		buf_tab(b);
		buf_add(b, f[i], fl[i]);
	}
	buf_emit(sp->l, b);
}

static void
decide(struct split *sp, int key)
{
	struct rec_reader r;
	const char *f[8];
	size_t fl[8];
	int i;

	sp->key = key;
	if (sp->pend == NULL)
		return;
	if (fflush(sp->pend) == EOF || fseek(sp->pend, 0, SEEK_SET) < 0)
		tl_die("temporary file:");
	rec_open(&r, sp->pend, "temporary file");
	/* pending: role corr ext UID pid tid [ts dur cat stream name] */
	while (rec_read(&r)) {
		size_t idlen;
		const char *id = rec_get(&r, 1 + key, &idlen);

		if (missing(id, idlen))
			continue;
		for (i = 0; i + 3 < (int)r.nf; i++) {
			f[i] = r.f[i + 3].s;
			fl[i] = r.f[i + 3].len;
		}
		link_rec(sp, r.f[0].s[0], id, idlen, f, fl, i);
	}
	rec_close(&r);
	fclose(sp->pend);
	sp->pend = NULL;
}

/*
 * An event, other than a runtime event or a flow, that carries a
 * linking id: TraceLens may hang it under a launch when a flow ends at
 * its (pid, tid).  Before the key is known it waits in the pending file
 * with both ids.  Fields: UID pid tid, and for R_GPU and R_OTHER also
 * ts, the communication flag and the line's offset.  1 when the event
 * has an id (a later pass may read its line).
 */
static int
split_link(struct split *sp, struct lazy *r,
    const struct evcols *c, char role, long long ref)
{
	struct buf *b = &sp->line;
	size_t cl, el, fl[6];
	const char *cs = lazy_get(r, c->corr, &cl);
	const char *es = lazy_get(r, c->ext, &el);
	const char *f[6];
	char refs[24];
	int i, nf;

	if (missing(cs, cl) && missing(es, el))
		return 0;
	f[0] = lazy_get(r, c->uid, &fl[0]);
	f[1] = lazy_get(r, c->pid, &fl[1]);
	f[2] = lazy_get(r, c->tid, &fl[2]);
	nf = 3;
	if (role != R_HOST) {
		f[3] = lazy_get(r, c->ts, &fl[3]);
		f[4] = lazy_get(r, c->name, &fl[4]);
		f[4] = tl_iscomm(f[4], fl[4]) ? "1" : "0";
		fl[4] = 1;
		fl[5] = (size_t)snprintf(refs, sizeof(refs), "%lld", ref);
		f[5] = refs;
		nf = 6;
	}
	if (sp->key < 0) {
		if (sp->pend == NULL && (sp->pend = tmpfile()) == NULL)
			tl_die("temporary file:");
		buf_addc(b, role);
		buf_tab(b), buf_add(b, cs, cl);
		buf_tab(b), buf_add(b, es, el);
		for (i = 0; i < nf; i++)
			buf_tab(b), buf_add(b, f[i], fl[i]);
		buf_emit(sp->pend, b);
	} else if (sp->key == 0 && !missing(cs, cl)) {
		link_rec(sp, role, cs, cl, f, fl, nf);
	} else if (sp->key == 1 && !missing(es, el)) {
		link_rec(sp, role, es, el, f, fl, nf);
	}
	return 1;
}

/*
 * Split one event into the records of the later passes; ref is the
 * offset of its line.  1 when a later pass may read the line (merge,
 * a fetch, tl-report's test for a CPU-only trace): host events, GPU
 * events, events with a linking id, autograd's backward nodes (merge
 * gives them their forward op) and the python_func category.
 */
static int
split_event(struct split *sp, struct lazy *r, const struct evcols *c,
    long long ref)
{
	struct buf *b = &sp->line;
	size_t catl, phl, namel, len;
	const char *cat = lazy_get(r, c->cat, &catl);
	const char *ph = lazy_get(r, c->ph, &phl);
	const char *name = lazy_get(r, c->name, &namel);
	long long uid = lazy_uid(r, c->uid);
	int host = 0, runtime = 0, gpu = 0, flow = 0, isx, keep, krec = 0;
	char hc = 0;
	struct ttv ts = {0, 0}, tdur;
	int64_t nts = 0, ndur = 0;
	int hasts, hasdur;
	struct thr *t = NULL;
	long ti = 0;

	if (fld_eq(cat, catl, "cpu_op"))
		host = 1, hc = 'o';
	else if (fld_eq(cat, catl, "cuda_runtime"))
		host = runtime = 1, hc = 'r';
	else if (fld_eq(cat, catl, "cuda_driver"))
		host = runtime = 1, hc = 'v';
	else if (fld_eq(cat, catl, "python_function")) {
		host = sp->opt->python, hc = 'p';
		/*
		 * -k: the python functions go to host, outside the tree: a
		 * recompute root (k) marks what it holds, and each is a frame
		 * of the launches' call stacks (q, the others)
		 */
		if (!host && sp->opt->recompute)
			krec = 1, hc = isrecompute(name, namel) ? 'k' : 'q';
	}
	else if (gpucat(cat, catl))
		gpu = 1;
	else if (fld_eq(ph, phl, "s") || fld_eq(ph, phl, "f")) {
		if (fld_eq(cat, catl, "ac2g"))
			flow = 1;
		else if (fld_eq(cat, catl, "async_cpu_to_gpu") ||
		    fld_eq(cat, catl, "async"))
			flow = 2;
	}
	/* health facts use exact ns; only host keys need the chosen time */
	hasts = zns(r, c->ts, &nts) == 0;
	hasdur = zns(r, c->dur, &ndur) == 0;
	isx = fld_eq(ph, phl, "X");

	if (fld_eq(ph, phl, "M")) {
		lazy_put(b, r, c->pid), buf_tab(b), lazy_put(b, r, c->tid), buf_tab(b);
		lazy_put(b, r, c->name), buf_tab(b), lazy_put(b, r, c->value);
		buf_emit(sp->m, b);
	}

	if ((isx && hasts) || host || krec) {
		lazy_key(b, r, c->pid);
		lazy_key(b, r, c->tid);
		ti = strtab_get(&sp->thrs, b->s, b->len);
		if ((size_t)ti == sp->thrcap) {
			tl_grow((void **)&sp->thr, &sp->thrcap, (size_t)ti + 1,
			    sizeof(*sp->thr));
			memset(sp->thr + ti, 0,
			    (sp->thrcap - (size_t)ti) * sizeof(*sp->thr));
		}
		t = &sp->thr[ti];
		buf_reset(b);
	}
	/* events_out_of_time_order: complete events, per thread, in trace order */
	if (isx && hasts) {
		if (t->seen && nts < t->last)
			sp->outoforder++;
		t->last = nts;
		t->seen = 1;
	}

	if (sp->key < 0 && runtime && hascase(name, namel, "launch")) {
		/* TraceLens: correlation if the first launch carries it */
		lazy_get(r, c->corr, &len);
		decide(sp, len == 0);
	}

	if (host || krec) {
		/*
		 * (the host pass adds ts and dur as TraceLens does, in
		 * doubles: a dur past int64 ns, such as the 18446744073709551
		 * of an end before its start in unsigned arithmetic, is
		 * TraceLens's too; only the exact ns of -x cannot hold it)
		 */
		if (ztime(sp->opt->exact, r, c->dur, &tdur) < 0 ||
		    ztime(sp->opt->exact, r, c->ts, &ts) < 0)
			tl_die("%s: line %zu (UID %lld): %s event without a "
			    "valid ts and dur", r->name, r->lineno, uid,
			    hc == 'o' ? "cpu_op" : hc == 'p' || hc == 'k' || hc == 'q' ?
			    "python_function" : "runtime");
		/* a thread's number groups its events in fewer bytes */
		buf_num(b, ti);
		buf_addc(b, '.');
		key_time(sp->opt->exact, b, &ts);
		key_uid(b, uid);
		buf_tab(b), buf_addc(b, hc);
		buf_tab(b), lazy_put(b, r, c->name);
		buf_tab(b), lazy_put(b, r, c->dur);
		buf_tab(b);
		if (hc == 'o')
			buf_num(b, ref);
		/* (the others end here: four bytes less a record for the
		 * sort, which then holds a 50 MB trace's in its buffer) */
		if (runtime) {
			buf_tab(b), lazy_put(b, r, c->corr);
			buf_tab(b), lazy_put(b, r, c->ext);
			buf_tab(b), lazy_put(b, r, c->pid);
			buf_tab(b), lazy_put(b, r, c->tid);
		}
		buf_emit(sp->h, b);
	}

	if (gpu) {
		size_t sl;
		const char *st = lazy_get(r, c->stream, &sl);

		if (hasdur && ndur == 0)
			sp->zerodur++;
		if (hasts) {
			lazy_key(b, r, c->pid);
			if (sl == 0)
				st = lazy_get(r, c->tid, &sl);
			key_text(b, st, sl);
			buf_hex(b, (uint64_t)nts ^ 0x8000000000000000ULL, TIMEW);
			key_uid(b, uid);
			buf_tab(b), buf_num(b, nts);
			buf_tab(b), buf_num(b, nts + (hasdur ? ndur : 0));
			buf_emit(sp->o, b);
		}
	}

	if (flow) {
		const char *id = lazy_get(r, c->id, &len);

		if (flow == 1)
			sp->ac2g++;
		else
			sp->legacy++;
		if (len == 0) {
			sp->noid++;
		} else {
			key_text(b, id, len);
			buf_addc(b, ph[0] == 's' ? 'a' : 'b');
			key_uid(b, uid);
			buf_tab(b), lazy_put(b, r, c->uid);
			buf_tab(b), lazy_put(b, r, c->pid);
			buf_tab(b), lazy_put(b, r, c->tid);
			buf_tab(b), buf_addc(b, flow == 2 ? '1' : '0');
			buf_emit(sp->l, b);
		}
	}

	keep = host || runtime || gpu || fld_eq(cat, catl, "python_func");
	if (!runtime && !fld_eq(cat, catl, "ac2g"))
		keep |= split_link(sp, r, c, gpu ? R_GPU : host ? R_HOST :
		    R_OTHER, ref);
	/* Sequence numbers: every event but ac2g flows, as TraceLens indexes */
	if (!fld_eq(cat, catl, "ac2g")) {
		const char *s = lazy_get(r, c->seq, &len);

		if (!missing(s, len)) {
			int bwd = prefix(name, namel,
			    "autograd::engine::evaluate_function:");

			keep |= bwd;
			key_text(b, s, len);
			buf_addc(b, bwd ? '0' : '1');
			key_uid(b, uid);
			buf_tab(b), lazy_put(b, r, c->uid);
			buf_tab(b), lazy_put(b, r, c->pid);
			buf_tab(b), lazy_put(b, r, c->tid);
			buf_tab(b), lazy_put(b, r, c->ts);
			buf_emit(sp->q, b);
		}
	}
	return keep;
}

/* Write the line of len bytes at s, its newline (not in s) included. */
static void
putline(FILE *fp, const char *s, size_t len)
{
	fwrite(s, 1, len - 1, fp);
	putc('\n', fp);
}

int
split(const struct opts *opt, const char *path)
{
	struct rec_reader r;
	struct lazy z;
	struct evcols c;
	struct split sp;
	static char iob[6][TL_IOBUF];	/* stdio's: in, copy, l, q, o, gev */
	const char *cat, *name;
	size_t catl, namel;
	FILE *in = io_bigbuf(tl_fopen(path, "r"), iob[0], 0), *facts, *tf;
	FILE *copy = NULL;
	FILE *gev = NULL;
	long long prev = -1, uid, ref, gref = 0;
	struct buf last = {0};	/* the last line, when the copy left it out */
	struct buf lastf = {0};	/* the first field of the last line */
	int st = 0, keep, lone, cpuops = 0;
	size_t len;

	memset(&sp, 0, sizeof(sp));
	memset(&z, 0, sizeof(z));
	sp.opt = opt;
	sp.key = -1;
	rec_open(&r, in, io_name(path));
	rec_read_header(&r);
	evcols(&r, &c);
	lone = rec_col(&r, "lone surrogates");
	/*
	 * Later passes fetch lines by their offset: a file, not a pipe.
	 * -e: the events come through a pipe, and the file is our copy,
	 * of the lines a later pass reads (see split_event; with -G, no
	 * GPU events), and the last line, whose UID is the trace's last.
	 */
	if (opt->epath) {
		copy = io_open(opt->epath, "w", iob[1]);
		rec_write(copy, (const char *const *)r.hdr, r.nhdr);
		if ((ref = ftello(copy)) < 0)
			tl_die("%s:", opt->epath);
	} else if ((ref = ftello(in)) < 0)
		tl_die("%s: not a regular file:", r.name);
	/*
	 * -G: the GPU events apart, for the passes that read their names
	 * long after the events are gone; their offsets are in this file.
	 */
	if (opt->gvpath) {
		gev = io_open(opt->gvpath, "w", iob[5]);
		rec_write(gev, (const char *const *)r.hdr, r.nhdr);
		if ((gref = ftello(gev)) < 0)
			tl_die("%s:", opt->gvpath);
	}
	sp.h = stdout;
	sp.l = io_create(opt->dir, "l", iob[2]);
	/* (-q, -O: the stage gives the fifos it opened, /dev/fd/N) */
	sp.q = opt->qpath ? io_open(opt->qpath, "w", iob[3]) :
	    io_create(opt->dir, "q", iob[3]);
	sp.o = opt->Opath ? io_open(opt->Opath, "w", iob[4]) :
	    io_create(opt->dir, "o", iob[4]);
	sp.m = opt->Mpath ? io_open(opt->Mpath, "w", NULL) :
	    io_create(opt->dir, "meta.tsv", NULL);
	fputs("pid\ttid\tname\tvalue\n", sp.m);
	if (opt->spath) {
		sp.sel = io_open(opt->spath, "w", NULL);
		rec_write(sp.sel, (const char *const *)r.hdr, r.nhdr);
	}
	z.fp = in;
	z.name = r.name;
	z.lineno = r.lineno;
	buf_adds(&lastf, r.hdr[0]);
	while (lazy_read(&z)) {
		len = (size_t)(z.end - z.line) + 1;
		uid = lazy_uid(&z, c.uid);
		if (uid <= prev)
			tl_die("%s: line %zu: UID %lld after %lld: events not in "
			    "trace order", z.name, z.lineno, uid, prev);
		prev = uid;
		cat = lazy_get(&z, c.cat, &catl);
		/* (tree.facts: what tl-report read of the events by grep
		 * and tail) */
		cpuops |= fld_eq(cat, catl, "cpu_op") ||
		    fld_eq(cat, catl, "python_func");
		buf_reset(&lastf);
		lazy_put(&lastf, &z, 0);
		if (gev && gpucat(cat, catl)) {
			putline(gev, z.line, len);
			split_event(&sp, &z, &c, gref);
			gref += (long long)len;
			keep = 0;
		} else {
			keep = split_event(&sp, &z, &c, ref);
		}
		if (!copy) {
			ref += (long long)len;
		} else if (keep) {
			putline(copy, z.line, len);
			ref += (long long)len;
			last.len = 0;
		} else {
			buf_reset(&last);
			buf_add(&last, z.line, len);
		}
		/* -s: communication kernels, and events of an annotation cat */
		if (sp.sel) {
			name = lazy_get(&z, c.name, &namel);
			if ((fld_eq(cat, catl, "kernel") && tl_iscomm(name, namel)) ||
			    hassub(cat, catl, "user_annotation")) {
				putline(sp.sel, z.line, len);
			}
		}
		if (lazy_width(&z) != r.nhdr)
			tl_die("%s: line %zu: %zu fields, header has %zu", z.name,
			    z.lineno, lazy_width(&z), r.nhdr);
		/* (tl-parse's last field: empty, but in a broken string) */
		if (lone >= 0 && (lone + 1 != (int)r.nhdr || z.end[-1] != '\t'))
			sp.lone += atoid(lazy_get(&z, lone, &len));
	}
	if (last.len > 0)
		putline(copy, last.s, last.len);
	buf_free(&last);
	if (sp.key < 0)
		decide(&sp, 1);
	/*
	 * Control records (empty key: they sort first) tell the later
	 * passes what only the whole trace shows: the linking key, and
	 * whether the older flow categories stand in for ac2g.
	 */
	fprintf(sp.h, "\tlinking_key\t%s\n", sp.key ? "External id" :
	    "correlation");
	/* (TraceLens follows ac2g flows alone: so does tl, unless -L) */
	fprintf(sp.l, "\tlegacy_flows\t%d\n", opt->legacy && sp.ac2g == 0);
	facts = io_create(opt->dir, "facts", NULL);
	fact(facts, "gpu_events_zero_duration", sp.zerodur);
	fact(facts, "events_out_of_time_order", sp.outoforder);
	fprintf(facts, "linking_key\t%s\n", sp.key ? "External id" :
	    "correlation");
	fact(facts, "flows_ac2g", sp.ac2g);
	fact(facts, "flows_legacy", sp.legacy);
	/*
	 * Where TraceLens is wrong: the older flows that would link
	 * kernels it leaves unlinked, left unread as it leaves them, or
	 * with -L followed.
	 */
	if (opt->legacy)
		fact(facts, "flows_legacy_followed",
		    sp.ac2g == 0 ? sp.legacy : 0);
	else
		fact(facts, "flows_legacy_ignored",
		    sp.ac2g == 0 ? sp.legacy : 0);
	fact(facts, "flows_without_id", sp.noid);
	fact(facts, "lone_surrogates", sp.lone);
	/* the trace's facts for tl-report: some cpu_op or python_func
	 * event, and the first field of the last line (the header's
	 * without events) */
	tf = io_create(opt->dir, "tree.facts", NULL);
	fact(tf, "cpu_ops", cpuops);
	fprintf(tf, "last_uid\t%s\n", lastf.s);
	st |= tl_fshut(tf, "tree.facts");
	buf_free(&lastf);
	/* the copy first: every later pass reads it; the host records
	 * last: their reader's end must find l whole */
	if (copy)
		st |= tl_fshut(copy, opt->epath);
	if (gev)
		st |= tl_fshut(gev, opt->gvpath);
	st |= tl_fshut(facts, "facts");
	st |= tl_fshut(sp.l, "l");
	st |= tl_fshut(sp.q, "q");
	st |= tl_fshut(sp.o, "o");
	st |= tl_fshut(sp.m, "meta.tsv");
	if (sp.sel)
		st |= tl_fshut(sp.sel, opt->spath);
	st |= tl_fshut(sp.h, "<stdout>");
	strtab_free(&sp.thrs);
	free(sp.thr);
	buf_free(&sp.line);
	free(z.line);
	free(z.f);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return st;
}
