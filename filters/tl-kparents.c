/* See LICENSE file for copyright and license details. */
/*
 * tl-kparents: each kernel with what kernel_summary groups it by, from
 * the tree stage's kernels.tsv in cpu_op order: its parent op's
 * category (TraceLens's categorizer, by the cpu_op's name and first
 * kernel, from the launchers' k1s), its parent cpu_op, or for a linked
 * kernel without one its runtime call's "graph" or "runtime".  The
 * join with the k1s is a merge (ujoin): both come by UID.  Memory: one
 * record of each.  tl-kparents(1) gives the format.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "opcat.h"
#include "treeio.h"

static int runtime;	/* -r: a runtime's name as pcpu, for want of a cpu_op */

/* kernels.tsv's columns, in the order of cols[] */
enum { CCPU, CUID, CCPUNAME, CRTNAME, CLINKED, CNAME, CSTREAM, CDUR,
    CDIMS, CSTRIDES, CCONCRETE, NCOL };
static const char *const cols[NCOL] = {
	"cpu_op", "UID", "cpu_op_name", "runtime_name", "linked", "name",
	"stream", "dur", "dims", "strides", "concrete"
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-kparents [-r] [-u facts] -k k1s [kernels]\n");
	exit(status);
}

/* r's cpu_op column c as a whole number. */
static long long
cpuof(const struct rec_reader *r, int c)
{
	size_t len;
	const char *s = rec_get(r, c, &len);
	int64_t v;

	if (num_int64(s, len, &v) != 0)
		tl_die("%s: line %zu: cpu_op is not a whole number", r->name,
		    r->lineno);
	return v;
}

/*
 * The k1 (column ck1) of op (a copy, unescaped), or NULL when it has
 * none: the k1s (UID k1, with a header, by UID) merged as the ops ascend.
 */
static char *
k1of(struct ujoin *k, int ck1, long long op)
{
	const char *s;
	char *t;
	size_t len;

	if (!ujoin_at(k, op))
		return NULL;
	s = rec_get(&k->r, ck1, &len);
	if (len == 0)
		return NULL;
	t = tl_strndup(s, len);
	rec_unescape(t, len);
	return t;
}

/* A linked kernel's runtime call: a CUDA graph's launch, or another
 * (its name holds cudagraph or graphlaunch, ASCII case ignored). */
static const char *
rtcat(const char *s, size_t len)
{
	static const char *const pat[] = { "cudagraph", "graphlaunch" };
	size_t i, j, m, n;

	for (i = 0; i < LEN(pat); i++) {
		n = strlen(pat[i]);
		for (j = 0; j + n <= len; j++) {
			/* (c | 0x20 is c's lower case when c is a letter,
			 * and no non-letter becomes one) */
			for (m = 0; m < n && (s[j + m] | 0x20) == pat[i][m]; m++)
				;
			if (m == n)
				return "graph";
		}
	}
	return "runtime";
}

static int
kparents(const char *path, const char *k1path, const char *facts)
{
	struct rec_reader r;
	struct ujoin k = {0};
	FILE *in = tl_fopen(path, "r"), *kf = tl_fopen(k1path, "r");
	struct buf cat = {0}, b = {0};
	int c[NCOL], ck1, ordered = 1;
	long long u, p = 0;
	int havep = 0;
	size_t i, len, plen;
	const char *s, *pc, *pu;

	rec_open(&r, in, path);
	rec_read_header(&r);
	for (i = 0; i < NCOL; i++)
		c[i] = rec_need(&r, cols[i]);
	rec_open(&k.r, kf, k1path);
	rec_read_header(&k.r);
	uside_keyfirst(&k.r, "UID");
	ck1 = rec_need(&k.r, "k1");
	while (rec_read(&r)) {
		s = rec_get(&r, c[CCPU], &len);
		if (len > 0) {
			u = cpuof(&r, c[CCPU]);
			if (havep && u < p) {
				if (facts == NULL)
					tl_die("%s: line %zu: cpu_op %lld after %lld: "
					    "not in cpu_op order", path, r.lineno, u, p);
				ordered = 0;
				break;
			}
			if (!havep || u != p) {
				char *nm, *kn = k1of(&k, ck1, u);

				s = rec_get(&r, c[CCPUNAME], &len);
				nm = tl_strndup(s, len);
				rec_unescape(nm, len);
				buf_reset(&cat);
				buf_adds(&cat, opcat(nm, kn));
				free(nm);
				free(kn);
			}
			p = u, havep = 1;
			pc = cat.s;
			pu = rec_get(&r, c[CCPUNAME], &plen);
		} else if (s = rec_get(&r, c[CLINKED], &len), tl_islinked(s, len)) {
			s = rec_get(&r, c[CRTNAME], &len);
			pc = rtcat(s, len);
			pu = runtime ? s : "";
			plen = runtime ? len : 0;
		} else
			pc = pu = "", plen = 0;
		buf_reset(&b);
		s = rec_get(&r, c[CUID], &len);
		buf_add(&b, s, len);
		buf_addc(&b, '\t');
		rec_bput(&b, pc, strlen(pc));
		buf_addc(&b, '\t');
		buf_add(&b, pu, plen);
		for (i = CNAME; i < NCOL; i++) {
			buf_addc(&b, '\t');
			if (i == CDIMS) {
				s = rec_get(&r, c[CUID], &len);
				buf_add(&b, s, len);
				buf_addc(&b, '\t');
			}
			s = rec_get(&r, c[i], &len);
			buf_add(&b, s, len);
		}
		buf_addc(&b, '\n');
		fwrite(b.s, 1, b.len, stdout);
	}
	if (facts != NULL) {
		FILE *fp = tl_fopen(facts, "w");

		fprintf(fp, "kparents_uid=%d\n", ordered);
		if (tl_fshut(fp, facts) != TL_OK)
			return TL_EDATA;
	}
	buf_free(&cat);
	buf_free(&b);
	rec_close(&r);
	rec_close(&k.r);
	if (in != stdin)
		fclose(in);
	fclose(kf);
	return TL_OK;
}

int
main(int argc, char *argv[])
{
	const char *k1path = NULL, *facts = NULL;
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "k:ru:")) != -1) {
		switch (ch) {
		case 'k': k1path = optarg; break;
		case 'r': runtime = 1; break;
		case 'u': facts = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || k1path == NULL)
		usage(TL_EUSAGE);
	return kparents(argc ? argv[0] : "-", k1path, facts) |
	    tl_fshut(stdout, "<stdout>");
}
