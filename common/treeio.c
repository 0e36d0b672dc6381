/* See LICENSE file for copyright and license details. */
/*
 * treeio.c: the plumbing of tl-tree and of the programs that read its
 * files: streams with big buffers (and /dev/fd/N names), record
 * checks, arenas of fields, interning tables, and UID-sorted side
 * inputs joined as merges.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"

FILE *
io_bigbuf(FILE *fp, char *buf, int writing)
{
	if (buf == NULL || fp == stdin || fp == stdout)
		return fp;
	/* (a file written takes a smaller buffer: see tl_isfile) */
	if (writing && tl_isfile(fileno(fp))) {
		setvbuf(fp, buf, _IOFBF, TL_FILEBUF);
		return fp;
	}
	setvbuf(fp, buf, _IOFBF, TL_IOBUF);
	tl_pipesize(fileno(fp));
	return fp;
}

FILE *
io_open(const char *path, const char *mode, char *buf)
{
	const char *p = path + 8;
	char *end;
	long fd;
	FILE *fp;

	if (strncmp(path, "/dev/fd/", 8) != 0 || *p < '0' || *p > '9')
		return io_bigbuf(tl_fopen(path, mode), buf, *mode != 'r');
	fd = strtol(p, &end, 10);
	if (*end != '\0' || fd > 1024 || (fp = fdopen((int)fd, mode)) == NULL)
		tl_die("%s:", path);
	return io_bigbuf(fp, buf, *mode != 'r');
}

FILE *
io_create(const char *dir, const char *name, char *buf)
{
	struct buf p = {0};
	FILE *fp;

	buf_adds(&p, dir);
	buf_addc(&p, '/');
	buf_adds(&p, name);
	fp = io_bigbuf(tl_fopen(p.s, "w"), buf, 1);
	buf_free(&p);
	return fp;
}

void
want_nf_die(const struct rec_reader *r, size_t nf)
{
	tl_die("%s: line %zu: %zu fields, want %zu", r->name, r->lineno,
	    r->nf, nf);
}

const char *
buf_unesc(struct buf *b, const char *s, size_t len)
{
	buf_reset(b);
	buf_add(b, s, len);
	buf_addc(b, '\0');
	rec_unescape(b->s, len);
	return b->s;
}

/* ---- arenas ---- */

size_t
arena_add(struct arena *a, const char *s, size_t len)
{
	tl_grow((void **)&a->off, &a->cap, a->n + 1, sizeof(*a->off));
	a->off[a->n] = a->b.len;
	buf_add(&a->b, s, len);
	buf_addc(&a->b, '\0');
	return a->n++;
}

void
arena_free(struct arena *a)
{
	buf_free(&a->b);
	free(a->off);
	a->off = NULL;
	a->n = a->cap = 0;
}

/* ---- interning tables ---- */

/* The slot of key in st (whose cap is not 0): its own, or a free one. */
static struct strent *
strtab_slot(const struct strtab *st, const char *key, size_t len)
{
	size_t h = 5381, i;
	struct strent *s;

	for (i = 0; i < len; i++)
		h = h * 33 + (unsigned char)key[i];
	for (i = h & (st->cap - 1);; i = (i + 1) & (st->cap - 1)) {
		s = &st->t[i];
		if (s->key == NULL || (s->len == len &&
		    memcmp(s->key, key, len) == 0))
			return s;
	}
}

long
strtab_get(struct strtab *st, const char *key, size_t len)
{
	struct strent *s;
	size_t i;

	if (st->n * 2 >= st->cap) {
		struct strtab nt = {0};

		nt.cap = st->cap ? st->cap * 2 : 64;
		nt.t = tl_calloc(nt.cap, sizeof(*nt.t));
		for (i = 0; i < st->cap; i++)
			if (st->t[i].key)
				*strtab_slot(&nt, st->t[i].key, st->t[i].len) =
				    st->t[i];
		nt.n = st->n;
		free(st->t);
		*st = nt;
	}
	s = strtab_slot(st, key, len);
	if (s->key == NULL) {
		s->key = tl_strndup(key, len);
		s->len = len;
		s->idx = (long)st->n++;
	}
	return s->idx;
}

void
strtab_free(struct strtab *st)
{
	size_t i;

	for (i = 0; i < st->cap; i++)
		free(st->t[i].key);
	free(st->t);
	st->t = NULL;
	st->cap = st->n = 0;
}

/* ---- UID-sorted side inputs ---- */

void
uside_next(struct uside *s)
{
	long long prev = s->uid;

	if (!rec_read(&s->r)) {
		s->uid = -1;
		return;
	}
	if (s->nf > 0)
		want_nf(&s->r, s->nf);
	if (s->keyed && s->r.f[0].len != UIDW)
		tl_die("%s: line %zu: bad key", s->r.name, s->r.lineno);
	s->uid = s->keyed ? key_uidat(s->r.f[0].s) : atoid(s->r.f[0].s);
	if (s->uid <= prev)
		tl_die("%s: line %zu: out of order (UID %lld after %lld)",
		    s->r.name, s->r.lineno, s->uid, prev);
}

void
uside_open(struct uside *s, const char *path, size_t nf, int keyed, char *buf)
{
	s->fp = io_open(path, "r", buf);
	rec_open(&s->r, s->fp, path);
	s->nf = nf;
	s->keyed = keyed;
	s->uid = -1;
	uside_next(s);
}

void
uside_openh(struct uside *s, const char *path, const char *ucol)
{
	s->fp = io_open(path, "r", NULL);
	rec_open(&s->r, s->fp, path);
	rec_read_header(&s->r);
	uside_keyfirst(&s->r, ucol);
	s->nf = s->r.nhdr;
	s->keyed = 0;
	s->uid = -1;
	uside_next(s);
}

void
uside_keyfirst(const struct rec_reader *r, const char *ucol)
{
	if (rec_col(r, ucol) != 0)
		tl_die("%s: its first column is not '%s'", r->name, ucol);
}

void
uside_stray(const struct uside *s)
{
	tl_die("%s: line %zu: UID %lld is not an event of the trace",
	    s->r.name, s->r.lineno, s->uid);
}

void
uside_close(struct uside *s)
{
	if (s->uid >= 0)
		uside_stray(s);
	uside_free(s);
}

void
uside_free(struct uside *s)
{
	rec_close(&s->r);
	fclose(s->fp);
}

int
ujoin_at(struct ujoin *j, long long op)
{
	long long prev;
	const char *t;
	size_t len;

	while (!j->have || j->uid < op) {
		prev = j->have ? j->uid : -1;
		j->have = 1;
		if (!(j->raw ? rec_next(&j->r) : rec_read(&j->r))) {
			j->uid = LLONG_MAX;
			break;
		}
		if (j->raw) {
			t = memchr(j->r.cur, '\t', j->r.curlen);
			len = t ? (size_t)(t - j->r.cur) : j->r.curlen;
			j->uid = tl_uidof(&j->r, j->r.cur, len);
		} else
			j->uid = tl_uidof(&j->r, j->r.f[0].s, j->r.f[0].len);
		if (j->uid < prev || (j->uid == prev && !j->dups))
			tl_die("%s: line %zu: out of order (UID %lld after %lld)",
			    j->r.name, j->r.lineno, j->uid, prev);
	}
	return j->uid == op;
}

/* c, an ASCII capital lowered (the C locale's tolower, inline). */
static inline int
lc_(char c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

/*
 * TraceLens's communication kernels (is_communication_string): nccl,
 * rccl or cross_device_reduce in any case.  One pass: each holds a 'c'.
 */
int
tl_iscomm(const char *s, size_t len)
{
	static const char xdr[] = "cross_device_reduce";
	const char *lc = memchr(s, 'c', len), *uc = memchr(s, 'C', len), *p;
	size_t i, j;

	/* (only at a c: memchr finds them far faster than a loop could) */
	while (lc != NULL || uc != NULL) {
		p = uc == NULL || (lc != NULL && lc < uc) ? lc : uc;
		i = (size_t)(p - s);
		if (p == lc)
			lc = memchr(p + 1, 'c', len - i - 1);
		else
			uc = memchr(p + 1, 'C', len - i - 1);
		if (i > 0 && i + 2 < len && lc_(s[i + 1]) == 'c' &&
		    lc_(s[i + 2]) == 'l' &&
		    (lc_(s[i - 1]) == 'n' || lc_(s[i - 1]) == 'r'))
			return 1;
		for (j = 0; j < sizeof(xdr) - 1 && i + j < len &&
		    lc_(s[i + j]) == xdr[j]; j++)
			;
		if (j == sizeof(xdr) - 1)
			return 1;
	}
	return 0;
}

/* The linked field is 1, as awk's $f == 1 compares a number. */
int
tl_islinked(const char *s, size_t len)
{
	double d;

	return len > 0 && num_double(s, len, &d) == 0 && d == 1;
}

/* A UID field s[0..len) of r's line, a whole number, or a one-line death. */
long long
tl_uidof(const struct rec_reader *r, const char *s, size_t len)
{
	int64_t v;

	if (num_int64(s, len, &v) != 0)
		tl_die("%s: line %zu: UID is not a whole number: %.*s",
		    r->name, r->lineno, (int)MIN(len, 40), s);
	return v;
}
