/* See LICENSE file for copyright and license details. */
/*
 * tl-mkfifo: make directories, then fifos, as mkdir(1) and mkfifo(1)
 * make them, in one process.  The scripts make their work directories
 * and fifos with it: coreutils' mkdir and mkfifo load libselinux and
 * libpcre2 (a run, fork included, 1.5 ms of CPU here against 1.2 for
 * a program that needs only libc), and a run of it makes both kinds
 * at once, without the subshell of a cd.  See tl-mkfifo(1).
 */
#include <sys/stat.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "tl.h"

static void
usage(int status)
{
	fputs("usage: tl-mkfifo [-d dir]... [fifo ...]\n",
	    status ? stderr : stdout);
	exit(status);
}

int
main(int argc, char *argv[])
{
	int c, i;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	/* (each -d made as it comes, before any fifo: a directory before
	 * the ones in it) */
	while ((c = getopt(argc, argv, "d:")) != -1) {
		switch (c) {
		case 'd':
			if (mkdir(optarg, 0777) != 0)
				tl_die("%s:", optarg);
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	for (i = optind; i < argc; i++)
		if (mkfifo(argv[i], 0666) != 0)
			tl_die("%s:", argv[i]);
	return 0;
}
