/* See LICENSE file for copyright and license details. */
/*
 * change.c: the changes tl-gentrace -c makes to a trace, for tests whose
 * expected comparison is known by construction (see gentrace.h).
 *
 * A change only rescales or renames what the generator already drew,
 * and never draws a random number itself, so the trace with a change
 * and the one without share every other duration, shape and id.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "gentrace.h"

enum { C_OP, C_KERNEL, C_RENAME };	/* what a change matches */

struct change {
	int	 kind;		/* C_* */
	char	*what;		/* op name, or text of the event name; owned */
	char	*to;		/* C_RENAME: the new name as JSON text; owned */
	int64_t	 num;		/* the duration factor's numerator */
	int64_t	 den;		/* and denominator */
};

/* The changes, in the order given; they apply one after another. */
static struct change	ch[16];
static size_t		nch;
static int64_t		gap;	/* idle:US, in ns */

/* A decimal factor such as 2 or 0.25, as num / den; -1 if it is not one. */
static int
factor(const char *s, int64_t *num, int64_t *den)
{
	int64_t n = 0, d = 1;
	int frac = 0, nd = 0;

	for (; *s; s++) {
		if (*s == '.' && !frac) {
			frac = 1;
			continue;
		}
		if (*s < '0' || *s > '9' || ++nd > 9)
			return -1;
		n = n * 10 + (*s - '0');
		if (frac)
			d *= 10;
	}
	if (nd == 0 || n == 0)
		return -1;
	*num = n;
	*den = d;
	return 0;
}

/* s as the body of a JSON string, in a new string. */
static char *
jsonesc(const char *s)
{
	struct buf b = { 0 };

	for (; *s; s++) {
		if (*s == '"' || *s == '\\') {
			buf_addc(&b, '\\');
			buf_addc(&b, *s);
		} else if ((unsigned char)*s < 0x20) {
			char u[8];

			snprintf(u, sizeof(u), "\\u%04x", (unsigned char)*s);
			buf_adds(&b, u);
		} else
			buf_addc(&b, *s);
	}
	return b.s;	/* (s is not empty: b.s is set) */
}

int
change_add(const char *spec)
{
	struct change *c;
	const char *arg, *eq;
	int64_t us;

	if (strncmp(spec, "idle:", 5) == 0) {
		us = 0;
		for (arg = spec + 5; *arg >= '0' && *arg <= '9'; arg++)
			if ((us = us * 10 + (*arg - '0')) > 1000000000)
				return -1;
		if (arg == spec + 5 || *arg != '\0')
			return -1;
		gap += us * 1000;
		return 0;
	}
	if (nch == LEN(ch))
		return -1;
	c = &ch[nch];
	if (strncmp(spec, "op:", 3) == 0)
		c->kind = C_OP, arg = spec + 3;
	else if (strncmp(spec, "kernel:", 7) == 0)
		c->kind = C_KERNEL, arg = spec + 7;
	else if (strncmp(spec, "rename:", 7) == 0)
		c->kind = C_RENAME, arg = spec + 7;
	else
		return -1;
	/* A factor holds no '=', a new name may: split where each can. */
	eq = c->kind == C_RENAME ? strchr(arg, '=') : strrchr(arg, '=');
	if (eq == NULL || eq == arg || eq[1] == '\0')
		return -1;
	c->num = c->den = 1;
	if (c->kind != C_RENAME && factor(eq + 1, &c->num, &c->den) != 0)
		return -1;
	c->what = tl_strndup(arg, (size_t)(eq - arg));
	c->to = c->kind == C_RENAME ? jsonesc(eq + 1) : NULL;
	nch++;
	return 0;
}

int64_t
change_dur(const char *op, const char *name, int64_t dur)
{
	size_t i;

	for (i = 0; i < nch; i++) {
		if (ch[i].kind == C_OP ? op != NULL &&
		    strcmp(op, ch[i].what) == 0 : ch[i].kind == C_KERNEL &&
		    name != NULL && strstr(name, ch[i].what) != NULL)
			dur = dur * ch[i].num / ch[i].den;
	}
	return dur;
}

const char *
change_name(const char *name)
{
	size_t i;

	for (i = 0; i < nch && name != NULL; i++)
		if (ch[i].kind == C_RENAME && strstr(name, ch[i].what) != NULL)
			name = ch[i].to;
	return name;
}

int64_t
change_gap(void)
{
	return gap;
}
