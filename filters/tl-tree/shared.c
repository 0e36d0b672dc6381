/* See LICENSE file for copyright and license details. */
/*
 * tl-tree: what two or more of its modes call (tree.h): tests of event
 * names and categories, the grouping key of a value, times, internal
 * records read in key order, and the lines of the events split lazily.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"
#include "tree.h"

/* s holds t (of length tl), as Python's "t in s". */
int
holds(const char *s, size_t len, const char *t, size_t tl)
{
	const char *p = s;

	while (len - (size_t)(p - s) >= tl &&
	    (p = memchr(p, t[0], len - (size_t)(p - s) - tl + 1)) != NULL) {
		if (memcmp(p, t, tl) == 0)
			return 1;
		p++;
	}
	return 0;
}

/*
 * TraceLens's recompute roots (_detect_recompute_events): python
 * functions whose name holds both torch/utils/checkpoint.py and
 * recompute_fn.
 */
int
isrecompute(const char *name, size_t len)
{
	static const char file[] = "torch/utils/checkpoint.py";
	static const char fn[] = "recompute_fn";

	return holds(name, len, file, sizeof(file) - 1) &&
	    holds(name, len, fn, sizeof(fn) - 1);
}

/*
 * Append to b, after a comma when b is not empty, the JSON string of
 * the host event name (record-escaped, len bytes) as a frame of
 * TraceLens's call stacks (collect_unified_perf_events): a cpu_op's
 * (cpuop), or one whose name holds "nn.Module", "::" or "/", with
 * re.sub(r"_\d+", "", name); 0 (b untouched) for the others.
 */
int
csname(struct buf *b, const char *name, size_t len, int cpuop)
{
	char *t;
	size_t n, i, j;

	if (!cpuop && !holds(name, len, "nn.Module", 9) &&
	    !holds(name, len, "::", 2) && !holds(name, len, "/", 1))
		return 0;
	t = tl_strndup(name, len);
	n = rec_unescape(t, len);
	/* (ASCII digits: Python's \d also takes other scripts' digits) */
	for (i = j = 0; i < n; i++) {
		if (t[i] == '_' && i + 1 < n && t[i + 1] >= '0' &&
		    t[i + 1] <= '9') {
			for (i++; i + 1 < n && t[i + 1] >= '0' &&
			    t[i + 1] <= '9'; i++)
				;
			continue;
		}
		t[j++] = t[i];
	}
	if (b->len > 0)
		buf_addc(b, ',');
	json_str(b, t, j);
	free(t);
	return 1;
}

/* The categories of GPU events. */
int
gpucat(const char *cat, size_t len)
{
	return fld_eq(cat, len, "kernel") || fld_eq(cat, len, "gpu_memcpy") ||
	    fld_eq(cat, len, "gpu_memset");
}

/* ---- keys: fixed-width or self-delimiting, so sort compares bytes ---- */

/*
 * The grouping key of a value (a pid, tid, linking id or sequence
 * number): values Python finds equal (5, 5.0) get the same key, and no
 * key is a prefix of another, so a group is one run of sorted lines.
 */
void
key_text(struct buf *b, const char *s, size_t len)
{
	size_t i = 0;
	double d;

	if (len > 0 && s[0] == '-')
		i = 1;
	if (len > i && len < 19) {
		size_t j;

		for (j = i; j < len && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j == len) {
			if (len == 2 && s[0] == '-' && s[1] == '0')
				s++, len--;	/* -0 is 0 */
			buf_add(b, s, len);
			buf_addc(b, '.');
			return;
		}
	}
	if (num_double(s, len, &d) == 0 && d == floor(d) &&
	    fabs(d) < 9007199254740992.0) {
		buf_num(b, (long long)d);
		buf_addc(b, '.');
		return;
	}
	buf_addc(b, 's');
	for (i = 0; i < len; i++)
		buf_hex(b, (unsigned char)s[i], 2);
	buf_addc(b, '.');
}

/* ---- times ---- */

int
tfield(int exact, const struct rec_reader *r, int col, struct ttv *t)
{
	size_t len;
	const char *s = rec_get(r, col, &len);

	return tparse(exact, s, len, t);
}

/* ---- reading internal records ---- */

/* Read the next record of an internal stream; checks its key order. */
int
next(struct rec_reader *r, struct buf *prev, int unique)
{
	int c;

	if (!rec_read(r))
		return 0;
	if (prev->len > 0 || r->lineno > 1) {
		c = strcmp(r->f[0].s, prev->s ? prev->s : "");
		if (c < 0 || (c == 0 && unique))
			tl_die("%s: line %zu: out of order (not sorted by its "
			    "first field)", r->name, r->lineno);
	}
	buf_reset(prev);
	buf_add(prev, r->f[0].s, r->f[0].len);
	return 1;
}

int
samegroup(const struct buf *g, const struct rec_reader *r, size_t n)
{
	size_t len = grouplen(r, n);

	return g->s != NULL && g->len == len && memcmp(g->s, r->f[0].s, len) == 0;
}

int
lazy_read(struct lazy *z)
{
	ssize_t n = getline(&z->line, &z->cap, z->fp);

	if (n < 0) {
		if (ferror(z->fp))
			tl_die("%s: read error:", z->name);
		return 0;
	}
	z->lineno++;
	if (z->line[n - 1] != '\n')
		tl_die("%s: line %zu: no newline at end of input (truncated?)",
		    z->name, z->lineno);
	if (n > 1 && z->line[n - 2] == '\r')
		tl_die("%s: line %zu: CR before LF: not a tl record stream",
		    z->name, z->lineno);
	z->end = z->line + n - 1;
	*z->end = '\0';
	z->rest = z->line;
	z->nf = 0;
	return 1;
}

/* lazy_split's new field [s, t) of z. */
static inline void
lazy_add(struct lazy *z, char *s, char *t)
{
	if (z->nf == z->fcap)
		tl_grow((void **)&z->f, &z->fcap, z->nf + 1, sizeof(*z->f));
	z->f[z->nf].s = s;
	z->f[z->nf++].len = (size_t)(t - s);
}

/*
 * Split up to field col, and on to the end of its block: 16 bytes at a
 * time, every TAB of a block as a bit of a mask (SSE2, in every
 * x86-64), the last bytes by rec_tabchr.  (A pass asks for a dozen fields
 * of each line, mostly in order: a whole block's fields at once spare
 * most calls.)
 */
const char *
lazy_split(struct lazy *z, int col, size_t *len)
{
	char *s = z->rest, *p = s, *t;

	if (s == NULL || z->nf > (size_t)col)
		goto out;
#ifdef TL_TABMASK
	for (; z->end - p >= 16; p += 16) {
		tab_fields16(p, &s, &z->f, &z->nf, &z->fcap, 0);
		/* (the block has no TAB after s: the next call scans on
		 * from there) */
		if (z->nf > (size_t)col)
			goto done;
	}
#endif
	/* (s, the next field's start, is at or before p) */
	while (z->nf <= (size_t)col) {
		t = rec_tabchr(p, z->end);
		lazy_add(z, s, t);
		if (t == z->end) {
			s = NULL;
			break;
		}
		p = s = t + 1;
	}
done:
	z->rest = s;
out:
	if ((size_t)col >= z->nf) {
		*len = 0;
		return "";
	}
	*len = z->f[col].len;
	return z->f[col].s;
}

long long
lazy_uid(struct lazy *z, int col)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);
	long long v = 0;
	size_t i;

	for (i = 0; i < len && i < 18 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (len == 0 || i != len)
		tl_die("%s: line %zu: bad UID '%.*s'", z->name, z->lineno,
		    (int)MIN(len, 40), s);
	return v;
}

void
evcols(struct rec_reader *r, struct evcols *c)
{
	c->uid = rec_need(r, "UID");
	c->ph = rec_need(r, "ph");
	c->cat = rec_need(r, "cat");
	c->name = rec_need(r, "name");
	c->pid = rec_need(r, "pid");
	c->tid = rec_need(r, "tid");
	c->ts = rec_need(r, "ts");
	c->dur = rec_need(r, "dur");
	c->id = rec_need(r, "id");
	c->corr = rec_need(r, "correlation");
	c->ext = rec_need(r, "External id");
	c->stream = rec_need(r, "stream");
	c->seq = rec_need(r, "Sequence number");
	c->dims = rec_need(r, "Input Dims");
	c->types = rec_need(r, "Input type");
	c->strides = rec_need(r, "Input Strides");
	c->concrete = rec_need(r, "Concrete Inputs");
	c->value = rec_need(r, "value");
}

/* The walk's key of pre-order number pre and role ('a' range, 'b' launch). */
void
key_pre(struct buf *b, long long pre, char role)
{
	buf_hex(b, (unsigned long long)pre, PREW);
	buf_addc(b, role);
}

/* Open the event lines at path, finding the columns X_*. */
void
xsrc_open(struct xsrc *x, const char *path)
{
	static const char *const names[X_NF] = {
		"ts", "dur", "name", "stream", "cat"
	};
	size_t i;

	fetch_open(&x->ft, path);
	for (i = 0; i < X_NF; i++)
		x->col[i] = rec_need(&x->ft.hdr, names[i]);
}

/* Append TAB and column i of the line last fetched (empty if short). */
void
xsrc_put(struct buf *b, const struct xsrc *x, int i)
{
	size_t len;
	const char *s = fetch_field(&x->ft, x->col[i], &len);

	buf_tab(b);
	buf_add(b, s, len);
}
