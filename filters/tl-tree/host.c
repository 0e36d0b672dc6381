/* See LICENSE file for copyright and license details. */
/*
 * tl-tree -m host: the host records by (thread, ts, UID), one stack per
 * thread -> the tree records; per runtime event, its launcher, nearest
 * cpu_op, depth, root and pre-order number; and with -r, the walk's
 * range records: each event of the tree numbered in pre-order (the
 * order this pass meets them), with the number of its last descendant,
 * so that a subtree is a range of numbers (walk.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"
#include "tree.h"

/* Host record fields after the key (runtime: corr..tid; cpu_op: ref). */
enum { H_CAT = 1, H_NAME, H_DUR, H_REF, H_CORR, H_EXT, H_PID, H_TID, H_NF };

/* One open host event on a thread's stack. */
struct frame {
	long long uid;	/* its UID */
	char cat;	/* o cpu_op, r cuda_runtime, v cuda_driver, p python */
	struct ttv end;	/* ts + dur */
	struct buf name;	/* escaped name, reused across pushes */
	long long ref;	/* cpu_op: offset of its line in the events */
	long long pre;	/* its pre-order number */
	long co;	/* index of the nearest cpu_op at or below it, or -1 */
	long la;	/* of the launcher a runtime event above it gets, or -1 */
	int launches;	/* a runtime event with a linking id is it or below it */
};

/*
 * -S: one open event of a thread's stack in TraceLens's tree with the
 * python functions (python functions, cpu_ops, runtime events), as
 * --detect_recompute builds it: the frames of its call stacks.
 */
struct cframe {
	struct ttv end;	/* ts + dur */
	size_t clen;	/* the length of the chain with it */
};

/*
 * Pre-order numbers: those of the tree's events count from 0, in the
 * order host meets them; a parentless runtime event (its own root, left
 * out of the stacks) numbers from DETACHED, so that its range sorts
 * after every other and never falls inside another's.
 */
#define DETACHED (1LL << 60)

/* -r: the range record of an event of the tree, once its subtree ends. */
static void
range(FILE *rf, struct buf *b, long long pre, long long uid, long long last)
{
	if (rf == NULL)
		return;
	key_pre(b, pre, 'a');
	buf_tab(b), buf_num(b, uid);
	buf_tab(b), buf_num(b, last);
	buf_emit(rf, b);
}

/* The time in a host key: the 16 digits before the UID. */
static void
key_ts(int exact, const struct rec_reader *r, struct ttv *t)
{
	uint64_t u = key_hexat(r->f[0].s + r->f[0].len - UIDW - TIMEW, TIMEW);
	double d;

	if (exact) {
		t->ns = (int64_t)(u ^ 0x8000000000000000ULL);
	} else {
		u = u >> 63 ? u ^ 0x8000000000000000ULL : ~u;
		memcpy(&d, &u, sizeof(d));
		t->us = d;
	}
}

/* The UID at the end of a key. */
static long long
key_uidval(const struct rec_reader *r)
{
	return key_uidat(r->f[0].s + r->f[0].len - UIDW);
}

static struct ttv
tadd(struct ttv a, struct ttv b)
{
	a.us += b.us;
	a.ns += b.ns;
	return a;
}

/* TraceLens's bleed tolerance: (end - ts) < 1 us. */
static int
tnear(int exact, const struct ttv *end, const struct ttv *ts)
{
	if (exact)
		return end->ns - ts->ns < 1000;
	return end->us - ts->us < 1.0;
}

static void
host_runtime(FILE *out, struct buf *b, const struct rec_reader *r,
    long long uid, long long pre, const struct frame *st, size_t n,
    const char *id, size_t idlen)
{
	const struct frame *la = NULL, *co = NULL;

	/* (each frame knows both, in O(1): a chain of N makes no N^2) */
	if (n > 0 && st[n - 1].la >= 0)
		la = &st[st[n - 1].la];
	if (n > 0 && st[n - 1].co >= 0)
		co = &st[st[n - 1].co];
	key_text(b, id, idlen);
	buf_addc(b, 'e');
	key_uid(b, uid);
	buf_tab(b), buf_num(b, uid);
	buf_tab(b), buf_field(b, r, H_PID);
	buf_tab(b), buf_field(b, r, H_TID);
	buf_tab(b), buf_field(b, r, H_NAME);
	buf_tab(b);
	if (la) {
		buf_num(b, la->uid), buf_tab(b);
		buf_add(b, la->name.s, la->name.len);
	} else {
		buf_num(b, uid), buf_tab(b), buf_field(b, r, H_NAME);
	}
	buf_tab(b);
	if (co) {
		buf_num(b, co->uid), buf_tab(b);
		buf_add(b, co->name.s, co->name.len), buf_tab(b);
		buf_num(b, co->ref);
	} else {
		buf_adds(b, "\t\t");	/* cpu_op, its name, its offset */
	}
	buf_tab(b), buf_num(b, (long long)n);
	buf_tab(b), buf_num(b, n > 0 ? st[0].uid : uid);
	buf_tab(b), buf_num(b, pre);
	buf_emit(out, b);
}

/* Pop the top of the stack: its subtree ended at pre-order number last. */
static void
pop(struct frame *st, size_t *n, size_t *ncpu, FILE *rf, struct buf *b,
    long long last)
{
	struct frame *f = &st[--*n];

	if (f->cat == 'o')
		--*ncpu;
	/* (no launch below it, no GPU event: the walk need not know it) */
	if (!f->launches)
		return;
	range(rf, b, f->pre, f->uid, last);
	if (*n > 0)
		st[*n - 1].launches = 1;
}

/*
 * -S: stack the host record r (of category cat, from ts to end) as
 * TraceLens stacks a thread's events with the python functions (pops,
 * a bleed under 1 us, a bleed out of its parent left out of the tree),
 * and for a runtime event with a linking id write UID TAB the JSON
 * list of the names of its call stack, root first, itself last (as
 * csname filters them): the call_stack of each kernel it launches.
 */
static void
callstack(FILE *sf, struct buf *b, const struct rec_reader *r, int exact,
    char cat, long long uid, const struct ttv *ts, const struct ttv *end,
    struct cframe **cs, size_t *n, size_t *cap, struct buf *chain,
    const char *id, size_t idlen)
{
	struct cframe *st = *cs;
	size_t base, from;
	int out = 0;

	while (*n > 0 && tcmp(exact, ts, &st[*n - 1].end) >= 0)
		--*n;
	if (*n > 0 && tcmp(exact, end, &st[*n - 1].end) > 0) {
		if (tnear(exact, &st[*n - 1].end, ts) && *n >= 2)
			--*n;
		else
			out = 1;	/* not in the tree: no parent */
	}
	/* (a frame's chain is a prefix of the buffer: the top's, then its) */
	base = *n > 0 ? st[*n - 1].clen : 0;
	chain->len = base;
	csname(chain, r->f[H_NAME].s, r->f[H_NAME].len, cat == 'o');
	if ((cat == 'r' || cat == 'v') && !missing(id, idlen)) {
		/* (out of the tree, its stack is itself) */
		from = !out ? 0 : base > 0 && chain->len > base ? base + 1 : base;
		buf_num(b, uid);
		buf_tab(b), buf_addc(b, '[');
		rec_bput(b, chain->s + from, chain->len - from);
		buf_addc(b, ']');
		buf_emit(sf, b);
	}
	if (out)
		return;
	if (*n == *cap)
		tl_grow((void **)cs, cap, *n + 1, sizeof(**cs));
	st = *cs;
	st[*n].end = *end;
	st[*n].clen = chain->len;
	++*n;
}

int
host(const struct opts *opt, const char *path)
{
	struct rec_reader r;
	static char iob[3][TL_IOBUF];	/* stdio's, for in, tf and rf */
	FILE *in = io_open(path, "r", iob[0]), *ff;
	FILE *tf = io_open(opt->tpath, "w", iob[1]);
	FILE *rf = opt->rpath ? io_open(opt->rpath, "w", iob[2]) : NULL;
	FILE *kf = opt->kpath ? io_open(opt->kpath, "w", NULL) : NULL;
	struct frame *st = NULL;
	size_t n = 0, cap = 0, ncpu = 0, i, len;
	struct buf prev = {0}, group = {0}, b = {0};
	long long dropped = 0, npre = 0, dpre = DETACHED;
	int status, ext = 0;	/* link on External id, not correlation */
	FILE *sf = opt->Spath ? io_open(opt->Spath, "w", NULL) : NULL;
	struct cframe *cs = NULL;	/* -S: the thread's stack with python */
	size_t ncs = 0, cscap = 0;
	struct buf chain = {0};	/* its frames' names, JSON, comma-separated */
	int kon = 0;	/* a recompute root of this thread began: kend holds */
	struct ttv kend = {0, 0};	/* where the thread's last one ends */

	rec_open(&r, in, io_name(path));
	while (next(&r, &prev, 1)) {
		struct ttv ts = {0, 0}, dur = {0, 0}, end;
		char cat;
		long long uid;
		const char *id;

		if (r.f[0].len == 0) {
			/* split's control record: the linking key */
			want_nf(&r, 3);
			if (strcmp(r.f[1].s, "linking_key") == 0)
				ext = strcmp(r.f[2].s, "External id") == 0;
			continue;
		}
		/* (a runtime event's ids, pid and tid; the others' may be
		 * left out) */
		if (r.nf != H_CORR || r.f[H_CAT].s[0] == 'r' ||
		    r.f[H_CAT].s[0] == 'v')
			want_nf(&r, H_NF);
		if (!samegroup(&group, &r, TIMEW + UIDW)) {
			setgroup(&group, &r, TIMEW + UIDW);
			while (n > 0)
				pop(st, &n, &ncpu, rf, &b, npre - 1);
			kon = 0;
			ncs = 0;
		}
		cat = r.f[H_CAT].s[0];
		uid = key_uidval(&r);
		key_ts(opt->exact, &r, &ts);
		if (tfield(opt->exact, &r, H_DUR, &dur) < 0)
			tl_die("%s: line %zu: bad dur", r.name, r.lineno);
		end = tadd(ts, dur);
		id = rec_get(&r, ext ? H_EXT : H_CORR, &len);
		/*
		 * -K: a recompute root (split's k record, or a python event
		 * of the tree with its name) marks every event nested in its
		 * time, as TraceLens marks its subtree; a k record is not in
		 * the tree itself.
		 */
		if (kf && (cat == 'k' || (cat == 'p' &&
		    isrecompute(r.f[H_NAME].s, r.f[H_NAME].len)))) {
			if (!kon || tcmp(opt->exact, &end, &kend) > 0)
				kend = end;
			kon = 1;
		}
		if (sf)
			callstack(sf, &b, &r, opt->exact, cat, uid, &ts, &end,
			    &cs, &ncs, &cscap, &chain, id, len);
		if (cat == 'k' || cat == 'q')
			continue;

		while (n > 0 && tcmp(opt->exact, &ts, &st[n - 1].end) >= 0)
			pop(st, &n, &ncpu, rf, &b, npre - 1);
		if (n > 0 && tcmp(opt->exact, &end, &st[n - 1].end) > 0) {
			if (tnear(opt->exact, &st[n - 1].end, &ts) && n >= 2) {
				pop(st, &n, &ncpu, rf, &b, npre - 1);
			} else {
				/* bleeds out of its parent: not in the tree */
				dropped++;
				if (cat == 'o') {
					/*
					 * TraceLens's perf sheets still take it:
					 * they pick ops by name among all events
					 */
					key_uid(&b, uid);
					fprintf(tf, "%s\tx\t\t0\t0\t\n", b.s);
					buf_reset(&b);
				}
				if (cat == 'r' || cat == 'v') {
					/* parentless: its own root */
					key_uid(&b, uid);
					fprintf(tf, "%s\td\t\t0\t0\t%lld\n", b.s,
					    uid);
					buf_reset(&b);
					if (!missing(id, len)) {
						host_runtime(stdout, &b, &r, uid,
						    dpre, st, 0, id, len);
						range(rf, &b, dpre, uid, dpre);
						dpre++;
					}
				}
				continue;
			}
		}
		if (kf && kon && tcmp(opt->exact, &ts, &kend) < 0 &&
		    tcmp(opt->exact, &end, &kend) <= 0)
			fprintf(kf, "%lld\n", uid);
		/* (one record per host event: no printf) */
		key_uid(&b, uid);
		buf_adds(&b, "\tp\t");
		if (n > 0)
			buf_num(&b, st[n - 1].uid);
		buf_tab(&b), buf_num(&b, (long long)n);
		buf_tab(&b), buf_addc(&b, cat == 'o' && ncpu == 0 ? '1' : '0');
		buf_tab(&b), buf_num(&b, n > 0 ? st[0].uid : uid);
		buf_emit(tf, &b);
		if ((cat == 'r' || cat == 'v') && !missing(id, len))
			host_runtime(stdout, &b, &r, uid, npre, st, n, id, len);
		if (n == cap) {
			tl_grow((void **)&st, &cap, n + 1, sizeof(*st));
			memset(st + n, 0, (cap - n) * sizeof(*st));
		}
		st[n].uid = uid;
		st[n].cat = cat;
		st[n].end = end;
		buf_reset(&st[n].name);
		buf_add(&st[n].name, r.f[H_NAME].s, r.f[H_NAME].len);
		st[n].ref = cat == 'o' ? atoid(r.f[H_REF].s) : -1;
		st[n].pre = npre++;
		st[n].launches = (cat == 'r' || cat == 'v') && !missing(id, len);
		/* get_kernel_launchers: skip python and 'execute'; else stop */
		if (cat == 'p' || (cat == 'o' && fld_eq(st[n].name.s,
		    st[n].name.len, "execute")))
			st[n].la = n > 0 ? st[n - 1].la : -1;
		else
			st[n].la = cat == 'o' ? (long)n : -1;
		st[n].co = cat == 'o' ? (long)n : n > 0 ? st[n - 1].co : -1;
		if (cat == 'o')
			ncpu++;
		n++;
	}
	while (n > 0)
		pop(st, &n, &ncpu, rf, &b, npre - 1);
	status = tl_fshut(tf, opt->tpath);
	if (rf)
		status |= tl_fshut(rf, opt->rpath);
	if (kf)
		status |= tl_fshut(kf, opt->kpath);
	if (sf)
		status |= tl_fshut(sf, opt->Spath);
	free(cs);
	buf_free(&chain);
	if (opt->fpath) {
		ff = io_open(opt->fpath, "w", NULL);
		fact(ff, "host_events_dropped", dropped);
		status |= tl_fshut(ff, opt->fpath);
	}
	for (i = 0; i < cap; i++)
		buf_free(&st[i].name);
	free(st);
	buf_free(&prev);
	buf_free(&group);
	buf_free(&b);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return status;
}
