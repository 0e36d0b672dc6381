/* See LICENSE file for copyright and license details. */
/*
 * tl-overlap: TraceLens's overlapping GPU events (the sweep of
 * GPUEventAnalyser.get_gpu_event_lists, which --include_overlap_info
 * reports): for each GPU event, the events that run beside it for 1 us
 * or more on another stream (or either without one), in the order
 * TraceLens lists them, the iteration order
 * of its Python set of UIDs.  That order follows from the adds, and
 * from the discards of the set of running events it is filled from,
 * as CPython 3.11's set of ints (hash(i) == i) places them: pyset
 * below.  Memory: the events running at one time and their lists.
 * tl-overlap(1) gives the formats.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

#define LINEAR_PROBES 9	/* CPython's setobject.c */
#define PERTURB_SHIFT 5

static int unlinked;	/* -u: every event, not only the launched ones */

/* What a list names of an event; shared by the lists that hold it. */
struct info {
	int64_t uid;	/* TraceLens's UID */
	char *ts;	/* ts as the trace writes it */
	char *end;	/* ts + dur as Python computes it */
	char *dur;	/* dur as the trace writes it */
	char *stream;	/* args.stream, "" for None */
	char *name;	/* the event's name */
	size_t refs;	/* the event itself and the lists that hold it */
};

/* A slot of a set's table: unused (state 0), active (1) or dummy (2). */
struct slot {
	int64_t key;	/* the UID */
	int state;	/* 0, 1 or 2 */
	void *val;	/* what the key stands for */
};

/* A Python set of non-negative ints, slot for slot. */
struct pyset {
	struct slot *t;	/* mask + 1 slots; NULL while empty and new */
	size_t mask;	/* table size - 1 */
	size_t fill;	/* active and dummy slots */
	size_t used;	/* active slots */
};

/* A running event: its own info and its set of overlapping events. */
struct ev {
	struct info *in;	/* this event */
	double ts;	/* start, as a double */
	double end;	/* ts + dur, as a double */
	struct pyset ov;	/* overlapping_uids: info pointers */
};

static void
ps_init(struct pyset *s)
{
	s->t = tl_calloc(8, sizeof(*s->t));
	s->mask = 7;
	s->fill = s->used = 0;
}

/* set_insert_clean: a key known absent, into a table without dummies. */
static void
ps_clean(struct slot *t, size_t mask, int64_t key, void *val)
{
	size_t perturb = (size_t)key, i = (size_t)key & mask, j;

	for (;;) {
		if (t[i].state == 0)
			break;
		if (i + LINEAR_PROBES <= mask) {
			for (j = 1; j <= LINEAR_PROBES; j++)
				if (t[i + j].state == 0)
					break;
			if (j <= LINEAR_PROBES) {
				i += j;
				break;
			}
		}
		perturb >>= PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
	t[i].key = key;
	t[i].state = 1;
	t[i].val = val;
}

/* set_table_resize: the least power of two above minused, dummies gone. */
static void
ps_resize(struct pyset *s, size_t minused)
{
	struct slot *old = s->t;
	size_t n = 8, i, oldmask = s->mask;

	while (n <= minused)
		n <<= 1;
	s->t = tl_calloc(n, sizeof(*s->t));
	s->mask = n - 1;
	s->fill = s->used = 0;
	for (i = 0; i <= oldmask; i++)
		if (old[i].state == 1) {
			ps_clean(s->t, s->mask, old[i].key, old[i].val);
			s->fill++, s->used++;
		}
	free(old);
}

/*
 * set_add_entry: a key not yet in the set goes to the last dummy slot
 * its probes passed (3.11 keeps the last one it saw, as a test against
 * /usr/bin/python3 3.11.2 showed), else to the unused slot that ended
 * them; a table three fifths full of active and dummy slots is resized
 * to hold four times the active ones (twice, above 50000).
 */
static void
ps_add(struct pyset *s, int64_t key, void *val)
{
	size_t mask = s->mask, perturb = (size_t)key, i = (size_t)key & mask, j;
	size_t probes, freeslot = SIZE_MAX;

	for (;;) {
		j = i;
		probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
		for (;;) {
			if (s->t[j].state == 0)
				goto unused;
			if (s->t[j].state == 2)
				freeslot = j;
			else if (s->t[j].key == key)
				return;
			if (probes-- == 0)
				break;
			j++;
		}
		perturb >>= PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
unused:
	if (freeslot != SIZE_MAX) {
		s->t[freeslot].key = key;
		s->t[freeslot].state = 1;
		s->t[freeslot].val = val;
		s->used++;
		return;
	}
	s->t[j].key = key;
	s->t[j].state = 1;
	s->t[j].val = val;
	s->fill++, s->used++;
	if (s->fill * 5 >= mask * 3)
		ps_resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
}

/* set_discard_entry: the key's slot becomes a dummy. */
static void
ps_discard(struct pyset *s, int64_t key)
{
	size_t mask = s->mask, perturb = (size_t)key, i = (size_t)key & mask, j;
	size_t probes;

	for (;;) {
		j = i;
		probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
		for (;;) {
			if (s->t[j].state == 0)
				return;
			if (s->t[j].state == 1 && s->t[j].key == key) {
				s->t[j].state = 2;
				s->t[j].val = NULL;
				s->used--;
				return;
			}
			if (probes-- == 0)
				break;
			j++;
		}
		perturb >>= PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
}

static void
info_drop(struct info *in)
{
	if (--in->refs > 0)
		return;
	free(in->ts);
	free(in->end);
	free(in->dur);
	free(in->stream);
	free(in->name);
	free(in);
}

/* The ended event's list, in its set's order, then the event freed. */
static void
ev_end(struct ev *e, struct buf *b)
{
	struct info *o;
	size_t i, k = 0;

	for (i = 0; i <= e->ov.mask; i++) {
		if (e->ov.t[i].state != 1)
			continue;
		o = e->ov.t[i].val;
		buf_num(b, e->in->uid);
		buf_tab(b), buf_num(b, (long long)++k);
		buf_tab(b), buf_num(b, o->uid);
		buf_tab(b), buf_adds(b, o->ts);
		buf_tab(b), buf_adds(b, o->end);
		buf_tab(b), buf_adds(b, o->dur);
		buf_tab(b), rec_bput(b, o->stream, strlen(o->stream));
		buf_tab(b), rec_bput(b, o->name, strlen(o->name));
		buf_emit(stdout, b);
		info_drop(o);
	}
	free(e->ov.t);
	info_drop(e->in);
	free(e);
}

/* A min-heap of the running events by end. */
struct heap {
	struct ev **a;	/* the events */
	size_t n;	/* how many */
	size_t cap;	/* allocated */
};

static void
heap_push(struct heap *h, struct ev *e)
{
	size_t i, p;

	tl_grow((void **)&h->a, &h->cap, h->n + 1, sizeof(*h->a));
	for (i = h->n++; i > 0 && h->a[p = (i - 1) / 2]->end > e->end; i = p)
		h->a[i] = h->a[p];
	h->a[i] = e;
}

static struct ev *
heap_pop(struct heap *h)
{
	struct ev *top = h->a[0], *last = h->a[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->a[c + 1]->end < h->a[c]->end)
			c++;
		if (h->a[c]->end >= last->end)
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n > 0)
		h->a[i] = last;
	return top;
}

static char *
field(const struct rec_reader *r, int col)
{
	size_t len;
	const char *s = rec_get(r, col, &len);
	char *t = tl_strndup(s, len);

	t[rec_unescape(t, len)] = '\0';
	return t;
}

static int
sweep(const char *path)
{
	struct rec_reader r;
	struct heap h = {0};
	struct pyset active;
	struct buf b = {0};
	struct ev *e, *a;
	struct info *in;
	FILE *fp = stdin;
	int cu, cts, cdur, cst, cname, clink;
	int64_t uid, ti, di, lastuid = -1;
	double ts, dur, lastts = 0;
	char num[40];
	const char *s;
	size_t len, i;

	if (strcmp(path, "-") != 0 && (fp = fopen(path, "r")) == NULL)
		tl_die("%s: cannot open", path);
	rec_open(&r, fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	rec_read_header(&r);
	cu = rec_need(&r, "UID");
	cts = rec_need(&r, "ts");
	cdur = rec_need(&r, "dur");
	cst = rec_need(&r, "stream");
	cname = rec_need(&r, "name");
	clink = rec_col(&r, "linked");
	ps_init(&active);
	fputs("UID\tk\tov\tov_ts\tov_end\tov_dur\tov_stream\tov_name\n", stdout);
	while (rec_read(&r)) {
		if (!unlinked && clink >= 0 && strcmp(rec_get(&r, clink, &len), "1") != 0)
			continue;
		s = rec_get(&r, cu, &len);
		if (num_int64(s, len, &uid) < 0 || uid < 0)
			tl_die("%s: line %zu: UID: not a UID: %s", r.name, r.lineno, s);
		s = rec_get(&r, cts, &len);
		if (num_double(s, len, &ts) < 0)
			tl_die("%s: line %zu: ts: not a number: %s", r.name, r.lineno, s);
		s = rec_get(&r, cdur, &len);
		if (num_double(s, len, &dur) < 0)
			tl_die("%s: line %zu: dur: not a number: %s", r.name, r.lineno, s);
		/*
		 * (Of equal ts, TraceLens takes the events in UID order; sort
		 * -g compares ts as long doubles, which may tell apart two that
		 * are one double: only a ts that goes back is an error.)
		 */
		if (lastuid >= 0 && ts < lastts)
			tl_die("%s: line %zu: ts decreases", r.name, r.lineno);
		lastts = ts, lastuid = uid;
		/* a zero-length event overlaps nothing and is no point of the sweep */
		if (!(ts + dur > ts))
			continue;
		/* ends first: an event that ends as another starts does not overlap it */
		while (h.n > 0 && h.a[0]->end <= ts) {
			a = heap_pop(&h);
			ps_discard(&active, a->in->uid);
			ev_end(a, &b);
		}
		in = tl_calloc(1, sizeof(*in));
		in->uid = uid;
		in->ts = field(&r, cts);
		in->dur = field(&r, cdur);
		/* Python's ts + dur: exact for two ints, else a float */
		s = rec_get(&r, cts, &len);
		if (num_jsonint(s, len, &ti) == 0 &&
		    num_jsonint(in->dur, strlen(in->dur), &di) == 0 &&
		    !__builtin_add_overflow(ti, di, &ti)) {
			snprintf(num, sizeof(num), "%lld", (long long)ti);
			in->end = tl_strdup(num);
		} else
			in->end = tl_strdup(num_pyrepr(ts + dur, num, sizeof(num)));
		in->stream = field(&r, cst);
		in->name = field(&r, cname);
		in->refs = 1;
		e = tl_calloc(1, sizeof(*e));
		e->in = in;
		e->ts = ts;
		e->end = ts + dur;
		ps_init(&e->ov);
		/*
		 * (TraceLens also passes over two events under one cpu_op,
		 * but looks their cpu_ops up among the GPU events only,
		 * finds none, and so never does.)
		 */
		for (i = 0; i <= active.mask; i++) {
			if (active.t[i].state != 1)
				continue;
			a = active.t[i].val;
			if (*in->stream && *a->in->stream && strcmp(in->stream, a->in->stream) == 0)
				continue;
			/* (max of the starts: a started first) */
			if ((e->end < a->end ? e->end : a->end) - e->ts < 1.0)
				continue;
			ps_add(&e->ov, a->in->uid, a->in);
			a->in->refs++;
			ps_add(&a->ov, uid, in);
			in->refs++;
		}
		ps_add(&active, uid, e);
		heap_push(&h, e);
	}
	while (h.n > 0)
		ev_end(heap_pop(&h), &b);
	free(h.a);
	free(active.t);
	buf_free(&b);
	rec_close(&r);
	if (fp != stdin)
		fclose(fp);
	return TL_OK;
}

static void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: tl-overlap [-u] [gpu.tsv]\n");
	exit(status);
}

int
main(int argc, char *argv[])
{
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "u")) != -1) {
		switch (ch) {
		case 'u': unlinked = 1; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(TL_EUSAGE);
	return sweep(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
