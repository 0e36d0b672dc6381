/* See LICENSE file for copyright and license details. */
/* Diagnostics, checked allocation and file helpers shared by every program. */
#define _GNU_SOURCE	/* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tl.h"

static const char *progname = "tl";	/* basename of argv[0], set once */

/* A reader that went away (| head) ends us quietly with status 0. */
static void
onpipe(int sig)
{
	(void)sig;
	_exit(TL_OK);
}

void
tl_setprogname(const char *argv0)
{
	static char inbuf[TL_IOBUF], outbuf[TL_IOBUF];	/* stdio's, for life */
	const char *p;

	signal(SIGPIPE, onpipe);
	/*
	 * The filters talk through pipes, where stdio's 4 KiB buffers
	 * would cost two system calls and a wakeup of the other end
	 * every 4 KiB.  (A terminal keeps its line buffering.)
	 */
	/* (glibc ignores the size unless given the buffer, and at exit
	 * lets go of a buffer it was given: static ones are never lost) */
	setvbuf(stdin, inbuf, _IOFBF, sizeof(inbuf));
	if (tl_isfile(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, TL_FILEBUF);
	else if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	tl_pipesize(STDIN_FILENO);
	tl_pipesize(STDOUT_FILENO);
	if (argv0 == NULL)
		return;
	p = strrchr(argv0, '/');
	progname = p ? p + 1 : argv0;
}

/*
 * A file, not a pipe, takes a buffer of TL_FILEBUF (64 KiB): on a VM
 * that hands free memory back to its host (virtio-balloon free page
 * reporting), ext4 fills the page cache of a large write with large
 * folios, which come from the memory the host took back, and writing
 * 200 MB there in 256 KiB writes costs 0.55 s of system time against
 * 0.17 s in 4 KiB ones.  64 KiB writes are cheaper than either: a
 * 156 MB file (dd, page-cached source, 5 runs each) took 0.12 s of
 * system time in 4 KiB writes, 0.05 in 16 KiB, 0.03 in 64 KiB, and
 * 0.06 to 0.45 (0.14 to 0.17 on average) in 128 or 256 KiB ones.
 */
int
tl_isfile(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

void
tl_pipesize(int fd)
{
	struct stat st;

	/*
	 * In a pipe of the kernel's 64 KiB, the writer fills it in a
	 * fraction of the reader's time slice: the two ends then take
	 * turns, a wakeup per 64 KiB, and a two-stage pipeline runs at
	 * the speed of one core.  1 MiB lets them run side by side
	 * (tl-parse | tl-tree -m split: 0.9 s to 0.55 s on 450 MB).
	 * Best effort: past the user's pipe quota the kernel says no,
	 * and 64 KiB is still correct.
	 */
#ifdef F_SETPIPE_SZ
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    fcntl(fd, F_GETPIPE_SZ) < TL_PIPESZ)
		(void)fcntl(fd, F_SETPIPE_SZ, TL_PIPESZ);
#else
	(void)fd;
	(void)st;
#endif
}

const char *
tl_progname(void)
{
	return progname;
}

static void
vwarn(const char *fmt, va_list ap)
{
	int saved = errno;
	size_t n = strlen(fmt);

	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

void
tl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
tl_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(TL_EDATA);
}

void
tl_usage_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(TL_EUSAGE);
}

void *
tl_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		tl_die("out of memory");
	return p;
}

void *
tl_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		tl_die("out of memory");
	return p;
}

void *
tl_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		tl_die("out of memory");
	return p;
}

void
tl_grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (n < need) {
		if (n > SIZE_MAX / 2 / sz)
			tl_die("out of memory");
		n *= 2;
	}
	*p = tl_realloc(*p, n * sz);
	*cap = n;
}

char *
tl_strdup(const char *s)
{
	return tl_strndup(s, strlen(s));
}

char *
tl_strndup(const char *s, size_t n)
{
	char *p = tl_malloc(n + 1);

	/* (s may be NULL when n is 0: an empty field never read) */
	if (n > 0)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

FILE *
tl_fopen(const char *path, const char *mode)
{
	FILE *fp;

	if (strcmp(path, "-") == 0)
		return mode[0] == 'r' ? stdin : stdout;
	if ((fp = fopen(path, mode)) == NULL)
		tl_die("%s:", path);
	return fp;
}

int
tl_fshut(FILE *fp, const char *name)
{
	int bad = 0;

	if (fflush(fp) == EOF)
		bad = 1;
	if (ferror(fp))
		bad = 1;
	if (fclose(fp) == EOF)
		bad = 1;
	if (bad) {
		/* A reader that went away is not our failure (see tl(7)). */
		if (errno == EPIPE)
			return TL_OK;
		tl_warn("%s: write error:", name);
		return TL_EDATA;
	}
	return TL_OK;
}

long long
tl_strtonum(const char *s, long long min, long long max, const char *what)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || v < min || v > max)
		tl_usage_die("%s: invalid value '%s' (want %lld to %lld)",
		    what, s, min, max);
	return v;
}

void
tl_longopts(int argc, char *argv[], void (*usage)(int))
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return;
		if (strcmp(argv[i], "--help") == 0)
			usage(TL_OK);
		if (strcmp(argv[i], "--version") == 0) {
			printf("%s %s\n", progname, TL_VERSION);
			exit(tl_fshut(stdout, "<stdout>"));
		}
	}
}
