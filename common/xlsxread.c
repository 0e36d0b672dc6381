/* See LICENSE file for copyright and license details. */
/*
 * Read an Excel workbook's sheets row by row (see xlsxread.h), giving
 * each cell the kind and text openpyxl gives it when pandas' read_excel
 * asks (read-only, values of formulas rather than formulas):
 *   - the workbook part comes from _rels/.rels, its sheets (worksheets
 *     only, in the order of workbook.xml, less those whose part is
 *     absent) and shared strings from its own relationships;
 *   - a row is numbered by its r attribute, or one past the last; a
 *     row numbered at or before one already read is dropped, as
 *     openpyxl's read-only reader drops it;
 *   - a cell is placed by the column of its r attribute, or one past
 *     the last; a later cell of the same column replaces it;
 *   - an empty <v> is no value; inline strings take the text of <is>
 *     (runs joined, phonetic runs left out), shared strings that of
 *     the table, less every "x005F_" (openpyxl's only unescaping).
 * Everything in expat's hands: one chunk of a part at a time, a DOCTYPE
 * refused (no entity can be declared, so none can expand).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <expat.h>
#include <minizip/unzip.h>

#include "tl.h"
#include "xlsxread.h"

#define CHUNK 65536		/* bytes of a part handed to expat at once */
#define MAXDEPTH 64		/* element nesting tracked (deeper: ignored) */
#define MAXRELS 65536		/* relationships of one part */

/* The bytes xlsx_openmem() reads, as minizip's file. */
struct xlsx_mem {
	const unsigned char *data;	/* the workbook, not owned */
	size_t size;			/* its length */
	size_t pos;			/* minizip's position */
};

/* The elements the parts are read for; anything else is E_OTHER. */
enum {
	E_OTHER, E_ROW, E_C, E_V, E_IS, E_R, E_T, E_RPH, E_SI, E_SHEET, E_REL
};

/* A relationship of a part: Id -> (Type, Target). */
struct rel {
	char *id;		/* Id, owned */
	char *type;		/* Type, owned */
	char *target;		/* Target, resolved against the part, owned */
};

/* What each kind of part is read for. */
enum { P_RELS, P_BOOK, P_SST, P_SHEET };

/* The state of one part's parse, passed to expat's handlers. */
struct parse {
	struct xlsx *x;		/* the workbook */
	XML_Parser p;		/* expat */
	int kind;		/* P_* */
	const char *part;	/* the part's name, for messages */
	int depth;		/* open elements */
	unsigned char stk[MAXDEPTH];	/* E_* of the open elements */
	int failed;		/* a handler set x->err and stopped expat */
	int stopped;		/* fn asked to stop; its status is in ret */
	int ret;		/* fn's nonzero return */
	int collect;		/* character data goes into text */
	struct buf text;	/* collected text (P_RELS, P_BOOK, P_SST) */
	/* P_RELS: the relationships found */
	struct rel *rels;	/* owned */
	size_t nrels;		/* entries in rels */
	size_t relcap;		/* entries allocated */
	const char *base;	/* directory targets are relative to */
	/* P_BOOK: the sheets (names and relationship ids) */
	char **names;		/* owned */
	char **ids;		/* owned */
	size_t nnames;		/* entries in names and ids */
	size_t namecap;		/* entries allocated */
	uint64_t sstoff;	/* P_SST: bytes spilled so far */
	/* P_SHEET */
	struct xrow row;	/* the row being read */
	size_t lastrow;		/* number of the last row handed out */
	size_t col;		/* 1-based column of the last cell */
	int inrow;		/* inside <row> */
	int ctype;		/* the open cell's t: 'n', 's', 'b', 'e', 'S' (str), 'i' (inlineStr), 'd', '?' */
	size_t ccol;		/* its 0-based column */
	size_t cstart;		/* where its text starts in row.text */
	int hasv;		/* it has a <v> */
	int hasis;		/* it has an <is> */
	xlsx_rowfn fn;		/* the caller's row function */
	void *arg;		/* and its argument */
};

static void
seterr(struct xlsx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->err, sizeof(x->err), fmt, ap);
	va_end(ap);
}

/* A handler failed: say why and stop expat for good. */
static void
fail(struct parse *ps, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (ps->failed)
		return;
	n = (size_t)snprintf(ps->x->err, sizeof(ps->x->err), "%s: line %lu: ",
	    ps->part, (unsigned long)XML_GetCurrentLineNumber(ps->p));
	if (n < sizeof(ps->x->err)) {
		va_start(ap, fmt);
		vsnprintf(ps->x->err + n, sizeof(ps->x->err) - n, fmt, ap);
		va_end(ap);
	}
	ps->failed = 1;
	XML_StopParser(ps->p, XML_FALSE);
}

/* ---- minizip over memory ---- */

static voidpf ZCALLBACK
mopen(voidpf opaque, const void *name, int mode)
{
	struct xlsx_mem *m = opaque;

	(void)name;
	(void)mode;
	m->pos = 0;
	return m;
}

static uLong ZCALLBACK
mread(voidpf opaque, voidpf stream, void *buf, uLong size)
{
	struct xlsx_mem *m = opaque;
	size_t n = m->pos < m->size ? m->size - m->pos : 0;

	(void)stream;
	if (n > size)
		n = size;
	memcpy(buf, m->data + m->pos, n);
	m->pos += n;
	return (uLong)n;
}

static uLong ZCALLBACK
mwrite(voidpf opaque, voidpf stream, const void *buf, uLong size)
{
	(void)opaque;
	(void)stream;
	(void)buf;
	(void)size;
	return 0;
}

static ZPOS64_T ZCALLBACK
mtell(voidpf opaque, voidpf stream)
{
	(void)stream;
	return ((struct xlsx_mem *)opaque)->pos;
}

static long ZCALLBACK
mseek(voidpf opaque, voidpf stream, ZPOS64_T off, int origin)
{
	struct xlsx_mem *m = opaque;
	ZPOS64_T at;

	(void)stream;
	switch (origin) {
	case ZLIB_FILEFUNC_SEEK_CUR: at = m->pos + off; break;
	case ZLIB_FILEFUNC_SEEK_END: at = m->size + off; break;
	case ZLIB_FILEFUNC_SEEK_SET: at = off; break;
	default: return -1;
	}
	if (at > m->size)
		return -1;
	m->pos = (size_t)at;
	return 0;
}

static int ZCALLBACK
mclose(voidpf opaque, voidpf stream)
{
	(void)opaque;
	(void)stream;
	return 0;
}

static int ZCALLBACK
merror(voidpf opaque, voidpf stream)
{
	(void)opaque;
	(void)stream;
	return 0;
}

/* ---- names ---- */

/* The local part of an expat name "uri|local". */
static const char *
local(const char *name)
{
	const char *p = strrchr(name, '|');

	return p ? p + 1 : name;
}

static int
ecode(const char *name)
{
	static const struct { const char *s; int e; } tab[] = {
		{ "row", E_ROW }, { "c", E_C }, { "v", E_V }, { "is", E_IS },
		{ "r", E_R }, { "t", E_T }, { "rPh", E_RPH }, { "si", E_SI },
		{ "sheet", E_SHEET }, { "Relationship", E_REL }
	};
	size_t i;

	name = local(name);
	for (i = 0; i < LEN(tab); i++)
		if (strcmp(name, tab[i].s) == 0)
			return tab[i].e;
	return E_OTHER;
}

/* The value of attribute name (local part), or NULL. */
static const char *
attr(const char **atts, const char *name)
{
	for (; atts[0] != NULL; atts += 2)
		if (strcmp(local(atts[0]), name) == 0)
			return atts[1];
	return NULL;
}

/* The element i levels above the current one (0: the current). */
static int
up(const struct parse *ps, int i)
{
	int d = ps->depth - 1 - i;

	return d >= 0 && d < MAXDEPTH ? ps->stk[d] : -1;
}

/* Does type, a relationship's Type, end with "/" kind? */
static int
reltype(const char *type, const char *kind)
{
	size_t n = strlen(type), k = strlen(kind);

	return n > k && type[n - k - 1] == '/' && strcmp(type + n - k, kind) == 0;
}

/*
 * The part a Target names: an absolute target from the package root, a
 * relative one from base; "." and ".." resolved.  NULL if it climbs
 * above the root.
 */
static char *
resolve(const char *base, const char *target)
{
	struct buf b = { 0 };
	const char *p, *e;
	char *s;

	if (*target != '/' && *base != '\0') {
		buf_adds(&b, base);
		buf_addc(&b, '/');
	}
	buf_adds(&b, target);
	s = b.s;
	/* collapse the segments in place */
	b.len = 0;
	for (p = s; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, '/');
		if (e == NULL)
			e = p + strlen(p);
		if (e == p || (e - p == 1 && *p == '.'))
			continue;
		if (e - p == 2 && p[0] == '.' && p[1] == '.') {
			char *q;

			if (b.len == 0) {
				free(s);
				return NULL;
			}
			s[b.len] = '\0';
			q = strrchr(s, '/');
			b.len = q ? (size_t)(q - s) : 0;
			continue;
		}
		if (b.len > 0)
			s[b.len++] = '/';
		memmove(s + b.len, p, (size_t)(e - p));
		b.len += (size_t)(e - p);
	}
	s[b.len] = '\0';
	return s;
}

/* ---- the handlers ---- */

static void
addtext(struct parse *ps, struct buf *b, const char *s, size_t n)
{
	if (b->len + n > XLSX_MAXTEXT) {
		fail(ps, "text longer than %u bytes", XLSX_MAXTEXT);
		return;
	}
	buf_add(b, s, n);
}

static void XMLCALL
onchars(void *ud, const XML_Char *s, int len)
{
	struct parse *ps = ud;

	if (!ps->collect || len <= 0)
		return;
	addtext(ps, ps->kind == P_SHEET ? &ps->row.text : &ps->text, s,
	    (size_t)len);
}

static void XMLCALL
ondoctype(void *ud, const XML_Char *name, const XML_Char *sysid,
    const XML_Char *pubid, int internal)
{
	(void)name;
	(void)sysid;
	(void)pubid;
	(void)internal;
	fail(ud, "a DOCTYPE, which no workbook part has");
}

/* Is the open <t> one whose text counts (not under a phonetic run)? */
static int
textt(const struct parse *ps, int top)
{
	return up(ps, 0) == E_T &&
	    (up(ps, 1) == top || (up(ps, 1) == E_R && up(ps, 2) == top));
}

/* A column from the letters of a cell reference ("AB12"), 1-based; 0 if bad. */
static size_t
refcol(const char *r)
{
	size_t c = 0;
	int n = 0;

	if (*r == '$')
		r++;
	for (; (*r >= 'A' && *r <= 'Z') || (*r >= 'a' && *r <= 'z'); r++) {
		if (++n > 3)
			return 0;
		c = c * 26 + (size_t)((*r | 0x20) - 'a' + 1);
	}
	if (n == 0)
		return 0;
	if (*r == '$')
		r++;
	if (*r < '0' || *r > '9')
		return 0;
	while (*r >= '0' && *r <= '9')
		r++;
	return *r == '\0' ? c : 0;
}

/* A row number as openpyxl takes it (an integer, or a whole float); 0 if bad. */
static size_t
rownum(const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || d != floor(d) ||
	    d < 1 || d > XLSX_MAXROW || strpbrk(s, "xXnN") != NULL)
		return 0;
	return (size_t)d;
}

static void
startrow(struct parse *ps, const char **atts)
{
	const char *r = attr(atts, "r");
	size_t n;

	if (r != NULL) {
		if ((n = rownum(r)) == 0) {
			fail(ps, "bad row number '%.40s'", r);
			return;
		}
	} else if ((n = ps->row.num + 1) > XLSX_MAXROW) {
		fail(ps, "more than %d rows", XLSX_MAXROW);
		return;
	}
	ps->row.num = n;
	ps->row.n = 0;
	buf_reset(&ps->row.text);
	buf_addc(&ps->row.text, '\0');	/* offset 0: the empty text */
	ps->col = 0;
	ps->inrow = 1;
}

static void
startcell(struct parse *ps, const char **atts)
{
	const char *r = attr(atts, "r"), *t = attr(atts, "t");

	if (r != NULL) {
		if ((ps->col = refcol(r)) == 0) {
			fail(ps, "bad cell reference '%.40s'", r);
			return;
		}
	} else
		ps->col++;
	if (ps->col > XLSX_MAXCOL) {
		fail(ps, "a cell beyond column %d", XLSX_MAXCOL);
		return;
	}
	ps->ccol = ps->col - 1;
	if (t == NULL || strcmp(t, "n") == 0)
		ps->ctype = 'n';
	else if (strcmp(t, "s") == 0)
		ps->ctype = 's';
	else if (strcmp(t, "b") == 0)
		ps->ctype = 'b';
	else if (strcmp(t, "e") == 0)
		ps->ctype = 'e';
	else if (strcmp(t, "str") == 0)
		ps->ctype = 'S';
	else if (strcmp(t, "inlineStr") == 0)
		ps->ctype = 'i';
	else if (strcmp(t, "d") == 0)
		ps->ctype = 'd';
	else
		ps->ctype = '?';
	ps->hasv = ps->hasis = 0;
	ps->cstart = ps->row.text.len;
}

static void XMLCALL
onstart(void *ud, const XML_Char *name, const XML_Char **atts)
{
	struct parse *ps = ud;
	int e = ecode(name);
	const char *a, *b, *c;

	if (ps->failed)
		return;
	if (ps->depth < MAXDEPTH)
		ps->stk[ps->depth] = (unsigned char)e;
	ps->depth++;
	switch (ps->kind) {
	case P_RELS:
		if (e != E_REL)
			break;
		a = attr(atts, "Id");
		b = attr(atts, "Type");
		c = attr(atts, "Target");
		if (a == NULL || b == NULL || c == NULL)
			break;
		if (ps->nrels >= MAXRELS) {
			fail(ps, "more than %d relationships", MAXRELS);
			break;
		}
		tl_grow((void **)&ps->rels, &ps->relcap, ps->nrels + 1,
		    sizeof(*ps->rels));
		ps->rels[ps->nrels].id = tl_strdup(a);
		ps->rels[ps->nrels].type = tl_strdup(b);
		a = attr(atts, "TargetMode");
		ps->rels[ps->nrels].target = a && strcmp(a, "External") == 0 ?
		    NULL : resolve(ps->base, c);
		ps->nrels++;
		break;
	case P_BOOK:
		if (e != E_SHEET)
			break;
		a = attr(atts, "name");
		b = attr(atts, "id");
		if (a == NULL || b == NULL) {
			fail(ps, "a sheet without a name or an id");
			break;
		}
		if (ps->nnames >= MAXRELS) {
			fail(ps, "more than %d sheets", MAXRELS);
			break;
		}
		tl_grow((void **)&ps->names, &ps->namecap, ps->nnames + 1,
		    sizeof(*ps->names));
		ps->ids = tl_realloc(ps->ids, ps->namecap * sizeof(*ps->ids));
		ps->names[ps->nnames] = tl_strdup(a);
		ps->ids[ps->nnames++] = tl_strdup(b);
		break;
	case P_SST:
		if (e == E_SI && ps->depth == 2)
			buf_reset(&ps->text);
		ps->collect = textt(ps, E_SI);
		break;
	case P_SHEET:
		if (e == E_ROW)
			startrow(ps, atts);
		else if (e == E_C && ps->inrow && up(ps, 1) == E_ROW)
			startcell(ps, atts);
		else if (e == E_V && up(ps, 1) == E_C && ps->ctype != 'i')
			ps->hasv = 1;	/* (a second <v> adds to the first) */
		else if (e == E_IS && up(ps, 1) == E_C)
			ps->hasis = 1;
		ps->collect = ps->inrow && ((e == E_V && up(ps, 1) == E_C &&
		    ps->ctype != 'i') || (ps->ctype == 'i' && textt(ps, E_IS)));
		break;
	}
}

/* Spill the shared string just read, less openpyxl's "x005F_". */
static void
spill(struct parse *ps)
{
	struct xlsx *x = ps->x;
	uint64_t rec[2];
	char *s = ps->text.s ? ps->text.s : "", *p, *w;
	size_t n = ps->text.len;

	for (p = w = s; p < s + n; ) {
		if ((size_t)(s + n - p) >= 6 && memcmp(p, "x005F_", 6) == 0) {
			p += 6;
			continue;
		}
		*w++ = *p++;
	}
	n = (size_t)(w - s);
	rec[0] = ps->sstoff;
	rec[1] = n;
	if ((n > 0 && fwrite(s, 1, n, x->sstr) != n) ||
	    fwrite(rec, sizeof(rec), 1, x->sidx) != 1) {
		fail(ps, "temporary file: %s", strerror(errno));
		return;
	}
	ps->sstoff += n;
	x->nsst++;
}

/* Shared string i into x->tmp; 0 or -1. */
static int
sstget(struct parse *ps, size_t i)
{
	struct xlsx *x = ps->x;
	uint64_t rec[2];

	if (i >= x->nsst) {
		fail(ps, "a cell names shared string %zu of %zu", i, x->nsst);
		return -1;
	}
	if (pread(fileno(x->sidx), rec, sizeof(rec), (off_t)(i * sizeof(rec))) !=
	    (ssize_t)sizeof(rec)) {
		fail(ps, "temporary file: read error");
		return -1;
	}
	buf_reset(&x->tmp);
	tl_grow((void **)&x->tmp.s, &x->tmp.cap, (size_t)rec[1] + 1, 1);
	if (rec[1] > 0 && pread(fileno(x->sstr), x->tmp.s, (size_t)rec[1],
	    (off_t)rec[0]) != (ssize_t)rec[1]) {
		fail(ps, "temporary file: read error");
		return -1;
	}
	x->tmp.len = (size_t)rec[1];
	x->tmp.s[x->tmp.len] = '\0';
	return 0;
}

/*
 * Is s a number as openpyxl's _cast_number reads one, and finite?  A
 * decimal, blanks around; strtod() only for an exponent that could
 * overflow (it costs more than the rest of a cell).
 */
static int
isnumber(const char *s)
{
	const char *p = s;
	int nd = 0, ne = 0;
	long ex = 0;
	double d;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p == '-' || *p == '+')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		nd++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			nd++;
	if (nd == 0)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		for (; *p >= '0' && *p <= '9'; p++, ne++)
			if (ex < 100000)
				ex = ex * 10 + (*p - '0');
		if (ne == 0)
			return 0;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p != '\0')
		return 0;
	if (ex + nd > 300) {
		d = strtod(s, NULL);
		return isfinite(d);
	}
	return 1;
}

/* An index or a boolean: an integer as Python's int() reads one; -1 if bad. */
static int
smallint(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	return end == s || *end != '\0' || errno != 0 ? -1 : 0;
}

static void
endcell(struct parse *ps)
{
	struct xrow *r = &ps->row;
	char *v = r->text.s + ps->cstart;
	size_t len = r->text.len - ps->cstart, old;
	int kind;
	long long i;

	if (ps->ctype == 'i')
		kind = ps->hasis ? XC_STR : XC_NONE;
	else if (!ps->hasv || len == 0)
		kind = XC_NONE;
	else {
		switch (ps->ctype) {
		case 'n':
			if (!isnumber(v)) {
				fail(ps, "a number cell holds '%.40s'", v);
				return;
			}
			kind = XC_NUM;
			break;
		case 's':
			if (smallint(v, &i) < 0 || i < 0) {
				fail(ps, "bad shared string index '%.40s'", v);
				return;
			}
			if (sstget(ps, (size_t)i) < 0)
				return;
			r->text.len = ps->cstart;
			addtext(ps, &r->text, ps->x->tmp.s, ps->x->tmp.len);
			kind = XC_STR;
			break;
		case 'b':
			if (smallint(v, &i) < 0) {
				fail(ps, "bad boolean '%.40s'", v);
				return;
			}
			r->text.len = ps->cstart;
			buf_addc(&r->text, i ? '1' : '0');
			kind = XC_BOOL;
			break;
		case 'e':
			kind = XC_ERR;
			break;
		default:	/* str, d (an ISO date, kept as text) and the unknown */
			kind = XC_STR;
			break;
		}
	}
	if (ps->failed)
		return;
	if (kind == XC_NONE)
		r->text.len = ps->cstart;
	if (ps->ccol >= r->n) {
		old = r->n;
		tl_grow((void **)&r->c, &r->cap, ps->ccol + 1, sizeof(*r->c));
		memset(r->c + old, 0, (ps->ccol + 1 - old) * sizeof(*r->c));
		r->n = ps->ccol + 1;
	}
	r->c[ps->ccol].kind = kind;
	r->c[ps->ccol].off = kind == XC_NONE ? 0 : ps->cstart;
	r->c[ps->ccol].len = kind == XC_NONE ? 0 : r->text.len - ps->cstart;
	buf_addc(&r->text, '\0');
}

static void XMLCALL
onend(void *ud, const XML_Char *name)
{
	struct parse *ps = ud;
	int e = up(ps, 0), ret;

	(void)name;
	if (ps->failed || ps->stopped)
		return;
	switch (ps->kind) {
	case P_SST:
		if (e == E_SI && ps->depth == 2)
			spill(ps);
		break;
	case P_SHEET:
		if (e == E_C && ps->inrow && up(ps, 1) == E_ROW)
			endcell(ps);
		else if (e == E_ROW && ps->inrow) {
			ps->inrow = 0;
			if (ps->row.num <= ps->lastrow)
				break;	/* openpyxl drops a row out of order */
			ps->lastrow = ps->row.num;
			if ((ret = ps->fn(&ps->row, ps->arg)) != 0) {
				ps->stopped = 1;
				ps->ret = ret;
				XML_StopParser(ps->p, XML_FALSE);
			}
		}
		break;
	}
	ps->depth--;
	ps->collect = 0;
	if (ps->kind == P_SST)
		ps->collect = textt(ps, E_SI);
	else if (ps->kind == P_SHEET && ps->inrow)
		ps->collect = ps->ctype == 'i' && textt(ps, E_IS);
}

/*
 * Parse one part of the zip with ps's handlers; 0, -1 (x->err set),
 * or fn's stop status.  A part that is absent is -1 too.
 */
static int
parsepart(struct parse *ps, const char *part)
{
	struct xlsx *x = ps->x;
	void *buf;
	int n, st, rc = 0;

	ps->part = part;
	if (unzLocateFile(x->zf, part, 2) != UNZ_OK) {
		seterr(x, "no part %s", part);
		return -1;
	}
	if (unzOpenCurrentFile(x->zf) != UNZ_OK) {
		seterr(x, "%s: cannot read it from the zip", part);
		return -1;
	}
	if ((ps->p = XML_ParserCreateNS(NULL, '|')) == NULL)
		tl_die("out of memory");
	XML_SetUserData(ps->p, ps);
	XML_SetElementHandler(ps->p, onstart, onend);
	XML_SetCharacterDataHandler(ps->p, onchars);
	XML_SetStartDoctypeDeclHandler(ps->p, ondoctype);
	for (;;) {
		if ((buf = XML_GetBuffer(ps->p, CHUNK)) == NULL)
			tl_die("out of memory");
		if ((n = unzReadCurrentFile(x->zf, buf, CHUNK)) < 0) {
			seterr(x, "%s: corrupt zip data (error %d)", part, n);
			rc = -1;
			break;
		}
		st = XML_ParseBuffer(ps->p, n, n == 0);
		if (ps->stopped) {
			rc = ps->ret;
			break;
		}
		if (ps->failed) {
			rc = -1;
			break;
		}
		if (st != XML_STATUS_OK) {
			seterr(x, "%s: line %lu: %s", part,
			    (unsigned long)XML_GetCurrentLineNumber(ps->p),
			    XML_ErrorString(XML_GetErrorCode(ps->p)));
			rc = -1;
			break;
		}
		if (n == 0)
			break;
	}
	XML_ParserFree(ps->p);
	ps->p = NULL;
	/* (checks the CRC when the part was read to its end) */
	if (unzCloseCurrentFile(x->zf) != UNZ_OK && rc == 0) {
		seterr(x, "%s: corrupt zip data (bad CRC)", part);
		rc = -1;
	}
	return rc;
}

static void
freeparse(struct parse *ps)
{
	size_t i;

	for (i = 0; i < ps->nrels; i++) {
		free(ps->rels[i].id);
		free(ps->rels[i].type);
		free(ps->rels[i].target);
	}
	free(ps->rels);
	for (i = 0; i < ps->nnames; i++) {
		free(ps->names[i]);
		free(ps->ids[i]);
	}
	free(ps->names);
	free(ps->ids);
	buf_free(&ps->text);
	free(ps->row.c);
	buf_free(&ps->row.text);
	memset(ps, 0, sizeof(*ps));
}

/* The relationships of part (its _rels/NAME.rels) into ps; -1 if bad. */
static int
readrels(struct xlsx *x, struct parse *ps, const char *part)
{
	const char *slash = strrchr(part, '/');
	struct buf b = { 0 };
	char *dir;
	int rc;

	memset(ps, 0, sizeof(*ps));
	ps->x = x;
	ps->kind = P_RELS;
	dir = tl_strndup(part, slash ? (size_t)(slash - part) : 0);
	if (*dir != '\0') {
		buf_adds(&b, dir);
		buf_addc(&b, '/');
	}
	buf_adds(&b, "_rels/");
	buf_adds(&b, slash ? slash + 1 : part);
	buf_adds(&b, ".rels");
	ps->base = dir;
	rc = parsepart(ps, b.s);
	ps->base = NULL;
	free(dir);
	buf_free(&b);
	return rc;
}

/* The workbook's part and its sheets; 0 or -1. */
static int
readbook(struct xlsx *x)
{
	struct parse rels, book;
	char *bookpart = NULL;
	size_t i, j;
	int rc = -1;

	/* The package's relationships name the workbook. */
	if (readrels(x, &rels, "") == 0)
		for (i = 0; i < rels.nrels; i++)
			if (reltype(rels.rels[i].type, "officeDocument") &&
			    rels.rels[i].target != NULL) {
				bookpart = tl_strdup(rels.rels[i].target);
				break;
			}
	freeparse(&rels);
	if (bookpart == NULL)
		bookpart = tl_strdup("xl/workbook.xml");
	if (unzLocateFile(x->zf, bookpart, 2) != UNZ_OK) {
		seterr(x, "not an Excel workbook (no part %s)", bookpart);
		free(bookpart);
		return -1;
	}
	memset(&book, 0, sizeof(book));
	book.x = x;
	book.kind = P_BOOK;
	if (parsepart(&book, bookpart) != 0)
		goto out;
	if (readrels(x, &rels, bookpart) != 0 && book.nnames > 0) {
		seterr(x, "%s: no relationships, so no sheets", bookpart);
		goto out2;
	}
	for (i = 0; i < rels.nrels; i++)
		if (reltype(rels.rels[i].type, "sharedStrings") &&
		    rels.rels[i].target != NULL && x->sstpart == NULL)
			x->sstpart = tl_strdup(rels.rels[i].target);
	x->sheet = tl_calloc(book.nnames, sizeof(*x->sheet));
	for (i = 0; i < book.nnames; i++) {
		for (j = 0; j < rels.nrels; j++)
			if (strcmp(rels.rels[j].id, book.ids[i]) == 0)
				break;
		if (j == rels.nrels) {
			seterr(x, "%s: sheet '%.100s' has no relationship %.40s",
			    bookpart, book.names[i], book.ids[i]);
			goto out2;
		}
		if (!reltype(rels.rels[j].type, "worksheet"))
			continue;	/* a chart sheet: pandas lists only worksheets */
		if (rels.rels[j].target == NULL) {
			seterr(x, "%s: sheet '%.100s' is outside the workbook",
			    bookpart, book.names[i]);
			goto out2;
		}
		/* (openpyxl, and so pandas, skips a sheet whose part is absent) */
		if (unzLocateFile(x->zf, rels.rels[j].target, 2) != UNZ_OK)
			continue;
		x->sheet[x->nsheet].name = tl_strdup(book.names[i]);
		x->sheet[x->nsheet++].part = tl_strdup(rels.rels[j].target);
	}
	rc = 0;
out2:
	freeparse(&rels);
out:
	freeparse(&book);
	free(bookpart);
	return rc;
}

/* ---- the interface ---- */

static int
opened(struct xlsx *x)
{
	if (x->zf == NULL) {
		seterr(x, "not an Excel workbook (not a zip file, or a truncated one)");
		return -1;
	}
	return readbook(x);
}

int
xlsx_open(struct xlsx *x, const char *path)
{
	FILE *fp;

	memset(x, 0, sizeof(*x));
	x->name = path;
	/* (minizip says only "no": tell a missing file from a bad one) */
	if ((fp = fopen(path, "rb")) == NULL) {
		seterr(x, "%s", strerror(errno));
		return -1;
	}
	fclose(fp);
	x->zf = unzOpen64(path);
	return opened(x);
}

int
xlsx_openmem(struct xlsx *x, const void *data, size_t size, const char *name)
{
	zlib_filefunc64_def ff;

	memset(x, 0, sizeof(*x));
	x->name = name;
	x->mem = tl_calloc(1, sizeof(*x->mem));
	x->mem->data = data;
	x->mem->size = size;
	ff.zopen64_file = mopen;
	ff.zread_file = mread;
	ff.zwrite_file = mwrite;
	ff.ztell64_file = mtell;
	ff.zseek64_file = mseek;
	ff.zclose_file = mclose;
	ff.zerror_file = merror;
	ff.opaque = x->mem;
	x->zf = unzOpen2_64(name, &ff);
	return opened(x);
}

void
xlsx_close(struct xlsx *x)
{
	size_t i;

	if (x->zf != NULL)
		unzClose(x->zf);
	for (i = 0; i < x->nsheet; i++) {
		free(x->sheet[i].name);
		free(x->sheet[i].part);
	}
	free(x->sheet);
	free(x->sstpart);
	free(x->mem);
	if (x->sstr != NULL)
		fclose(x->sstr);
	if (x->sidx != NULL)
		fclose(x->sidx);
	buf_free(&x->tmp);
	memset(x, 0, sizeof(*x));
}

long
xlsx_find(const struct xlsx *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->nsheet; i++)
		if (strcmp(x->sheet[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* An unlinked temporary file in TMPDIR. */
static FILE *
tmpf(void)
{
	const char *dir = getenv("TMPDIR");
	struct buf b = { 0 };
	FILE *fp = NULL;
	int fd;

	buf_adds(&b, dir && *dir ? dir : "/tmp");
	buf_adds(&b, "/tl-xlsx.XXXXXX");
	if ((fd = mkstemp(b.s)) >= 0) {
		unlink(b.s);
		if ((fp = fdopen(fd, "w+")) == NULL)
			close(fd);
	}
	buf_free(&b);
	return fp;
}

/* Spill the shared strings, once; 0 or -1. */
static int
readsst(struct xlsx *x)
{
	struct parse ps;
	int rc;

	if (x->sstread)
		return 0;
	x->sstread = 1;
	/* (no table, or a missing one: a cell that names a string fails) */
	if (x->sstpart == NULL || unzLocateFile(x->zf, x->sstpart, 2) != UNZ_OK)
		return 0;
	if ((x->sstr = tmpf()) == NULL || (x->sidx = tmpf()) == NULL) {
		seterr(x, "temporary file: %s", strerror(errno));
		return -1;
	}
	memset(&ps, 0, sizeof(ps));
	ps.x = x;
	ps.kind = P_SST;
	rc = parsepart(&ps, x->sstpart);
	freeparse(&ps);
	if (rc == 0 && (fflush(x->sstr) == EOF || fflush(x->sidx) == EOF)) {
		seterr(x, "temporary file: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

int
xlsx_read(struct xlsx *x, size_t i, xlsx_rowfn fn, void *arg)
{
	struct parse ps;
	int rc;

	if (i >= x->nsheet) {
		seterr(x, "no sheet %zu", i);
		return -1;
	}
	if (readsst(x) != 0)
		return -1;
	memset(&ps, 0, sizeof(ps));
	ps.x = x;
	ps.kind = P_SHEET;
	ps.fn = fn;
	ps.arg = arg;
	rc = parsepart(&ps, x->sheet[i].part);
	if (rc == -1 && strncmp(x->err, "no part ", 8) == 0)
		seterr(x, "sheet '%.100s': no part %s", x->sheet[i].name,
		    x->sheet[i].part);
	freeparse(&ps);
	return rc;
}
