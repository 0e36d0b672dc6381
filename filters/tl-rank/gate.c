/* See LICENSE file for copyright and license details. */
/*
 * gate.c: the regression gates (-g): their specs, and the check of
 * every row that may trip one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"
#include "rank.h"

/* Sheets a gate may name. */
static const char *const gatesheet[] = {
	"gpu_timeline", "ops_summary", "kernel_summary",
	"ops_summary_by_category"
};

void
gate_parse(struct opts *o, const char *spec)
{
	struct gate *g;
	const char *colon, *eq, *pct = spec;
	double d;
	size_t i, len;

	o->gates = tl_realloc(o->gates, (o->ngate + 1) * sizeof(*o->gates));
	g = &o->gates[o->ngate++];
	memset(g, 0, sizeof(*g));
	g->spec = spec;
	g->sheet = gatesheet[0];
	if ((colon = strchr(spec, ':')) != NULL) {
		for (i = 0; i < LEN(gatesheet); i++)
			if (strlen(gatesheet[i]) == (size_t)(colon - spec) &&
			    strncmp(spec, gatesheet[i], (size_t)(colon - spec)) == 0)
				g->sheet = gatesheet[i];
		if (g->sheet == gatesheet[0] && strncmp(spec, "gpu_timeline:", 13) != 0)
			tl_usage_die("gate %s: no such sheet: %.*s", spec,
			    (int)(colon - spec), spec);
		if ((eq = strrchr(colon, '=')) == NULL || eq == colon + 1)
			tl_usage_die("gate %s: not SHEET:KEY=PCT", spec);
		g->key = tl_strndup(colon + 1, (size_t)(eq - colon - 1));
		pct = eq + 1;
	} else
		g->key = tl_strdup("total_time");
	len = strlen(pct);
	if (len > 0 && pct[len - 1] == '%')
		len--;	/* 5% is 5 */
	if (num_double(pct, len, &d) != 0 || !isfinite(d) || d < 0)
		tl_usage_die("gate %s: not a percentage: %s", spec, pct);
	g->limit = d;
}

/*
 * Check the row e of sheet (ntag reports) against the gates: a row
 * grew too much when its percent change is over the limit, or, for a
 * gate that names it, when the baseline lacks it or has 0.
 */
void
gate_row(struct ctx *c, const char *sheet, const struct ent *e, size_t ntag)
{
	char a[FMTSZ], b[FMTSZ];
	struct gate *g;
	size_t i, k;
	int over;

	for (k = 0; k < c->opt->ngate; k++) {
		g = &c->opt->gates[k];
		/* by name: the callers' literals, in other files, need not
		 * share the addresses of gatesheet's */
		if (strcmp(g->sheet, sheet) != 0 || (strcmp(g->key, "*") != 0 &&
		    strcmp(g->key, e->name) != 0))
			continue;
		g->seen = 1;
		for (i = 1; i < ntag; i++) {
			if (isnan(V(e, i)))
				continue;
			if (!isnan(P(e, i)))
				over = P(e, i) > g->limit;
			else	/* from nothing: only a gate naming it counts it */
				over = strcmp(g->key, "*") != 0 &&
				    (isnan(V(e, 0)) || V(e, 0) == 0) && V(e, i) > 0;
			if (!over)
				continue;
			g->over++;
			c->over++;
			fmtval(a, sizeof(a), isnan(V(e, 0)) ? 0 : V(e, 0),
			    e->unit, 0);
			fmtval(b, sizeof(b), V(e, i), e->unit, 0);
			if (!isnan(P(e, i)))
				tl_warn("%s: %s grew %.2f%% in %s (limit %g%%): "
				    "%s -> %s", sheet, e->name, P(e, i),
				    c->tag[i], g->limit, a, b);
			else
				tl_warn("%s: %s grew from %s to %s in %s "
				    "(limit %g%%)", sheet, e->name, a, b,
				    c->tag[i], g->limit);
		}
	}
}
