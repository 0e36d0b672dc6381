/* See LICENSE file for copyright and license details. */
/*
 * tmeta.c: skim a trace for deviceProperties and distributedInfo
 * (tmeta.h).  Kineto writes both before traceEvents, so the skim
 * usually ends after a few kilobytes; when they come after the events
 * it runs to the end, following only strings and depth.
 */
#include <string.h>

#include "tmeta.h"

static int
iskeyname(const char *k, size_t len, const char *want)
{
	return len == strlen(want) && memcmp(k, want, len) == 0;
}

/* Keep byte c of a key or value being read, up to max bytes. */
static void
keep(char *buf, size_t *len, size_t max, char c)
{
	if (*len < max)
		buf[*len] = c;
	if (*len <= max)
		(*len)++;
}

/* The value being captured ended: keep it if whole, else nothing. */
static void
capend(struct tmeta *s)
{
	if (s->cap == NULL)
		return;
	if (s->caplen > TMETA_VALMAX)
		s->caplen = 0;
	s->cap[s->caplen] = '\0';
	s->cap = NULL;
}

/* A depth-1 value (the one of s->key) starts with byte c. */
static void
topvalue(struct tmeta *s, char c)
{
	/* (a member given twice: the first counts) */
	int dev = !s->seendev && iskeyname(s->key, s->keylen, "deviceProperties");
	int dist = !s->seendist && iskeyname(s->key, s->keylen,
	    "distributedInfo");

	if (dev) {
		s->ndev = -1;
		s->seendev = c != '[';
		if (c == '[') {
			s->inval = 'd';
			s->devany = 0;
			s->ncomma = 0;
		}
	} else if (dist) {
		s->rank[0] = s->world[0] = '\0';
		s->seendist = c != '{';
		if (c == '{')
			s->inval = 'i';
	}
}

/* A distributedInfo value starts with byte c: capture a scalar. */
static void
subvalue(struct tmeta *s, char c)
{
	char *dst = NULL;

	if (iskeyname(s->sub, s->sublen, "rank"))
		dst = s->rank;
	else if (iskeyname(s->sub, s->sublen, "world_size"))
		dst = s->world;
	if (dst == NULL)
		return;
	dst[0] = '\0';
	if (c == '{' || c == '[')
		return;
	s->cap = dst;
	s->caplen = 0;
	s->capq = c == '"';
	if (!s->capq)
		keep(s->cap, &s->caplen, TMETA_VALMAX, c);
}

static void
checkdone(struct tmeta *s)
{
	if (s->seendev && s->seendist)
		s->done = 1;
}

/* A structural or scalar byte outside strings. */
static void
outside(struct tmeta *s, char c)
{
	int valstart;

	if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
		if (s->cap != NULL && !s->capq)
			capend(s);
		return;
	}
	if (s->depth == 0 && c != '{') {
		/* a bare array of events, or no JSON at all */
		if (c == '[')
			s->top = '[';
		s->done = 1;
		return;
	}
	if (s->cap != NULL && !s->capq) {
		if (c == ',' || c == '}' || c == ']')
			capend(s);
		else {
			keep(s->cap, &s->caplen, TMETA_VALMAX, c);
			return;
		}
	}
	/* the first byte of a value in an object (after its ':') */
	valstart = !s->expkey && c != ',' && c != ':' && c != '}' &&
	    c != ']';
	if (valstart && s->depth == 1 && s->top == '{')
		topvalue(s, c);
	else if (valstart && s->depth == 2 && s->inval == 'i')
		subvalue(s, c);
	if (s->depth == 2 && s->inval == 'd' && c != ',' && c != ']')
		s->devany = 1;
	switch (c) {
	case '{':
	case '[':
		if (++s->depth == 1)
			s->top = c;
		s->expkey = c == '{' && s->depth <= 2;
		if (s->depth > 2)
			s->expkey = 0;
		break;
	case '}':
	case ']':
		if (s->depth == 0)
			break;
		if (--s->depth == 0) {
			s->done = 1;
			break;
		}
		if (s->depth == 1) {
			if (s->inval == 'd') {
				s->ndev = s->devany ? s->ncomma + 1 : 0;
				s->seendev = 1;
			} else if (s->inval == 'i')
				s->seendist = 1;
			s->inval = 0;
			checkdone(s);
		}
		/* after a value, a ',' or the end comes */
		s->expkey = 0;
		break;
	case ',':
		if (s->depth == 2 && s->inval == 'd')
			s->ncomma++;
		/* a key follows in the objects we read keys of */
		s->expkey = (s->depth == 1 && s->top == '{') ||
		    (s->depth == 2 && s->inval == 'i');
		if (s->depth == 1)
			s->keylen = 0;
		if (s->depth == 2)
			s->sublen = 0;
		break;
	case ':':
		s->expkey = 0;
		break;
	default:
		/* a scalar's byte: its value started above */
		s->expkey = 0;
		break;
	}
	if (s->depth == 1 && s->top == '{' && valstart && c != '{' &&
	    c != '[')
		checkdone(s);
}

void
tmeta_init(struct tmeta *s)
{
	memset(s, 0, sizeof(*s));
	s->ndev = -1;
}

int
tmeta_feed(struct tmeta *s, const char *p, size_t n)
{
	const char *end = p + n;
	char c;

	for (; p < end && !s->done; p++) {
		c = *p;
		if (!s->instr) {
			if (c != '"') {
				outside(s, c);
				continue;
			}
			if (s->depth == 0) {
				s->done = 1;
				break;
			}
			s->instr = 1;
			s->esc = 0;
			s->iskey = s->expkey;
			if (s->iskey && s->depth == 1)
				s->keylen = 0;
			else if (s->iskey && s->depth == 2)
				s->sublen = 0;
			else if (s->depth == 1 && s->top == '{') {
				topvalue(s, c);
				checkdone(s);
			} else if (s->depth == 2 && s->inval == 'i')
				subvalue(s, c);
			else if (s->depth == 2 && s->inval == 'd')
				s->devany = 1;
			continue;
		}
		if (!s->esc && c == '"') {
			s->instr = 0;
			if (s->iskey)
				s->expkey = 0;
			else if (s->cap != NULL && s->capq)
				capend(s);
			continue;
		}
		s->esc = !s->esc && c == '\\';
		if (s->iskey && s->depth == 1)
			keep(s->key, &s->keylen, TMETA_KEYMAX, c);
		else if (s->iskey && s->depth == 2 && s->inval == 'i')
			keep(s->sub, &s->sublen, TMETA_KEYMAX, c);
		else if (s->cap != NULL && s->capq)
			keep(s->cap, &s->caplen, TMETA_VALMAX, c);
	}
	return s->done;
}
