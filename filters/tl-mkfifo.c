/* See LICENSE file for copyright and license details. */
/*
 * tl-mkfifo: make directories, then fifos, as mkdir(1) and mkfifo(1)
 * make them, and unique directories as mktemp -d makes them, in one
 * process.  The scripts make their work directories and fifos with it:
 * coreutils' mkdir, mkfifo and mktemp load libselinux and libpcre2 (a
 * run, fork included, 1.5 ms of CPU here against 0.4 for a static
 * program), and a run of it makes all kinds at once, without the
 * subshell of a cd.  See tl-mkfifo(1).
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

static void
usage(int status)
{
	fputs("usage: tl-mkfifo [-d dir]... [-o pid] [-t template]... [fifo ...]\n",
	    status ? stderr : stdout);
	exit(status);
}

/*
 * The owner mark of a directory made by -t: the host's name, the PID
 * namespace ("-" when unknown) and pid, a line each, as the scripts'
 * sweep reads them (tl-lib.sh, _tl_sweep): a later run on the same
 * host and namespace removes the directory once pid has gone.  Not
 * written on a full disk, or any failure: the directory is then kept.
 */
static void
mark(const char *dir, const char *pid)
{
	struct utsname u;
	char ns[256], path[4096];
	ssize_t n;
	FILE *fp;

	if (uname(&u) != 0)
		return;
	if ((n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1)) < 0)
		n = snprintf(ns, sizeof(ns), "-");
	ns[n] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/.tl-owner", dir) >= sizeof(path) ||
	    (fp = fopen(path, "w")) == NULL)
		return;
	fprintf(fp, "%s\n%s\n%s\n", u.nodename, ns, pid);
	if (fclose(fp) != 0)
		unlink(path);
}

int
main(int argc, char *argv[])
{
	const char *owner = NULL;
	char *t;
	int c, i;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	/* (each -d and -t made as it comes, before any fifo: a directory
	 * before the ones in it; -o for the -t after it) */
	while ((c = getopt(argc, argv, "d:o:t:")) != -1) {
		switch (c) {
		case 'd':
			if (mkdir(optarg, 0777) != 0)
				tl_die("%s:", optarg);
			break;
		case 'o':
			if (optarg[0] == '\0' || optarg[strspn(optarg, "0123456789")] != '\0')
				usage(TL_EUSAGE);
			owner = optarg;
			break;
		case 't':
			t = tl_strdup(optarg);
			if (mkdtemp(t) == NULL)
				tl_die("%s:", optarg);
			if (owner != NULL)
				mark(t, owner);
			puts(t);
			free(t);
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	for (i = optind; i < argc; i++)
		if (mkfifo(argv[i], 0666) != 0)
			tl_die("%s:", argv[i]);
	return tl_fshut(stdout, "<stdout>");
}
