/* See LICENSE file for copyright and license details. */
/*
 * tl-parse/input.c: the -P progress lines, and the gzip inflater thread
 * (input.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <isa-l/igzip_lib.h>

#include "tl.h"
#include "input.h"

#define PROGNS 250000000L	/* -P: at most one line in this many ns */

/*
 * -P: n more bytes of the trace read.  A line "read ID BYTES SIZE"
 * goes out at the first call, at most every PROGNS after, and with
 * last set; it is dropped rather than waited for (a full fifo), and a
 * failed write is no error: progress is for the eye.
 */
void
progress(struct progress *p, size_t n, int last)
{
	struct timespec now;
	char line[128];
	int len;

	p->read += n;
	if (p->fd < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!last && (p->last.tv_sec != 0 || p->last.tv_nsec != 0) &&
	    (now.tv_sec - p->last.tv_sec) * 1000000000L +
	    (now.tv_nsec - p->last.tv_nsec) < PROGNS)
		return;
	p->last = now;
	len = snprintf(line, sizeof(line), "read\t%s\t%" PRIu64 "\t%s\n",
	    p->id, p->read, p->size);
	if (write(p->fd, line, (size_t)len) < 0)
		return;
}

/* -P: a new trace, the i-th operand, on fd. */
void
progressinit(struct progress *p, int fd, int i)
{
	struct stat st;

	p->read = 0;
	p->last.tv_sec = p->last.tv_nsec = 0;
	snprintf(p->id, sizeof(p->id), "%ld.%d", (long)getpid(), i + 1);
	p->size[0] = '\0';
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		snprintf(p->size, sizeof(p->size), "%lld", (long long)st.st_size);
}

/* -P's file: opened once; none when it is a fifo nobody reads. */
int
progressopen(const char *path)
{
	int fd;

	if (path == NULL)
		return -1;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC,
	    0666);
	if (fd < 0 && errno != ENXIO)
		tl_die("-P: %s:", path);
	return fd;
}

static void
slotput(struct gz *g, struct slot *sl)
{
	pthread_mutex_lock(&g->mu);
	sl->full = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* ISA-L's inflate errors, in zlib's words where zlib has them. */
static const char *
isalerr(int r)
{
	switch (r) {
	case ISAL_INVALID_BLOCK:
		return "invalid block type";
	case ISAL_INVALID_SYMBOL:
		return "invalid literal/length or distance code";
	case ISAL_INVALID_LOOKBACK:
		return "invalid distance too far back";
	case ISAL_INVALID_WRAPPER:
		return "incorrect header check";
	case ISAL_UNSUPPORTED_METHOD:
		return "unknown compression method";
	case ISAL_INCORRECT_CHECKSUM:
		return "incorrect data check";
	default:
		return "gzip data error";
	}
}

/*
 * The inflater thread: fills the slots in turn until the stream ends.
 * ISA-L's inflate (igzip), which checks each member's CRC and length as
 * gzip -t does, in a third of zlib's instructions.
 */
static void *
inflater(void *arg)
{
	struct gz *g = arg;
	struct slot *sl;
	struct inflate_state *z = tl_malloc(sizeof(*z));
	ssize_t r;
	uint32_t inl, outl;
	int i, zr, ended = 0, last = 0, padded = 0;

	isal_inflate_init(z);
	z->crc_flag = ISAL_GZIP;
	z->next_in = g->in;
	z->avail_in = (uint32_t)g->inlen;
	for (i = 0; !last; i = (i + 1) % SLOTS) {
		sl = &g->slot[i];
		pthread_mutex_lock(&g->mu);
		while (sl->full)
			pthread_cond_wait(&g->cv, &g->mu);
		pthread_mutex_unlock(&g->mu);
		z->next_out = (uint8_t *)sl->b;
		z->avail_out = SLOTSZ;
		while (z->avail_out > 0 && !last) {
			if (z->avail_in == 0) {
				while ((r = read(g->fd, g->in, ZINBUF)) < 0 &&
				    errno == EINTR)
					;
				if (r < 0) {
					sl->errnum = errno;
					last = 1;
				} else if (r > 0) {
					progress(g->pr, (size_t)r, 0);
				} else {
					if (!ended) {
						sl->err = "unexpected end of "
						    "gzip data (truncated?)";
						sl->trunc = 1;
					}
					last = 1;
				}
				z->next_in = g->in;
				z->avail_in = r > 0 ? (uint32_t)r : 0;
				continue;
			}
			if (ended && (padded || z->next_in[0] == 0)) {
				/* Zeros to the end, as gzip -t allows (tar pads so). */
				padded = 1;
				while (z->avail_in > 0 && z->next_in[0] == 0) {
					z->next_in++;
					z->avail_in--;
				}
				if (z->avail_in == 0)
					continue;
				sl->err = "trailing garbage after gzip data";
				last = 1;
				continue;
			}
			if (ended) {
				/* Another gzip member, as gzip -d allows. */
				if (z->next_in[0] != 0x1f || (z->avail_in > 1 &&
				    z->next_in[1] != 0x8b)) {
					sl->err = "trailing garbage after "
					    "gzip data";
					last = 1;
					continue;
				}
				isal_inflate_reset(z);
				z->crc_flag = ISAL_GZIP;
				ended = 0;
			}
			inl = z->avail_in;
			outl = z->avail_out;
			zr = isal_inflate(z);
			if (zr != ISAL_DECOMP_OK) {
				sl->err = isalerr(zr);
				last = 1;
			} else if (z->block_state == ISAL_BLOCK_FINISH) {
				ended = 1;
			} else if (z->avail_in == inl && z->avail_out == outl) {
				/* (no progress with input and room: never loop) */
				sl->err = isalerr(zr);
				last = 1;
			}
		}
		sl->len = SLOTSZ - z->avail_out;
		sl->last = last;
		slotput(g, sl);
	}
	free(z);
	return NULL;
}

void
gz_start(struct gz *g, int fd, const char *buf, size_t n, struct progress *pr)
{
	int i;

	memset(g, 0, sizeof(*g));
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	for (i = 0; i < SLOTS; i++)
		g->slot[i].b = tl_malloc(SLOTSZ);
	g->fd = fd;
	g->pr = pr;
	g->in = tl_malloc(MAX(n, ZINBUF));
	g->inlen = n;
	memcpy(g->in, buf, n);
	if ((errno = pthread_create(&g->th, NULL, inflater, g)) != 0)
		tl_die("pthread_create:");
}

struct slot *
gz_next(struct gz *g)
{
	struct slot *sl;

	if ((sl = g->cur) != NULL) {
		if (sl->last)
			return NULL;
		pthread_mutex_lock(&g->mu);
		sl->full = 0;
		pthread_cond_broadcast(&g->cv);
		pthread_mutex_unlock(&g->mu);
	}
	sl = &g->slot[g->next];
	g->next = (g->next + 1) % SLOTS;
	pthread_mutex_lock(&g->mu);
	while (!sl->full)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
	return g->cur = sl;
}

struct slot *
gz_end(struct gz *g)
{
	pthread_join(g->th, NULL);
	return g->cur;
}

void
gz_free(struct gz *g)
{
	int i;

	for (i = 0; i < SLOTS; i++)
		free(g->slot[i].b);
	free(g->in);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}
