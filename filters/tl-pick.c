/* See LICENSE file for copyright and license details. */
/*
 * tl-pick: the kernel intervals of chosen ops, picked out of the tree
 * stage's intervals.tsv (sorted by op): those of their subtree (-s) or
 * their direct kernels (-d), once per tag of the op in the keys file;
 * with -b, instead, each chosen op's busy time and kernel list.  A
 * merge join: memory is one op's tags, or its kernel list.  The tree
 * stage writes an op's subtree as one r record, the place of its
 * kernels in walk.tsv (-W): a chosen op's are read there and sorted.
 * tl-pick(1) gives the formats.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

static char kind;		/* -s, -d: the intervals' kind, 's' or 'd' */
static const char *keys;	/* -k, -u: op TAB tag, or ops, sorted by op */
static int ownkeys;		/* -u: keys' first fields, each op its own tag */
static int busy;		/* -b: busy time and list per op */
static int first;		/* -1: each op's first interval only */
static int launchorder;		/* -l: -b's lists in launch order */
static int exact;		/* -x: exact ns instead of TraceLens's doubles */
static const char *gpuevents;	/* -G: the GPU events, for s records' names */
static const char *walkpath;	/* -W: walk.tsv, for r records' kernels */
static const char *cspath;	/* -c: callstack.tsv, -l's call_stack */
/* -o: the fields written, in order: ofld[i] an interval's column
 * (ITS .. IGPU) or OTAG; all six without -o */
enum { OTAG = -1 };
static int ofld[6] = { OTAG, ITS, IDUR, INAME, ISTREAM, IGPU };
static size_t nofld = LEN(ofld);

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-pick -s | -d [-1blx] [-c callstack.tsv] [-G gpuevents]"
	    " [-o fields] [-W walk.tsv] -k keys | -u ops [intervals.tsv]\n");
	exit(status);
}

/* The current record of in, of an op that tags lists: out, or into ka. */
static void
take(struct ivin *in, const struct arena *tags, struct kacc *ka,
    struct buf *b)
{
	const char *name;
	size_t i, j, namel;

	if (busy) {
		kacc_add(ka, in);
		return;
	}
	name = NULL, namel = 0;
	for (j = 0; j < tags->n; j++) {
		for (i = 0; i < nofld; i++) {
			if (i > 0)
				buf_tab(b);
			if (ofld[i] == OTAG)
				buf_adds(b, arena_get(tags, j));
			else if (ofld[i] != INAME)
				buf_field(b, &in->r, in->c[ofld[i]]);
			else {
				/* (from the GPU events, for an s record:
				 * only when written) */
				if (name == NULL)
					name = ivin_name(in, &namel);
				buf_add(b, name, namel);
			}
		}
		buf_emit(stdout, b);
	}
}

/* -o's list: some of tag ts dur name stream gpu, comma-separated. */
static void
fieldsparse(const char *list)
{
	static const char *const nm[] = {
		"tag", "ts", "dur", "name", "stream", "gpu"
	};
	static const int col[] = { OTAG, ITS, IDUR, INAME, ISTREAM, IGPU };
	const char *p = list, *e;
	size_t i;

	for (nofld = 0;; p = e + 1) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		for (i = 0; i < LEN(nm); i++)
			if (strlen(nm[i]) == (size_t)(e - p) &&
			    memcmp(nm[i], p, (size_t)(e - p)) == 0)
				break;
		if (i == LEN(nm) || nofld == LEN(ofld))
			tl_usage_die("-o: not a list of tag, ts, dur, name, "
			    "stream, gpu: %s", list);
		ofld[nofld++] = col[i];
		if (*e == '\0')
			break;
	}
}

/*
 * The intervals of kind of the ops that keys lists, as tag ts dur
 * name stream gpu, once per tag, in intervals.tsv's order; with -b,
 * each listed op's busy time, kernel list and count (op kt kd kn; the tags are
 * not used), the list in intervals.tsv's order (ts), or with -l in
 * that of the launches (TraceLens's gpu_events).
 */
static int
pick(const char *path)
{
	struct ivin *in = tl_calloc(1, sizeof(*in)), *sub;
	struct walkin *wk = NULL;
	struct rec_reader k;
	struct arena tags = {0};
	struct kacc ka = {0};
	struct cslook cs;
	struct buf b = {0};
	FILE *kfp = io_open(keys, "r", NULL);
	long long cur = -1, kop = -1, kprev;
	size_t i, n;
	int kend, more;
	char k1;

	ivin_open(in, path, gpuevents);
	if (walkpath != NULL) {
		wk = tl_calloc(1, sizeof(*wk));
		walkin_open(wk, walkpath);
	}
	rec_open(&k, kfp, keys);
	if (!(kend = !rec_read(&k))) {
		if (!ownkeys)
			want_nf(&k, 2);
		kop = atoid(k.f[0].s);
	}
	ka.list = 1;
	ka.launch = launchorder;
	if (cspath != NULL) {
		cslook_open(&cs, cspath);
		ka.cs = &cs;
	}
	kacc_reset(&ka, exact);
	if (busy)
		fputs("op\tkt\tkd\tkn\n", stdout);
	do {
		more = ivin_peek(in, &k1);
		if (busy && ka.n > 0 && (!more || in->op != cur)) {
			buf_num(&b, cur);
			kacc_time(&b, &ka);
			kacc_list(&b, &ka);
			buf_tab(&b);
			buf_num(&b, (long long)ka.n);
			buf_emit(stdout, &b);
			kacc_reset(&ka, exact);
		}
		if (!more || (kend && tags.n == 0))
			break;
		if (k1 != kind && !(kind == 's' && k1 == 'r'))
			continue;
		if (in->op != cur) {
			cur = in->op;
			arena_reset(&tags);
			while (!kend && kop <= cur) {
				if (kop == cur)
					arena_add(&tags, k.f[!ownkeys].s,
					    k.f[!ownkeys].len);
				if ((kend = !rec_read(&k)) != 0)
					break;
				if (!ownkeys)
					want_nf(&k, 2);
				kprev = kop;
				kop = atoid(k.f[0].s);
				if (kop < kprev)
					tl_die("%s: line %zu: out of order (op %lld "
					    "after %lld)", k.name, k.lineno, kop,
					    kprev);
			}
		}
		/* (most records are of ops not asked for: never split) */
		if (tags.n == 0)
			continue;
		ivin_split(in);
		if (k1 != 'r') {
			take(in, &tags, &ka, &b);
			/* (-1: the op's later records are skipped as those of
			 * an op not asked for) */
			if (first)
				arena_reset(&tags);
			continue;
		}
		/* the op's subtree, from walk.tsv */
		if (walkpath == NULL)
			tl_die("%s: line %zu: an r record: its kernels are in "
			    "walk.tsv (-W)", in->r.name, in->r.lineno);
		/* (in intervals.tsv's order: by ts as doubles, whatever -x) */
		n = ivin_expand(in, wk, 0);
		for (i = 0; i < n && tags.n > 0; i++)
			if (ivin_kind(sub = ivin_expanded(wk, i)) == 's') {
				take(sub, &tags, &ka, &b);
				if (first)
					arena_reset(&tags);
			}
	} while (more);
	kacc_free(&ka);
	if (cspath != NULL)
		cslook_close(&cs);
	buf_free(&b);
	arena_free(&tags);
	rec_close(&k);
	fclose(kfp);
	ivin_close(in);
	free(in);
	if (walkpath != NULL) {
		walkin_close(wk);
		free(wk);
	}
	return TL_OK;
}


int
main(int argc, char *argv[])
{
	int ch, oflag = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "1bc:dG:k:lo:su:W:x")) != -1) {
		switch (ch) {
		case '1': first = 1; break;
		case 'b': busy = 1; break;
		case 'c': cspath = optarg; break;
		case 'l': launchorder = 1; break;
		case 'o': fieldsparse(optarg); oflag = 1; break;
		case 'd': case 's':
			if (kind != 0 && kind != ch)
				usage(TL_EUSAGE);
			kind = (char)ch;
			break;
		case 'G': gpuevents = optarg; break;
		case 'k': keys = optarg; ownkeys = 0; break;
		case 'u': keys = optarg; ownkeys = 1; break;
		case 'W': walkpath = optarg; break;
		case 'x': exact = 1; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (kind == 0 || keys == NULL || argc > 1 || (launchorder && !busy) ||
	    (cspath != NULL && !launchorder) || (first && busy) ||
	    (oflag && busy))
		usage(TL_EUSAGE);
	return pick(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
