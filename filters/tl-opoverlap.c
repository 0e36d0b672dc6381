/* See LICENSE file for copyright and license details. */
/*
 * tl-opoverlap: what TraceLens's _compute_overlap_info sets on each
 * kernel launcher (--include_overlap_info): the names of the events
 * that overlap its kernels, first appearance first, their details
 * averaged by name, and the share of its kernels' busy time that
 * others overlap.  Input: the launcher's kernels (k 0) and, after
 * each, the events tl-overlap(1) lists for it (k 1, 2, ...), by
 * launcher, then kernel, then k.  Memory: one launcher's kernels and
 * their lists.  tl-opoverlap(1) gives the formats.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

/* An event a kernel's list names. */
struct ov {
	double ts;	/* start */
	double end;	/* ts + dur, as Python computed it */
	double dur;	/* dur */
	char *stream;	/* stream, escaped as the record has it; "" for None */
	char *name;	/* name, unescaped */
};

/* One of the launcher's kernels, with its list. */
struct kern {
	double ts;	/* start */
	double end;	/* ts + dur */
	struct ov *ov;	/* the overlapping events, in list order, owned */
	size_t nov;	/* used */
	size_t cap;	/* allocated */
};

/* A name's entries among the details: TraceLens's grouped[name]. */
struct grp {
	const char *name;	/* not owned */
	const char *stream;	/* the first entry's, not owned */
	double dur;	/* sum of the entries' durs */
	double pct;	/* sum of their rounded overlap_pct */
	size_t n;	/* entries */
};

/* The launcher being read. */
struct op {
	int64_t uid;	/* the launcher */
	struct kern *k;	/* its kernels, in UID order, owned */
	size_t nk;	/* used */
	size_t cap;	/* allocated */
};

/* Python's round(x, 2): the double nearest the correctly rounded decimal. */
static double
round2(double x)
{
	char b[512];

	snprintf(b, sizeof(b), "%.2f", x);
	return strtod(b, NULL);
}

static int
ivcmp(const void *a, const void *b)
{
	const double *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x > y) - (x < y);	/* stable, like Python's sorted */
}

/*
 * GPUEventAnalyser.merge_intervals, summed: iv holds n (start, end),
 * sorted here, then merged by the merger of tl-aggregate's union.
 */
static double
union_sum(double *iv, size_t n)
{
	struct merger m = {0};
	size_t i;

	qsort(iv, n, 2 * sizeof(*iv), ivcmp);
	for (i = 0; i < n; i++)
		mg_add(&m, (union tv){ .d = iv[2 * i] },
		    (union tv){ .d = iv[2 * i + 1] }, 0, 0);
	return mg_union(&m).d;
}

/* Write the launcher's record and forget its kernels. */
static void
op_put(struct op *o)
{
	struct grp *g = NULL;
	struct buf b = {0};
	double *iv, total, ovt, os, oe, t;
	size_t ng = 0, gcap = 0, i, j, m, niv;
	char num[64];

	if (o->uid < 0)
		return;
	iv = tl_malloc((o->nk + 1) * 2 * sizeof(*iv));
	for (i = 0; i < o->nk; i++)
		iv[2 * i] = o->k[i].ts, iv[2 * i + 1] = o->k[i].end;
	total = union_sum(iv, o->nk);
	free(iv);
	/* the details, grouped by name in first appearance (dict order) */
	for (i = 0; i < o->nk; i++)
		for (j = 0; j < o->k[i].nov; j++) {
			struct ov *v = &o->k[i].ov[j];

			for (m = 0; m < ng && strcmp(g[m].name, v->name) != 0; m++)
				;
			if (m == ng) {
				tl_grow((void **)&g, &gcap, ng + 1, sizeof(*g));
				memset(&g[ng], 0, sizeof(*g));
				g[ng].name = v->name;
				g[ng].stream = v->stream;
				ng++;
			}
			os = v->ts > o->k[i].ts ? v->ts : o->k[i].ts;
			oe = v->end < o->k[i].end ? v->end : o->k[i].end;
			t = oe - os > 0 ? oe - os : 0;
			g[m].dur += v->dur;
			g[m].pct += round2(total > 0 ? t / total : 0.0);
			g[m].n++;
		}
	printf("%lld\t", (long long)o->uid);
	if (ng > 0) {
		buf_addc(&b, '[');
		for (m = 0; m < ng; m++) {
			if (m)
				buf_adds(&b, ", ");
			pystr(&b, g[m].name, strlen(g[m].name));
		}
		buf_addc(&b, ']');
		rec_put(stdout, b.s, b.len);
		buf_reset(&b);
		buf_addc(&b, '[');
		for (m = 0; m < ng; m++) {
			buf_adds(&b, m ? ",{\"name\":" : "{\"name\":");
			json_str(&b, g[m].name, strlen(g[m].name));
			buf_adds(&b, ",\"dur\":");
			buf_adds(&b, num_pyrepr(round2(g[m].dur / (double)g[m].n), num, sizeof(num)));
			buf_adds(&b, ",\"stream\":");
			json_val(&b, g[m].stream, strlen(g[m].stream));
			buf_adds(&b, ",\"overlap_pct\":");
			buf_adds(&b, num_pyrepr(round2(g[m].pct / (double)g[m].n), num, sizeof(num)));
			buf_addc(&b, '}');
		}
		buf_addc(&b, ']');
		putchar('\t');
		rec_put(stdout, b.s, b.len);
		/* the time others overlap, kernel by kernel */
		ovt = 0;
		for (i = 0; i < o->nk; i++) {
			struct kern *k = &o->k[i];

			iv = tl_malloc((k->nov + 1) * 2 * sizeof(*iv));
			for (j = niv = 0; j < k->nov; j++) {
				os = k->ov[j].ts > k->ts ? k->ov[j].ts : k->ts;
				oe = k->ov[j].end < k->end ? k->ov[j].end : k->end;
				if (oe > os)
					iv[2 * niv] = os, iv[2 * niv + 1] = oe, niv++;
			}
			ovt += union_sum(iv, niv);
			free(iv);
		}
		printf("\t%s\n", num_pyrepr(round2(total > 0 ? ovt / total : 0.0),
		    num, sizeof(num)));
	} else
		fputs("\t[]\t\n", stdout);
	for (i = 0; i < o->nk; i++) {
		for (j = 0; j < o->k[i].nov; j++) {
			free(o->k[i].ov[j].stream);
			free(o->k[i].ov[j].name);
		}
		free(o->k[i].ov);
	}
	o->nk = 0;
	free(g);
	buf_free(&b);
}

static double
dfield(struct rec_reader *r, int c, const char *what)
{
	const char *s;
	size_t len;
	double d;

	s = rec_get(r, c, &len);
	if (num_double(s, len, &d) < 0)
		tl_die("%s: line %zu: %s: not a number: %s", r->name, r->lineno, what, s);
	return d;
}

static int64_t
ifield(struct rec_reader *r, int c, const char *what)
{
	const char *s;
	size_t len;
	int64_t v;

	s = rec_get(r, c, &len);
	if (num_int64(s, len, &v) < 0 || v < 0)
		tl_die("%s: line %zu: %s: not a UID: %s", r->name, r->lineno, what, s);
	return v;
}

static int
run(const char *path)
{
	struct rec_reader r;
	struct op o = { .uid = -1 };
	struct kern *k;
	struct ov *v;
	FILE *fp = stdin;
	int cl, cu, ck, cts, cend, cdur, cst, cname;
	int64_t l, u, kk, lastu = -1, lastk = 0;
	const char *s;
	size_t len;

	if (strcmp(path, "-") != 0 && (fp = fopen(path, "r")) == NULL)
		tl_die("%s: cannot open", path);
	rec_open(&r, fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	rec_read_header(&r);
	cl = rec_need(&r, "launcher");
	cu = rec_need(&r, "UID");
	ck = rec_need(&r, "k");
	cts = rec_need(&r, "ts");
	cend = rec_need(&r, "end");
	cdur = rec_need(&r, "dur");
	cst = rec_need(&r, "stream");
	cname = rec_need(&r, "name");
	fputs("UID\toverlapping_kernel_names\toverlapping_kernels_details\toverlap_pct\n", stdout);
	while (rec_read(&r)) {
		l = ifield(&r, cl, "launcher");
		u = ifield(&r, cu, "UID");
		kk = ifield(&r, ck, "k");
		/*
		 * (an op's kernels in the order TraceLens lists them: a
		 * launcher's by UID, the gpu_events of an op's subtree by
		 * launch; each one's list after it)
		 */
		if (l < o.uid || (l == o.uid && u == lastu && kk <= lastk))
			tl_die("%s: line %zu: not sorted by launcher, kernel and k",
			    r.name, r.lineno);
		if (l != o.uid) {
			op_put(&o);
			o.uid = l;
		}
		if (kk == 0) {
			tl_grow((void **)&o.k, &o.cap, o.nk + 1, sizeof(*o.k));
			k = &o.k[o.nk++];
			memset(k, 0, sizeof(*k));
			k->ts = dfield(&r, cts, "ts");
			k->end = k->ts + dfield(&r, cdur, "dur");
		} else {
			if (u != lastu || l != o.uid || o.nk == 0)
				tl_die("%s: line %zu: UID %lld: a list without its kernel",
				    r.name, r.lineno, (long long)u);
			k = &o.k[o.nk - 1];
			tl_grow((void **)&k->ov, &k->cap, k->nov + 1, sizeof(*k->ov));
			v = &k->ov[k->nov++];
			v->ts = dfield(&r, cts, "ts");
			v->end = dfield(&r, cend, "end");
			v->dur = dfield(&r, cdur, "dur");
			s = rec_get(&r, cst, &len);
			v->stream = tl_strdup(s);
			s = rec_get(&r, cname, &len);
			v->name = tl_strdup(s);
			v->name[rec_unescape(v->name, len)] = '\0';
		}
		lastu = u, lastk = kk;
	}
	op_put(&o);
	free(o.k);
	rec_close(&r);
	if (fp != stdin)
		fclose(fp);
	return TL_OK;
}

static void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: tl-opoverlap [file]\n");
	exit(status);
}

int
main(int argc, char *argv[])
{
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "")) != -1)
		usage(TL_EUSAGE);
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(TL_EUSAGE);
	return run(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
