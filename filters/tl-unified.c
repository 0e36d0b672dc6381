/* See LICENSE file for copyright and license details. */
/*
 * tl-unified: the rows of TraceLens's unified_perf_summary (as
 * tl-perfrows writes them, sorted by source op), each with its source
 * op's fields from a tree folder's ops.tsv and meta.tsv, its op
 * category, and gseq, the number of its group, led by a key that
 * sort(1) compares as bytes: sorted, the rows are ready for
 * tl-aggregate's grouping.  Memory: one row, meta.tsv, and the keys of
 * the groups.  tl-unified(1) gives the formats.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"
#include "opcat.h"

static const char *treedir;	/* -d: the tree folder (ops.tsv, meta.tsv) */
static const char *firstkernels; /* -k: UID TAB first kernel's name */
static const char *groupkeys;	/* -g: out, each group's keys once */
static const char *durflag;	/* -o: out, 1 when some dur is fractional */
static const char *morerows;	/* -y: rows read after the others */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-unified -d treedir -k firstkernels [-g groups]"
	    " [-o durflag] [-y rows] [rows]\n");
	exit(status);
}

/* The fields of a row record (tl-report's rows): see tl-perfrows(1). */
enum {
	RSRC, RUID, RTYPE, RNAME, RHAS, RSTATUS, RGF, RDM, RFB, RTBS, RTFS,
	RSPEC, RPARAMS, RBCAT, RKT, RKD, RRT, RRB, RPR, RNF
};

/* The state of tl-unified across its inputs. */
struct unified {
	struct strtab groups;	/* the groups' keys; number + 1 is gseq */
	FILE *gfp;		/* -g: the groups' keys, or NULL */
	struct buf b;		/* the record being written */
	struct buf g;		/* the group key being built */
	struct buf key;		/* scratch for treeops_names */
	struct buf nm, kn;	/* scratch for opcat */
	struct buf gl;		/* scratch for -g: a group's line */
	long long rn;		/* rows written */
	int fdur;		/* some dur is not a whole number */
};

/*
 * -g: a new group's keys, once, in gseq order: gseq name cat pn pl tn
 * and the four inputs as Python literals, as tl-aggregate's first and
 * pylit would give them (every row of the group has the same).
 */
static void
ugroup(struct unified *u, long long gseq)
{
	struct buf *o = &u->gl;
	const char *p = u->g.s, *e = p + u->g.len, *t;
	int i;

	buf_reset(o);
	buf_num(o, gseq);
	for (i = 0; i < 9; i++, p = t + 1) {
		if ((t = memchr(p, '\t', (size_t)(e - p))) == NULL)
			t = e;
		buf_tab(o);
		if (i < 5)
			buf_add(o, p, (size_t)(t - p));
		else
			pylit_field(o, p, (size_t)(t - p));
	}
	buf_emit(u->gfp, o);
}

/*
 * One input (rows sorted by source op), merged with ops.tsv
 * and the first kernels, each read again from the start.
 */
static void
upass(struct unified *u, const char *path)
{
	struct rec_reader r;
	struct treeops to;
	struct uside k1;
	struct buf *b = &u->b, *g = &u->g;
	FILE *fp = io_open(path, "r", NULL);
	const char *const *f = to.f;
	int y;
	long long src, prev = -1, gseq;
	const char *name, *cat, *k1s, *s;
	size_t i, k1len, ngroups;

	treeops_open(&to, treedir);
	uside_open(&k1, firstkernels, 2, 0, NULL);
	rec_open(&r, fp, io_name(path));
	while (rec_read(&r)) {
		want_nf(&r, RNF);
		src = atoid(r.f[RSRC].s);
		if (src < prev)
			tl_die("%s: line %zu: out of order (source op %lld "
			    "after %lld)", r.name, r.lineno, src, prev);
		prev = src;
		if (!treeops_at(&to, src))
			continue;
		k1s = uside_seek(&k1, src) ? k1.r.f[1].s : "";
		k1len = k1.uid == src ? k1.r.f[1].len : 0;
		y = strcmp(r.f[RTYPE].s, "Y") == 0;
		name = y ? r.f[RNAME].s : f[ONAME];
		cat = r.f[RBCAT].len ? r.f[RBCAT].s :
		    opcat(buf_unesc(&u->nm, name, strlen(name)),
		    k1len ? buf_unesc(&u->kn, k1s, k1len) : NULL);
		/* the row's group */
		buf_reset(g);
		buf_adds(g, name);
		buf_tabs(g, cat);
		treeops_names(g, &to, &u->key);
		ngroups = u->groups.n;
		gseq = strtab_get(&u->groups, g->s, g->len) + 1;
		if (u->gfp != NULL && u->groups.n > ngroups)
			ugroup(u, gseq);
		/* the sort key: gseq, cls, ts, UID */
		key_int(b, gseq);
		buf_addc(b, y ? '1' : '0');
		key_dec(b, y ? "0" : f[OTS]);
		key_int(b, atoid(r.f[RUID].s));
		buf_tab(b);
		buf_num(b, gseq);
		buf_tab(b);
		buf_num(b, ++u->rn);
		buf_tabs(b, y ? "1" : "0");
		buf_tabs(b, y ? "0" : f[OTS]);
		buf_tabs(b, r.f[RUID].s);
		if (u->gfp != NULL) {
			/* (the group's keys are in -g's file) */
			buf_adds(b, "\t\t\t\t\t\t\t\t");
		} else {
			buf_tabs(b, name);
			/* the names and inputs: in g, after name and category */
			s = strchr(strchr(g->s, '\t') + 1, '\t');
			buf_add(b, s, g->len - (size_t)(s - g->s));
		}
		buf_tabs(b, f[ODUR]);
		if (strpbrk(f[ODUR], ".eE"))
			u->fdur = 1;
		for (i = RHAS; i < RSPEC; i++)
			buf_tabs(b, r.f[i].s);
		/* (a missing spec of a row without a model sorts apart) */
		buf_tabs(b, r.f[RSPEC].len == 0 &&
		    strcmp(r.f[RSTATUS].s, "ok") != 0 ? "\001" : r.f[RSPEC].s);
		for (i = RPARAMS; i < RNF; i++)
			buf_tabs(b, r.f[i].s);
		buf_tabs(b, u->gfp != NULL ? "" : cat);
		buf_emit(stdout, b);
	}
	/* (first kernels of ops without a row may be left) */
	uside_free(&k1);
	treeops_close(&to);
	rec_close(&r);
	fclose(fp);
}

/*
 * The rows (sorted by source op) with their source op's fields from
 * the tree folder's (-d) ops.tsv and meta.tsv, the source op's first
 * kernel (-k: UID TAB name, UID order), the op category, and gseq, the
 * number of the row's group (name, category, process and thread names,
 * inputs).  -y: more rows, sorted by source op on their own (the
 * synthetic ops), read after the others.  Rows whose source op is not
 * in ops.tsv are left out.  -o FILE gets 1 when some dur is not a
 * whole number, else 0.  Memory: one row, meta.tsv, and the keys of
 * the groups.
 */
static int
unified(const char *path)
{
	struct unified u;
	FILE *df;
	int st = TL_OK;

	memset(&u, 0, sizeof(u));
	fputs("key\tgseq\trn\tcls\tts\tUID\tname\tprocess_name\tprocess_label\t"
	    "thread_name\tInput Dims\tInput type\tInput Strides\t"
	    "Concrete Inputs\tdur\thas\tstatus\tgf\tdm\tfb\ttbs\ttfs\tspec\t"
	    "params\tbcat\tkt\tkd\trt\trb\tpr\top category\n", stdout);
	if (groupkeys) {
		u.gfp = io_open(groupkeys, "w", NULL);
		fputs("gseq\tname\tcat\tpn\tpl\ttn\td\tt\ts\tc\n", u.gfp);
	}
	upass(&u, path);
	if (morerows)
		upass(&u, morerows);
	if (u.gfp != NULL)
		st |= tl_fshut(u.gfp, groupkeys);
	if (durflag) {
		df = io_open(durflag, "w", NULL);
		fprintf(df, "%d\n", u.fdur);
		st |= tl_fshut(df, durflag);
	}
	strtab_free(&u.groups);
	buf_free(&u.b);
	buf_free(&u.g);
	buf_free(&u.key);
	buf_free(&u.nm);
	buf_free(&u.kn);
	buf_free(&u.gl);
	return st;
}


int
main(int argc, char *argv[])
{
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "d:g:k:o:y:")) != -1) {
		switch (ch) {
		case 'd': treedir = optarg; break;
		case 'g': groupkeys = optarg; break;
		case 'k': firstkernels = optarg; break;
		case 'o': durflag = optarg; break;
		case 'y': morerows = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (treedir == NULL || firstkernels == NULL || argc > 1)
		usage(TL_EUSAGE);
	return unified(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
