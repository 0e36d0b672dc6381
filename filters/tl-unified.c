/* See LICENSE file for copyright and license details. */
/*
 * tl-unified: the rows of TraceLens's unified_perf_summary (as
 * tl-perfrows writes them, sorted by source op), each with its source
 * op's fields from a tree folder's ops.tsv and meta.tsv and its op
 * category, led by its group (the nine keys) and a key of cls, ts,
 * UID and rn, so that sort(1), comparing whole lines as bytes, brings
 * each group's rows together in TraceLens's order.  -g reads them so
 * sorted and numbers the groups (gseq), writing each group's keys once
 * apart: the rows are then ready for tl-aggregate's grouping.  Neither
 * holds a table of the groups, however many there are: memory is one
 * row (and meta.tsv) in the first form, one row and one group's keys
 * in the second.  With -r (--detect_recompute), is_recompute is a
 * tenth key.  tl-unified(1) gives the formats.
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
static const char *recomputed;	/* -r: the UIDs marked is_recompute */
static int eflag;		/* -e: entry_point of each row */
static const char *tails;	/* -w: out, the rows after their key; -R: in */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-unified -d treedir -k firstkernels [-o durflag]"
	    " [-r recompute] [-w tails] [-y rows] [rows]\n"
	    "       tl-unified -g groups [-R tails] [rows]\n"
	    "       tl-unified -e [rows]\n");
	exit(status);
}

/* The fields of a row record (tl-report's rows): see tl-perfrows(1). */
enum {
	RSRC, RUID, RTYPE, RNAME, RHAS, RSTATUS, RGF, RDM, RFB, RTBS, RTFS,
	RSPEC, RPARAMS, RBCAT, RKT, RKD, RRT, RRB, RPR, RNF
};

/*
 * The nine keys of a group lead every row of the first form, and with
 * -r is_recompute, a tenth.
 */
#define NKEYS 9

/* The state of the first form across its inputs. */
struct unified {
	struct buf b;		/* the record being written */
	struct buf key;		/* scratch for treeops_names */
	struct buf nm, kn;	/* scratch for opcat */
	long long rn;		/* rows written */
	int fdur;		/* some dur is not a whole number */
	FILE *tfp;		/* -w: the tails' file, or NULL */
	long long toff;		/* -w: the next tail's offset there */
};

/*
 * One input (rows sorted by source op), merged with ops.tsv
 * and the first kernels, each read again from the start.
 */
static void
upass(struct unified *u, const char *path)
{
	struct rec_reader r;
	struct treeops to;
	struct uside k1, rc;
	struct buf *b = &u->b;
	FILE *fp = io_open(path, "r", NULL);
	const char *const *f = to.f;
	int y;
	long long src, prev = -1;
	const char *name, *cat, *k1s;
	size_t i, k1len, kl, tl;

	treeops_open(&to, treedir);
	uside_open(&k1, firstkernels, 2, 0, NULL);
	if (recomputed)
		uside_open(&rc, recomputed, 1, 0, NULL);
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
		/* the row's group: name, category, names, inputs */
		buf_reset(b);
		buf_adds(b, name);
		buf_tabs(b, cat);
		treeops_names(b, &to, &u->key);
		/* (a synthetic op is its source op's copy: its mark too) */
		if (recomputed)
			buf_tabs(b, uside_seek(&rc, src) ? "True" : "False");
		/* the sort key: cls, ts, UID, then rn (as the rows came) */
		buf_tab(b);
		buf_addc(b, y ? '1' : '0');
		key_dec(b, y ? "0" : f[OTS]);
		key_int(b, atoid(r.f[RUID].s));
		key_int(b, ++u->rn);
		kl = b->len;
		buf_tab(b);
		buf_num(b, u->rn);
		buf_tabs(b, y ? "1" : "0");
		buf_tabs(b, y ? "0" : f[OTS]);
		buf_tabs(b, r.f[RUID].s);
		buf_tabs(b, f[ODUR]);
		if (strpbrk(f[ODUR], ".eE"))
			u->fdur = 1;
		for (i = RHAS; i < RSPEC; i++)
			buf_tabs(b, r.f[i].s);
		/*
		 * pandas's first skips a row without metrics (NaN), not an
		 * empty spec of a model that ran: that one, the byte 001
		 */
		buf_tabs(b, r.f[RSPEC].len == 0 &&
		    strcmp(r.f[RSTATUS].s, "ok") == 0 ? "\001" : r.f[RSPEC].s);
		for (i = RPARAMS; i < RNF; i++)
			buf_tabs(b, r.f[i].s);
		if (u->tfp == NULL) {
			buf_emit(stdout, b);
			continue;
		}
		/* -w: the tail apart, its place after the key */
		tl = b->len - kl - 1;
		fwrite(b->s + kl + 1, 1, tl, u->tfp);
		putc('\n', u->tfp);
		b->len = kl;
		buf_tab(b), buf_num(b, u->toff);
		buf_tab(b), buf_num(b, (long long)tl);
		buf_emit(stdout, b);
		u->toff += (long long)tl + 1;
	}
	/* (first kernels of ops without a row may be left) */
	uside_free(&k1);
	if (recomputed)
		uside_free(&rc);
	treeops_close(&to);
	rec_close(&r);
	fclose(fp);
}

/* The tail of a row's header in both forms, after key or gseq. */
#define ROWTAIL "rn\tcls\tts\tUID\tdur\thas\tstatus\tgf\tdm\tfb\ttbs\t" \
	"tfs\tspec\tparams\tbcat\tkt\tkd\trt\trb\tpr\n"

/*
 * The first form: the rows (sorted by source op) with their source
 * op's fields from the tree folder's (-d) ops.tsv and meta.tsv, the
 * source op's first kernel (-k: UID TAB name, UID order), the op
 * category, led by their group and the sort key.  -y: more rows,
 * sorted by source op on their own (the synthetic ops), read after the
 * others.  Rows whose source op is not in ops.tsv are left out.  -o
 * FILE gets 1 when some dur is not a whole number, else 0.
 */
static int
unified(const char *path)
{
	static char iob[TL_IOBUF];	/* the tails' (see io_bigbuf) */
	struct unified u;
	FILE *df;
	int st = TL_OK;

	memset(&u, 0, sizeof(u));
	fputs("name\top category\tprocess_name\tprocess_label\tthread_name\t"
	    "Input Dims\tInput type\tInput Strides\tConcrete Inputs\t", stdout);
	if (recomputed)
		fputs("is_recompute\t", stdout);
	fputs(tails ? "key\toffset\tlength\n" : "key\t" ROWTAIL, stdout);
	if (tails)
		u.tfp = io_open(tails, "w", iob);
	upass(&u, path);
	if (morerows)
		upass(&u, morerows);
	/* (whole before stdout ends: -g -R reads it after the sort) */
	if (tails)
		st |= tl_fshut(u.tfp, tails);
	if (durflag) {
		df = io_open(durflag, "w", NULL);
		fprintf(df, "%d\n", u.fdur);
		st |= tl_fshut(df, durflag);
	}
	buf_free(&u.b);
	buf_free(&u.key);
	buf_free(&u.nm);
	buf_free(&u.kn);
	return st;
}

/*
 * A new group's keys (the first nk fields of line) to gfp, once, in
 * gseq order: gseq name cat pn pl tn and the four inputs as Python
 * literals, as tl-aggregate's first and pylit would give them (every
 * row of the group has the same), then is_recompute as it is.
 */
static void
ngroup(FILE *gfp, struct buf *o, long long gseq, int nk, const char *p,
    const char *e)
{
	const char *t;
	int i;

	buf_reset(o);
	buf_num(o, gseq);
	for (i = 0; i < nk; i++, p = t + 1) {
		t = memchr(p, '\t', (size_t)(e - p));
		buf_tab(o);
		if (i < 5 || i >= NKEYS)
			buf_add(o, p, (size_t)(t - p));
		else
			pylit_field(o, p, (size_t)(t - p));
	}
	buf_emit(gfp, o);
}

/*
 * -g: the first form's rows, sorted as bytes (sort(1) in the C locale,
 * whole lines), each group's rows together: each row as gseq and the
 * fields after its key, gseq numbering the groups as they come; each
 * group's keys once to groups (-g).  Memory: a row and the previous
 * row's group and key.
 */
/*
 * -R: the tail at t (offset TAB length, to e) read from tfd into o, after
 * what o holds.
 */
static void
tailat(int tfd, struct buf *o, const char *t, const char *e,
    const struct rec_reader *r)
{
	const char *m = memchr(t, '\t', (size_t)(e - t));
	int64_t off, len;
	ssize_t n;

	if (m == NULL || num_int64(t, (size_t)(m - t), &off) != 0 ||
	    num_int64(m + 1, (size_t)(e - m - 1), &len) != 0 || off < 0 ||
	    len < 0)
		tl_die("%s: line %zu: no offset and length after the key",
		    r->name, r->lineno);
	if (o->len + (size_t)len + 2 > o->cap)
		buf_grow(o, o->len + (size_t)len + 2);
	n = pread(tfd, o->s + o->len, (size_t)len + 1, (off_t)off);
	if (n != len + 1 || o->s[o->len + (size_t)len] != '\n')
		tl_die("%s: line %zu: no row of %lld bytes at offset %lld in %s",
		    r->name, r->lineno, (long long)len, (long long)off, tails);
	o->len += (size_t)len;
	o->s[o->len] = '\0';
}

static int
number(const char *path)
{
	struct rec_reader r;
	struct buf prev = {0}, o = {0};
	static char iob[TL_IOBUF];	/* gfp's (see io_bigbuf) */
	FILE *fp = io_open(path, "r", NULL), *gfp, *tfp = NULL;
	const char *p, *e, *t, *g = NULL;
	size_t glen, klen, pglen = 0;
	long long gseq = 0;
	int i, st, c, nk, nf;

	rec_open(&r, fp, io_name(path));
	rec_read_header(&r);
	/* (nine keys, or ten with is_recompute) */
	nk = rec_col(&r, "is_recompute") == NKEYS ? NKEYS + 1 : NKEYS;
	/* (-R: the key, then the tail's offset and length) */
	nf = tails ? nk + 3 : nk + 1 + RNF + 1;
	if (r.nhdr != (size_t)nf || rec_need(&r, "key") != nk)
		tl_die("%s: not tl-unified's rows (%zu fields, key not the "
		    "%s)", r.name, r.nhdr, nk > NKEYS ? "eleventh" : "tenth");
	if (tails)
		tfp = tl_fopen(tails, "r");
	gfp = io_open(groupkeys, "w", iob);
	fputs(nk > NKEYS ? "gseq\tname\tcat\tpn\tpl\ttn\td\tt\ts\tc\trc\n" :
	    "gseq\tname\tcat\tpn\tpl\ttn\td\tt\ts\tc\n", gfp);
	fputs("gseq\t" ROWTAIL, stdout);
	while (rec_next(&r)) {
		p = r.cur;
		e = p + r.curlen;
		/* g: the TAB after the group; t: after the key's TAB */
		for (t = p, i = 0; i <= nk; i++, t++) {
			if ((t = memchr(t, '\t', (size_t)(e - t))) == NULL)
				tl_die("%s: line %zu: %d fields, want %d", r.name,
				    r.lineno, i + 1, nf);
			if (i == nk - 1)
				g = t;
		}
		glen = (size_t)(g + 1 - p);
		klen = (size_t)(t - p);
		/* (rn makes every key distinct: each line is after the last) */
		if (gseq > 0) {
			c = memcmp(prev.s, p, prev.len < klen ? prev.len : klen);
			if (c > 0 || (c == 0 && prev.len >= klen))
				tl_die("%s: line %zu: out of order (not sorted as "
				    "bytes)", r.name, r.lineno);
		}
		if (gseq == 0 || glen != pglen || memcmp(prev.s, p, glen) != 0)
			ngroup(gfp, &o, ++gseq, nk, p, p + glen);
		pglen = glen;
		buf_reset(&prev);
		buf_add(&prev, p, klen);
		buf_reset(&o);
		buf_num(&o, gseq);
		buf_tab(&o);
		if (tfp)
			tailat(fileno(tfp), &o, t, e, &r);
		else
			buf_add(&o, t, (size_t)(e - t));
		buf_emit(stdout, &o);
	}
	st = tl_fshut(gfp, groupkeys);
	if (tfp)
		fclose(tfp);
	buf_free(&prev);
	buf_free(&o);
	rec_close(&r);
	fclose(fp);
	return st;
}

/* Whether frame is one _find_entry_point skips as a wrapper. */
static int
iswrapper(const char *f)
{
	static const char *const pre[] = {
		"<built-in", "pybind11_builtins", "nn.Module:"
	};
	static const char *const files[] = {
		"torch/_ops.py", "torch/nn/modules/module.py",
		"torch/utils/_contextlib.py", "torch/utils/_device.py",
		"torch/_tensor.py", "torch/functional.py", "torch/overrides.py",
		"torch/_inductor/", "torch/_functorch/",
		"torch/distributed/c10d_logger.py", "triton/backends/"
	};
	static const char *const funcs[] = {
		"__torch_function__", "_call_impl", "_wrapped_call_impl",
		"decorate_context", "dispatch_wrapper", "handle_torch_function",
		"wrapper", "custom_wrapper", "wrapper_custom", "outer_wrapper"
	};
	const char *p, *fn;
	size_t i;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (strncmp(f, pre[i], strlen(pre[i])) == 0)
			return 1;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (strstr(f, files[i]) != NULL)
			return 1;
	/* (the function: after the last "): ") */
	fn = NULL;
	for (p = f; (p = strstr(p, "): ")) != NULL; p++)
		fn = p + 3;
	if (fn != NULL)
		for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
			if (strcmp(fn, funcs[i]) == 0)
				return 1;
	return 0;
}

/* s lowered as str.lower() lowers ASCII (other letters stay). */
static char *
lower(const char *s)
{
	char *t = tl_strdup(s), *p;

	for (p = t; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return t;
}

/*
 * TraceLens's _find_entry_point: the frame of fr[0..n) (call_stack_full
 * flattened) where the op name dispatches, or "Not found".
 */
static const char *
entry(char **fr, size_t n, const char *name)
{
	const char *p, *ln, *fn, *ret = "Not found";
	char *local, *strip, *lf;
	size_t i, k, len;
	long op = -1;

	for (i = n; i-- > 0;)
		if (strcmp(fr[i], name) == 0) { op = (long)i; break; }
	if (op < 0) {
		/* re.sub(r"_\d+$", "", name) */
		len = strlen(name);
		k = len;
		while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
			k--;
		if (k < len && k > 0 && name[k - 1] == '_') {
			strip = tl_strndup(name, k - 1);
			for (i = n; i-- > 0;)
				if (strcmp(fr[i], strip) == 0) { op = (long)i; break; }
			free(strip);
		}
	}
	if (op < 0)
		return ret;
	ln = name;
	for (p = name; (p = strstr(p, "::")) != NULL; p++)
		ln = p + 2;
	local = lower(ln);
	for (i = (size_t)op + 1; i < n; i++) {
		if (strstr(fr[i], ".py") == NULL)
			continue;
		fn = fr[i];
		for (p = fr[i]; (p = strstr(p, "): ")) != NULL; p++)
			fn = p + 3;
		lf = lower(fn);
		k = strstr(lf, local) != NULL;
		free(lf);
		if (k) { ret = fr[i]; goto out; }
	}
	for (i = (size_t)op; i-- > 0;)
		if (strstr(fr[i], ".py") != NULL && !iswrapper(fr[i])) {
			ret = fr[i];
			goto out;
		}
out:
	free(local);
	return ret;
}

/*
 * -e: the rows (a header, then records) with entry_point after their
 * fields, from name and csflat (call_stack_full's names, each ended by
 * the byte 037: tl-aggregate's kcsflat).
 */
static int
entries(const char *path)
{
	struct rec_reader r;
	FILE *fp;
	struct buf fl = {0};
	char **fr = NULL;
	size_t frcap = 0, nfr, len, i, st;
	const char *s;
	char *name;
	int cn, cf;

	fp = path[0] == '-' && path[1] == '\0' ? stdin : tl_fopen(path, "r");
	rec_open(&r, fp, path);
	rec_read_header(&r);
	cn = rec_need(&r, "name");
	cf = rec_need(&r, "csflat");
	for (i = 0; i < r.nhdr; i++) {
		fputs(r.hdr[i], stdout);
		putchar('\t');
	}
	fputs("entry_point\n", stdout);
	while (rec_read(&r)) {
		s = rec_get(&r, cn, &len);
		name = tl_strndup(s, len);
		len = rec_unescape(name, len);
		name[len] = '\0';
		s = rec_get(&r, cf, &len);
		buf_reset(&fl);
		buf_add(&fl, s, len);
		fl.len = rec_unescape(fl.s ? fl.s : "", len);
		nfr = 0;
		for (i = 0, st = 0; i < fl.len; i++)
			if (fl.s[i] == 037) {
				fl.s[i] = '\0';
				tl_grow((void **)&fr, &frcap, nfr + 1, sizeof(*fr));
				fr[nfr++] = fl.s + st;
				st = i + 1;
			}
		for (i = 0; i < (size_t)r.nf; i++) {
			if (i)
				putchar('\t');
			s = rec_get(&r, (int)i, &len);
			fwrite(s, 1, len, stdout);
		}
		putchar('\t');
		s = entry(fr, nfr, name);
		rec_put(stdout, s, strlen(s));
		putchar('\n');
		free(name);
	}
	free(fr);
	buf_free(&fl);
	rec_close(&r);
	if (fp != stdin)
		fclose(fp);
	return 0;
}

int
main(int argc, char *argv[])
{
	int ch, rflag = 0, wflag = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "R:d:eg:k:o:r:w:y:")) != -1) {
		switch (ch) {
		case 'd': treedir = optarg; break;
		case 'e': eflag = 1; break;
		case 'g': groupkeys = optarg; break;
		case 'k': firstkernels = optarg; break;
		case 'o': durflag = optarg; break;
		case 'r': recomputed = optarg; break;
		case 'R': tails = optarg; rflag = 1; break;
		case 'w': tails = optarg; wflag = 1; break;
		case 'y': morerows = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (rflag && (wflag || groupkeys == NULL)))
		usage(TL_EUSAGE);
	if (eflag) {
		if (treedir || firstkernels || durflag || morerows ||
		    recomputed || groupkeys || tails)
			usage(TL_EUSAGE);
		return entries(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
	}
	if (groupkeys != NULL) {
		if (treedir || firstkernels || durflag || morerows ||
		    recomputed || wflag)
			usage(TL_EUSAGE);
		return number(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
	}
	if (treedir == NULL || firstkernels == NULL)
		usage(TL_EUSAGE);
	return unified(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
