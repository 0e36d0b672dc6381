/* See LICENSE file for copyright and license details. */
/*
 * tl-meta: where each trace was recorded: the number of GPUs of its
 * node (deviceProperties) and its rank and world size
 * (distributedInfo), one record per trace.  See tl-meta(1).
 *
 * It reads no more of a trace than it needs (common/tmeta.c), and
 * does not check the JSON: tl-parse does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "tl.h"
#include "rocprof.h"
#include "tmeta.h"

#define CHUNK (64 << 10)	/* bytes read at a time */

static void
usage(int status)
{
	fputs("usage: tl-meta [-t] [trace ...]\n", status ? stderr : stdout);
	exit(status);
}

/*
 * Skim one trace, plain or gzip, and write its record: with top, the
 * kind of its top-level value alone (TraceLens reads only an object).
 */
static void
meta(const char *path, char *buf, int top)
{
	struct tmeta s;
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	const char *msg;
	char num[32];
	gzFile z;
	int n = 0, zerr, rp = 0, first = 1;
	size_t bom;

	errno = 0;
	z = strcmp(path, "-") == 0 ? gzdopen(dup(STDIN_FILENO), "rb") :
	    gzopen(path, "rb");
	if (z == NULL)
		tl_die("%s:", name);
	tmeta_init(&s);
	/* (-t: the first bytes tell; an object is not read through) */
	while (!s.done && !(top && s.top != 0) &&
	    (n = gzread(z, buf, CHUNK)) > 0) {
		/* -t: rocprofv3 results, told as tl-parse tells them: by
		 * their first key, in the first bytes after a byte order
		 * mark (gzread fills the chunk but at the end) */
		if (top && first) {
			bom = n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
			rp = rp_sniff(buf + bom, (size_t)n - bom) == 1;
			first = 0;
		}
		tmeta_feed(&s, buf, (size_t)n);
	}
	if (!s.done && n < 0) {
		msg = gzerror(z, &zerr);
		if (zerr == Z_ERRNO)
			tl_die("%s:", name);
		/* (zlib puts the path first) */
		if (strncmp(msg, path, strlen(path)) == 0 &&
		    strncmp(msg + strlen(path), ": ", 2) == 0)
			msg += strlen(path) + 2;
		tl_die("%s: gzip data: %s", name, msg);
	}
	gzclose(z);
	rec_puts(stdout, path);
	putchar('\t');
	if (top) {
		puts(rp ? "rocprofv3" : s.top == '{' ? "object" :
		    s.top == '[' ? "array" : "");
		return;
	}
	if (s.ndev >= 0) {
		snprintf(num, sizeof(num), "%lld", (long long)s.ndev);
		fputs(num, stdout);
	}
	putchar('\t');
	rec_puts(stdout, s.rank);
	putchar('\t');
	rec_puts(stdout, s.world);
	putchar('\n');
}

int
main(int argc, char *argv[])
{
	static const char *const hdr[] = {
		"trace", "devices", "rank", "world_size"
	};
	static const char *const thdr[] = { "trace", "top" };
	char *buf;
	int c, i, top = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "ht")) != -1) {
		switch (c) {
		case 't':
			top = 1;
			break;
		case 'h':
			usage(TL_OK);
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	buf = tl_malloc(CHUNK);
	if (top)
		rec_write(stdout, thdr, LEN(thdr));
	else
		rec_write(stdout, hdr, LEN(hdr));
	if (argc == 0)
		meta("-", buf, top);
	for (i = 0; i < argc; i++)
		meta(argv[i], buf, top);
	free(buf);
	return tl_fshut(stdout, "<stdout>");
}
