/* See LICENSE file for copyright and license details. */
/*
 * tl-tree -m fwd: sequence records by (sequence number, UID) -> the
 * forward op of every autograd::engine::evaluate_function: node; and
 * -m overlap: GPU events by (pid, stream, ts) -> the count of
 * same-stream overlaps.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"
#include "tree.h"

int
fwd(const struct opts *opt, const char *path)
{
	struct rec_reader r;
	FILE *in = io_open(path, "r", NULL);
	struct buf prev = {0}, group = {0}, bpid = {0}, btid = {0}, b = {0};
	long long bwd = -1, best = -1, uid;
	struct ttv bestts = {-1, -1}, ts, zero = {0, 0};

	rec_open(&r, in, io_name(path));
	for (;;) {
		int more = next(&r, &prev, 1);

		if (!more || !samegroup(&group, &r, 1 + UIDW)) {
			if (bwd >= 0 && best >= 0) {
				key_uid(&b, bwd);
				printf("%s\t%lld\n", b.s, best);
				buf_reset(&b);
			}
			if (!more)
				break;
			setgroup(&group, &r, 1 + UIDW);
			bwd = best = -1;
			bestts.us = -1, bestts.ns = -1;
			want_nf(&r, 5);
			/* evaluate_function nodes sort first: the first one is it */
			if (r.f[0].s[r.f[0].len - 1 - UIDW] == '0') {
				bwd = atoid(r.f[1].s);
				buf_reset(&bpid);
				buf_add(&bpid, r.f[2].s, r.f[2].len);
				buf_reset(&btid);
				buf_add(&btid, r.f[3].s, r.f[3].len);
			}
			continue;
		}
		want_nf(&r, 5);
		if (bwd < 0)
			continue;
		if (strcmp(r.f[2].s, bpid.s) == 0 && strcmp(r.f[3].s, btid.s) == 0)
			continue;
		uid = atoid(r.f[1].s);
		if (r.f[4].len == 0)
			ts = zero;
		else if (tfield(opt->exact, &r, 4, &ts) < 0)
			tl_die("%s: line %zu: bad ts", r.name, r.lineno);
		/* the latest ts wins; on a tie, the first in trace order */
		if (tcmp(opt->exact, &ts, &bestts) > 0 || (best >= 0 &&
		    tcmp(opt->exact, &ts, &bestts) == 0 && uid < best)) {
			best = uid;
			bestts = ts;
		}
	}
	buf_free(&prev);
	buf_free(&group);
	buf_free(&bpid);
	buf_free(&btid);
	buf_free(&b);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return tl_fshut(stdout, "<stdout>");
}

/* ==== overlap ==== */

int
overlap(const char *path)
{
	struct rec_reader r;
	FILE *in = io_open(path, "r", NULL);
	struct buf prev = {0}, group = {0};
	long long count = 0;
	int64_t maxend = 0, ts, end;

	rec_open(&r, in, io_name(path));
	while (next(&r, &prev, 1)) {
		want_nf(&r, 3);
		if (num_int64(r.f[1].s, r.f[1].len, &ts) < 0 ||
		    num_int64(r.f[2].s, r.f[2].len, &end) < 0)
			tl_die("%s: line %zu: bad time", r.name, r.lineno);
		if (!samegroup(&group, &r, TIMEW + UIDW)) {
			setgroup(&group, &r, TIMEW + UIDW);
			maxend = end;
			continue;
		}
		if (ts < maxend)
			count++;
		maxend = MAX(maxend, end);
	}
	fact(stdout, "gpu_events_same_stream_overlap", count);
	buf_free(&prev);
	buf_free(&group);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return tl_fshut(stdout, "<stdout>");
}
