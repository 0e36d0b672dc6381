/* See LICENSE file for copyright and license details. */
/*
 * tl-coll -p: the all_to_allv heatmap, from the pairs sorted by
 * src_rank, dst_rank.
 */
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "stages.h"

void
heatmap(void)
{
	struct rec_reader r;
	const char *s;
	size_t len;
	long src = -1, dst = -1, a, b;
	int64_t tot = 0, cnt = 0, v;
	char t1[40], t2[40];
	int any = 0;

	rec_open(&r, stdin, "<stdin>");
	rec_read_header(&r);
	for (;;) {
		int more = rec_read(&r);

		if (more) {
			s = rec_get(&r, 0, &len);
			a = fieldlong(s, len, "src_rank", "<stdin>", r.lineno);
			s = rec_get(&r, 1, &len);
			b = fieldlong(s, len, "dst_rank", "<stdin>", r.lineno);
			s = rec_get(&r, 2, &len);
			if (num_int64(s, len, &v) < 0)
				tl_die("<stdin>: line %zu: bad byte count",
				    r.lineno);
			if (a < src || (a == src && b < dst))
				tl_die("<stdin>: line %zu: not sorted by "
				    "src_rank, dst_rank", r.lineno);
		}
		if ((!more || a != src || b != dst) && cnt > 0) {
			double mb = (double)tot / 1048576.0;

			if (!any++)
				puts("src_rank,dst_rank,total_sent_MB,"
				    "avg_sent_MB,count");
			printf("%ld,%ld,%s,%s,%lld\n", src, dst,
			    num_pyrepr(mb, t1, sizeof(t1)),
			    num_pyrepr(mb / (double)cnt, t2, sizeof(t2)),
			    (long long)cnt);
			tot = cnt = 0;
		}
		if (!more)
			break;
		src = a;
		dst = b;
		tot += v;
		cnt++;
	}
	rec_close(&r);
}
