/* See LICENSE file for copyright and license details. */
/*
 * treeio.h: what tl-tree and the programs that read its files share.
 *
 * tl-tree builds the tree (tl_tree_stage); tl-forest, tl-kernels,
 * tl-pick, tl-launchers, tl-perfrows and tl-unified read what it
 * wrote.  They all pass records through sort(1) with keys that it
 * compares as bytes, join UID-sorted files as merges, and read lines
 * of a file by their byte offset.  Include after tl.h.  The
 * per-record paths are static inline: a call from another file would
 * cost the readers' loops more than the work it does.
 *
 *   keys.c     numbers and byte-sortable keys, appended to a buf
 *   treeio.c   opening with big buffers, record checks, arenas,
 *              interning tables, UID-sorted side inputs
 *   fetch.c    the line at a byte offset of a record file (pread)
 *   ivin.c     intervals.tsv, and the busy time and list of kernels
 *   treeops.c  ops.tsv by UID, with meta.tsv's process and thread names
 */
#ifndef TL_TREEIO_H
#define TL_TREEIO_H

#include <stdlib.h>
#include <string.h>

/* Hex digits of a UID in a key; UIDs must be below 2^32. */
enum { UIDW = 8 };

/* ---- keys.c: numbers and sort keys ---- */

/*
 * A decimal UID (or other non-negative integer) at s: strtoll's value,
 * without its cost on the common case, a plain UID (the passes parse
 * millions of them).
 */
static inline long long
atoid(const char *s)
{
	long long v = 0;
	unsigned d;
	int i;

	/* (d, unsigned: one test for a digit) */
	for (i = 0; i < 18 && (d = (unsigned char)s[i] - '0') <= 9; i++)
		v = v * 10 + d;
	if (i == 0 || (unsigned)((unsigned char)s[i] - '0') <= 9)
		return strtoll(s, NULL, 10);
	return v;
}


/* Append v in decimal. */
void buf_num(struct buf *b, long long v);
/* Append the low width hex digits of v, zero-padded (lower case). */
void buf_hex(struct buf *b, unsigned long long v, int width);
/* Append uid as a key: UIDW hex digits; dies when it does not fit. */
void key_uid(struct buf *b, long long uid);

/* The value of the width lower-case hex digits at p (as buf_hex writes them). */
static inline unsigned long long
key_hexat(const char *p, int width)
{
	unsigned long long u = 0;
	int i;

	for (i = 0; i < width; i++, p++)
		u = u << 4 | (unsigned long long)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
	return u;
}

/* The UID of the UIDW hex digits at p (as key_uid writes them). */
static inline long long
key_uidat(const char *p)
{
	return (long long)key_hexat(p, UIDW);
}

/*
 * Append a key of the decimal s that sort(1) compares as bytes in the
 * order sort -n gives the numbers: a sign class, 24 integer digits, 9
 * of the fraction.  Reads s as sort -n does: [-]digits[.digits].
 */
void key_dec(struct buf *b, const char *s);
/* The bits of d (-0 as 0) that compare as unsigned numbers as d does. */
uint64_t key_dbits(double d);
/* Append the 16 hex digits of key_dbits(d), which sort(1) compares as bytes in d's order. */
void key_double(struct buf *b, double d);
/* Append v (not negative; negative counts as 0) as 12 decimal digits. */
void key_int(struct buf *b, long long v);

/* ---- treeio.c: streams, records, arenas, tables, side inputs ---- */

/*
 * Give fp (not stdin or stdout) the TL_IOBUF bytes at buf (a file
 * written TL_FILEBUF of them: see tl_isfile), and a pipe TL_PIPESZ:
 * the programs talk through pipes and fifos, where stdio's 4 KiB
 * would cost a system call, and a wakeup of the other end, every
 * 4 KiB.  buf (NULL: keep stdio's own, for small files: a write(2) of
 * every 4 KiB of a big one costs ms) must outlive the stream.
 * Returns fp.
 */
FILE *io_bigbuf(FILE *fp, char *buf, int writing);
/*
 * tl_fopen, then io_bigbuf; but a path /dev/fd/N is descriptor N
 * itself: reopening a fifo the shell opened for us would wait for a
 * writer that may be gone.
 */
FILE *io_open(const char *path, const char *mode, char *buf);
/* io_open of dir/name for writing. */
FILE *io_create(const char *dir, const char *name, char *buf);

/* The name rec_open should give path: "<stdin>" for "-". */
static inline const char *
io_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* 1 when the field s[0..len) is the string lit. */
static inline int
fld_eq(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* Die, naming the line: the record has not nf fields. */
_Noreturn void want_nf_die(const struct rec_reader *r, size_t nf);

/* Die, naming the line, unless the record has exactly nf fields. */
static inline void
want_nf(const struct rec_reader *r, size_t nf)
{
	if (r->nf != nf)
		want_nf_die(r, nf);
}

/* Append TAB. */
static inline void
buf_tab(struct buf *b)
{
	buf_addc(b, '\t');
}

/* Append field col of r's record, as it is (escaped). */
static inline void
buf_field(struct buf *b, const struct rec_reader *r, int col)
{
	size_t len;
	const char *s = rec_get(r, col, &len);

	buf_add(b, s, len);
}

/* Append TAB and s. */
static inline void
buf_tabs(struct buf *b, const char *s)
{
	buf_addc(b, '\t');
	buf_adds(b, s);
}

/* Write b and a newline to fp, and empty b. */
static inline void
buf_emit(FILE *fp, struct buf *b)
{
	buf_addc(b, '\n');
	fwrite(b->s, 1, b->len, fp);
	buf_reset(b);
}

/* Make b s[0..len) with the escapes undone (for opcat); returns b->s. */
const char *buf_unesc(struct buf *b, const char *s, size_t len);

/* A growable array of NUL-terminated copies of fields. */
struct arena {
	struct buf b;	/* the bytes, each field NUL-terminated */
	size_t *off;	/* start of every field in b */
	size_t n;	/* fields used */
	size_t cap;	/* fields allocated */
};

/* Forget every field (the memory stays for the next). */
static inline void
arena_reset(struct arena *a)
{
	buf_reset(&a->b);
	a->n = 0;
}

/* Copy s[0..len) into a; returns its index. */
size_t arena_add(struct arena *a, const char *s, size_t len);
/* Field i, NUL-terminated; valid until the next arena_add. */
static inline const char *
arena_get(const struct arena *a, size_t i)
{
	return a->b.s + a->off[i];
}
/* Free a's memory; it is empty, as zero-initialised. */
void arena_free(struct arena *a);

/* One key of a strtab. */
struct strent {
	char *key;	/* the key, owned; NULL for a free slot */
	size_t len;	/* its length */
	long idx;	/* its number */
};

/*
 * An interning table: every distinct key gets a number, 0, 1, ... in
 * order of first appearance.  Open addressing; grows with its keys.
 * Zero-initialise before use.
 */
struct strtab {
	struct strent *t;	/* slots */
	size_t cap;		/* slots allocated, a power of two (or 0) */
	size_t n;		/* keys held */
};

/* The number of key[0..len), a new one (n - 1) when it is new. */
long strtab_get(struct strtab *st, const char *key, size_t len);
/* Free st's keys and slots; it is empty, as zero-initialised. */
void strtab_free(struct strtab *st);

/*
 * A UID-sorted side input, joined as a merge: positioned on its next
 * record, whose UID is uid.  Records are the reader's until the next
 * uside_next.
 */
struct uside {
	struct rec_reader r;	/* the reader */
	FILE *fp;		/* its file, owned */
	long long uid;		/* UID of the current record; -1 at EOF */
	size_t nf;		/* fields every record has; 0: any */
	int keyed;		/* field 0 is a UID key (key_uid), else decimal */
};

/*
 * Open path, whose records have nf fields (0: any number) and lead with
 * a UID (a key_uid key when keyed), and read its first record; buf:
 * as for io_bigbuf.
 */
void uside_open(struct uside *s, const char *path, size_t nf, int keyed,
    char *buf);
/* uside_open for a file with a header, whose first column is ucol. */
void uside_openh(struct uside *s, const char *path, const char *ucol);
/* Die unless r's header (read) has ucol first: a UID side's key column. */
void uside_keyfirst(const struct rec_reader *r, const char *ucol);
/* Read the next record; dies when UIDs do not increase. */
void uside_next(struct uside *s);
/*
 * Skip the records before uid (calls in ascending uid; records for
 * UIDs never asked for are allowed); 1 when s has a record for uid.
 */
static inline int
uside_seek(struct uside *s, long long uid)
{
	while (s->uid >= 0 && s->uid < uid)
		uside_next(s);
	return s->uid == uid;
}

/* Die: s's current record is before the UID asked for. */
_Noreturn void uside_stray(const struct uside *s);
/*
 * 1 when s's current record is uid's; dies when it is before uid,
 * since every UID of s must be asked for: an event of the trace.
 */
static inline int
uside_at(struct uside *s, long long uid)
{
	if (s->uid >= 0 && s->uid < uid)
		uside_stray(s);
	return s->uid == uid;
}

/* Close s, which must be at its end (every record taken). */
void uside_close(struct uside *s);
/* Close s wherever it stands. */
void uside_free(struct uside *s);

/*
 * A side input joined by UID as a merge, its UIDs strict whole numbers
 * (tl_uidof) that ascend: ujoin_at moves it to an op's record, calls in
 * ascending op; records for UIDs never asked for are skipped.
 */
struct ujoin {
	struct rec_reader r;	/* the reader, opened by the caller */
	long long uid;		/* UID of the record read, LLONG_MAX at EOF */
	int have;		/* a record was read */
	int dups;		/* a UID may lead several records (else dies) */
	int raw;		/* lines not split: the UID ends at the first TAB */
};
/* 1 when j's record is op's (the first of op's, with dups). */
int ujoin_at(struct ujoin *j, long long op);

/* tl_iscomm: TraceLens's communication kernels, a name holding nccl,
 * rccl or cross_device_reduce in any case; tl_islinked: a gpu.tsv
 * linked field that reads as the number 1. */
int tl_iscomm(const char *s, size_t len);
int tl_islinked(const char *s, size_t len);
/* tl_uidof: a UID field of r's line as a whole number; dies naming
 * the file and line when it is not one. */
long long tl_uidof(const struct rec_reader *r, const char *s, size_t len);

/* ---- fetch.c: lines of a record file by byte offset ---- */

/* Random access to a file of events, through one window. */
struct fetch {
	FILE *fp;		/* the file, owned */
	struct rec_reader hdr;	/* its header, for column names */
	int uidcol;		/* column of UID */
	char *win;		/* a window of the file, owned */
	size_t cap;		/* bytes allocated for win */
	long long start;	/* file offset of win[0]; -1 before the first */
	size_t len;		/* bytes valid in win */
	struct rec_field *f;	/* fields of the last line fetched, in win */
	size_t nf;		/* their number */
	size_t fcap;		/* fields allocated */
};

/* Open path (a file, with a header that has a UID column). */
void fetch_open(struct fetch *ft, const char *path);
/* Close the file and free the window. */
void fetch_close(struct fetch *ft);
/*
 * Split the line at offset ref into ft->f; it must be event uid.  The
 * window moves to ref when the line is not in it, so a run of nearby
 * offsets costs one read.
 */
void fetch_line(struct fetch *ft, long long ref, long long uid);
/* Field col of the line fetched last ("" past its end). */
static inline const char *
fetch_field(const struct fetch *ft, int col, size_t *len)
{
	if (col < 0 || (size_t)col >= ft->nf) {
		*len = 0;
		return "";
	}
	*len = ft->f[col].len;
	return ft->f[col].s;
}

/* ---- ivin.c: intervals.tsv, and the kernels of an op ---- */

/*
 * The intervals.tsv columns the readers take (ref only with -G; launch
 * only for lists in launch order, kacc's launch).
 */
enum { IOP, IKIND, ITS, IDUR, INAME, ISTREAM, IGPU, IREF, ILAUNCH, ISPAN,
    INCOL };

/* intervals.tsv (sorted by op), read record by record. */
struct ivin {
	struct rec_reader r;	/* the file */
	FILE *fp;		/* its stream, owned */
	int c[INCOL];		/* the columns I*, in r (IREF, ILAUNCH,
				   ISPAN -1: none) */
	long long op;		/* op of the current record; -1 before */
	struct fetch *gvp;	/* where s records' names are, or NULL */
	int owngv;		/* gvp is gv, opened by ivin_open */
	struct fetch gv;	/* the GPU events, when owngv */
	int gvname;		/* the name column of gvp's lines */
	char iob[TL_IOBUF];	/* stdio's, for the file */
};

/*
 * Open intervals.tsv at path; with gvpath (else NULL), the GPU events
 * file where s records' names are (the tree stage leaves them out).
 * The struct is large: allocate it.
 */
void ivin_open(struct ivin *in, const char *path, const char *gvpath);
/* Close the file (and the GPU events); the struct stays the caller's. */
void ivin_close(struct ivin *in);

/* A line of walk.tsv, sorted into an op's s and n records. */
struct went {
	int exact;		/* ts in exact ns, not doubles */
	union tv ts;		/* its start */
	long long launch;	/* the launching runtime event's UID */
	long long gpu;		/* the GPU event's UID */
	size_t off;		/* the line's place in the walkin's b */
	size_t len;		/* its length, without the newline */
	size_t gpuf;		/* offset of its stream field in the line */
};

/* walk.tsv (tl(7)), read range by range for the r records of intervals.tsv. */
struct walkin {
	FILE *fp;		/* the file, owned */
	const char *path;	/* its name, not owned */
	struct buf b;		/* the window: bytes of the file from wstart,
				   the range being read among them */
	long long wstart;	/* the window's offset in the file; -1: none */
	struct went *ent;	/* those lines, in s-record order */
	size_t entcap;		/* entries allocated */
	struct ivin sub;	/* the record made of one, as if read from
				   an intervals.tsv (its reader reads no file) */
	struct buf line;	/* that record's line */
};

/* Open walk.tsv at path into w (a large struct: allocate it). */
void walkin_open(struct walkin *w, const char *path);
void walkin_close(struct walkin *w);
/*
 * The current record of in, of kind r, as its op's s and n records,
 * sorted as intervals.tsv sorts records (by ts, as doubles or with exact
 * as exact ns, then launch and GPU UID): their number.  Memory: the
 * op's kernels.
 */
size_t ivin_expand(struct ivin *in, struct walkin *w, int exact);
/*
 * Record i of the last expansion, as an intervals.tsv record of the op
 * (read its fields with ivin_kind, ivin_name, kacc_add, ...; names come
 * from in's GPU events).  Valid until the next call.
 */
struct ivin *ivin_expanded(struct walkin *w, size_t i);
/* Die: op is below the op of the record before. */
_Noreturn void ivin_disorder(const struct ivin *in, long long op);

/* The current record's op, which must not be below the last one. */
static inline void
ivin_setop(struct ivin *in, long long op)
{
	if (op < in->op)
		ivin_disorder(in, op);
	in->op = op;
}

/* The next record, split; 0 at the end.  Dies when op decreases. */
static inline int
ivin_next(struct ivin *in)
{
	if (!rec_read(&in->r))
		return 0;
	ivin_setop(in, atoid(rec_get(&in->r, in->c[IOP], NULL)));
	return 1;
}

/* The kind of the current (split) record: 'd', 's', 'n' or '?'. */
static inline char
ivin_kind(const struct ivin *in)
{
	size_t len;
	const char *k = rec_get(&in->r, in->c[IKIND], &len);

	return len == 1 ? k[0] : '?';
}

/* op and kind lead the record, as the tree stage writes them. */
static inline int
ivin_bare(const struct ivin *in)
{
	return in->c[IOP] == 0 && in->c[IKIND] == 1;
}

/*
 * ivin_next without the split, for the passes that pick a few ops'
 * records out of many: the op and the kind are read off the line's
 * first two fields, where the tree stage writes them, and ivin_split
 * splits the line when it is wanted.  *kind is 'd', 's', 'n' or '?'.
 */
static inline int
ivin_peek(struct ivin *in, char *kind)
{
	const char *s, *e, *t;

	if (!ivin_bare(in)) {
		if (!ivin_next(in))
			return 0;
		*kind = ivin_kind(in);
		return 1;
	}
	if (!rec_next(&in->r))
		return 0;
	s = in->r.cur;
	e = s + in->r.curlen;
	ivin_setop(in, atoid(s));
	t = memchr(s, '\t', (size_t)(e - s));
	*kind = t != NULL && e - t >= 2 && (e - t == 2 || t[2] == '\t') ?
	    t[1] : '?';
	return 1;
}

/* Split the line ivin_peek read. */
static inline void
ivin_split(struct ivin *in)
{
	if (ivin_bare(in))
		rec_split(&in->r);
}

/* The name of the current record read at its ref in the GPU events. */
const char *ivin_gvname(struct ivin *in, size_t *len);

/*
 * The name of the current record: an s record's from the GPU events
 * (with gvp), as the tree stage leaves it out of intervals.tsv.
 */
static inline const char *
ivin_name(struct ivin *in, size_t *len)
{
	const struct rec_reader *r = &in->r;
	const char *s = rec_get(r, in->c[INAME], len);

	if (*len > 0 || in->gvp == NULL || *rec_get(r, in->c[IKIND], NULL) != 's')
		return s;
	return ivin_gvname(in, len);
}

/* A kernel of a kacc list in launch order: its place in kd. */
struct kent {
	long long launch;	/* the launching runtime event's UID */
	long long gpu;		/* the kernel's UID */
	size_t off, len;	/* its JSON object in kd */
};

/*
 * The call stacks of the launches (the tree stage's callstack.tsv: UID
 * TAB JSON list, by UID), looked up by binary search in the file:
 * memory is one line.
 */
struct cslook {
	FILE *fp;		/* the file */
	const char *name;	/* its name, for errors */
	long long size;		/* its length in bytes */
	long long last;		/* the UID looked up last, or -1 */
	int found;		/* it was found */
	struct buf chain;	/* its list, unescaped */
};

void cslook_open(struct cslook *c, const char *path);
void cslook_close(struct cslook *c);
/* The list of the launch uid, into c->chain; -1 when it has none. */
int cslook_get(struct cslook *c, long long uid);

/*
 * One op's kernels of one kind, as tl-aggregate's union, count, min,
 * first and list would fold them: TraceLens's busy time and kernel
 * list, in intervals.tsv's order (ts, then launch UID, then GPU UID),
 * or with launch in TraceLens's gpu_events order (launch UID, then GPU
 * UID: unified_perf_summary's lists).  Zero-initialise, set list and
 * launch, then kacc_reset.
 */
struct kacc {
	struct merger m;	/* the union of their intervals; m.exact: ns */
	size_t n;		/* kernels */
	long long g1;		/* smallest GPU UID */
	struct buf k1;		/* first non-empty name */
	struct buf kd;		/* JSON list of name, dur, stream, without ']';
				   with launch, the objects one after the other */
	int list;		/* kd is wanted */
	int launch;		/* kd in launch order */
	struct kent *ent;	/* with launch: the objects of kd, n of them */
	size_t entcap;		/* ent allocated */
	struct buf tmp;		/* with launch: the list being put in order */
	struct cslook *cs;	/* with launch: each kernel's call_stack from
				   its launch's, or NULL */
};

/* Empty k; exact: times in exact ns, not TraceLens's doubles. */
static inline void
kacc_reset(struct kacc *k, int exact)
{
	k->m.exact = exact;
	mg_reset(&k->m);
	k->n = 0;
	buf_reset(&k->k1);
	buf_reset(&k->kd);
}

/* Add in's current (split) record. */
void kacc_add(struct kacc *k, struct ivin *in);
/* Append TAB and the busy time (nothing for no kernels). */
void kacc_time(struct buf *b, struct kacc *k);
/* Append TAB and the kernel list, escaped as a record field. */
void kacc_list(struct buf *b, struct kacc *k);
/* Free k's buffers. */
void kacc_free(struct kacc *k);

/* ---- treeops.c: ops.tsv by UID, and meta.tsv's names ---- */

/* One name of meta.tsv: "pid TAB tid TAB kind" and its value. */
struct kv {
	char *k;	/* the key, owned */
	char *v;	/* the value, owned */
	size_t seq;	/* line number: the last line of a key wins */
};

/* meta.tsv's names, sorted by key (each key once). */
struct meta {
	struct kv *e;	/* the names */
	size_t n;	/* their number */
};

/* Load meta.tsv's names (pid tid kind value, with a header). */
void meta_load(struct meta *mt, const char *path);
/* The kind name of (pid, tid), or "Unknown"; key is scratch space. */
const char *meta_get(const struct meta *mt, struct buf *key, const char *pid,
    const char *tid, const char *kind);
void meta_free(struct meta *mt);

/* The ops.tsv columns that treeops gives. */
enum { OUID, ONAME, OTS, OPID, OTID, ODIMS, OTYPES, OSTRIDES, OCONC, ODUR,
    ONCOL };

/* A tree folder's ops.tsv, read as a merge by UID, and its meta.tsv names. */
struct treeops {
	struct meta mt;		/* meta.tsv's names */
	struct rec_reader r;	/* ops.tsv */
	FILE *fp;		/* its file, owned */
	struct buf path;	/* its path, owned */
	int oc[ONCOL];		/* the columns O*, in r */
	const char *f[ONCOL];	/* their fields in the current record (in r) */
	long long uid;		/* UID of r's record: -1 before, LLONG_MAX after */
	int split;		/* r's record is split (rec_split) */
	char iob[TL_IOBUF];	/* stdio's, for ops.tsv */
};

/* Open the tree folder dir's ops.tsv and meta.tsv. */
void treeops_open(struct treeops *to, const char *dir);
/* Close ops.tsv and free meta.tsv's names. */
void treeops_close(struct treeops *to);
/*
 * Advance to uid (calls in ascending uid); 1 when ops.tsv has it, its
 * fields then in to->f.
 */
int treeops_at(struct treeops *to, long long uid);
/*
 * Append TAB and the current op's process name, process label, thread
 * name (each "Unknown" when meta.tsv has none) and its four inputs;
 * key is scratch space.
 */
void treeops_names(struct buf *b, struct treeops *to, struct buf *key);

#endif
