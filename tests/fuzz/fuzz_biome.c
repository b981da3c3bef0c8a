/* fuzz-libs: */
/*
 * fuzz_biome.c - libFuzzer target: any table text through tp_palette_parse
 * and tbiome's rule compiler is a table or an error, never a crash; small
 * grids classified by it give only codes of the table, or NaN; and the
 * compiled lookup gives what a plain scan of the clauses in table order
 * gives (abort() otherwise).
 *
 * Input bytes:
 *   0, 1   width and height, 1..8 each
 *   2      bit 0 climate mode; bits 1..3 the river, depth and slope bands
 *          present; bits 4..7 the thread-free options (below)
 *   3..    8 bands x width x height cells, one byte a cell: 255 NaN, 254
 *          inf, 253 -inf, else (b - 64) / 128 (heights, moisture, river,
 *          depth and the lookups' first axis); slope b / 2 degrees,
 *          temperature (b - 128) / 3 C, rain 20 b mm; missing bytes 0
 *   rest   the table's text; when it does not parse, the default table
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "biome/tp_biome.h"

enum { MAXD = 8, NB = 8 };

static double
val(uint8_t b)
{
	return b == 255 ? NAN : b == 254 ? INFINITY : b == 253 ? -INFINITY :
	    (b - 64) / 128.0;
}

/* The first box of l holding (a, v), by a plain scan in table order. */
static float
scan(const tp_biome_look *l, double a, double v)
{
	for (int i = 0; i < l->nbox; i++) {
		const tp_biome_box *x = &l->box[i];

		if ((x->a0 == -INFINITY || x->a0 <= a) &&
		    (x->a1 == INFINITY || a < x->a1) &&
		    (x->b0 == -INFINITY || x->b0 <= v) &&
		    (x->b1 == INFINITY || v < x->b1))
			return x->code;
	}
	return NAN;
}

static int
same(float a, float b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void
check_code(const tp_palette *p, float v)
{
	if (!isnan(v) && (v != floorf(v) || tp_palette_find(p, (int)v) == NULL))
		abort();
}

static void
classify(const tp_biome *b, const tp_palette *p, float g[NB][MAXD * MAXD],
    int w, int h, int flags)
{
	double temp[MAXD * MAXD], rain[MAXD * MAXD];
	float out[MAXD];
	tp_biome_tally t;

	for (int i = 0; i < w * h; i++) {
		temp[i] = g[5][i];
		rain[i] = g[6][i];
	}

	tp_biome_tally_init(&t);
	for (int y = 0; y < h; y++) {
		tp_biome_row r;

		memset(&r, 0, sizeof r);
		r.up = y > 0 ? g[0] + (y - 1) * w : NULL;
		r.mid = g[0] + y * w;
		r.down = y + 1 < h ? g[0] + (y + 1) * w : NULL;
		r.moisture = g[1] + y * w;
		r.river = flags & 2 ? g[2] + y * w : NULL;
		r.depth = flags & 4 ? g[3] + y * w : NULL;
		r.slope = flags & 8 ? g[4] + y * w : NULL;
		r.temp = temp + y * w;
		r.rain = rain + y * w;
		r.ewres = r.nsres = 1 + g[7][y * w] * g[7][y * w];
		tp_biome_classify(b, &r, w, out, &t);
		for (int x = 0; x < w; x++) {
			check_code(p, out[x]);
			if (isnan(r.mid[x]) && !isnan(out[x]))
				abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static tp_palette p;
	float g[NB][MAXD * MAXD];
	tp_biome_opts o;
	size_t used;
	tp_biome b;
	int w, h, flags;

	if (size < 3)
		return 0;
	w = 1 + data[0] % MAXD;
	h = 1 + data[1] % MAXD;
	flags = data[2];
	used = 3 + (size_t)(NB * w * h);
	for (int k = 0; k < NB; k++)
		for (int i = 0; i < w * h; i++) {
			size_t at = 3 + (size_t)(k * w * h + i);
			uint8_t v = at < size ? data[at] : 0;

			g[k][i] = (float)(k == 4 ? v / 2.0 : k == 5 ?
			    (v - 128) / 3.0 : k == 6 ? 20.0 * v : val(v));
		}
	if (used >= size || tp_palette_parse(&p, (const char *)data + used,
	    size - used, NULL) < 0)
		tp_palette_default(&p);
	if (tp_biome_compile(&b, &p, flags & 1, NULL) == 0) {
		tp_biome_defaults(&o, val(data[2 + (size > 3)]) / 4, 1);
		o.rock_slope = (flags >> 4) * 6;
		o.lake = (flags >> 6) / 4.0;
		tp_biome_set(&b, &o);
		for (int i = 0; i < w * h; i++) {
			if (!same(tp_biome_zone(&b, g[0][i], g[1][i]),
			    scan(&b.zone, g[0][i], g[1][i])) ||
			    !same(tp_biome_whittaker(&b, g[5][i], g[6][i]),
			    scan(&b.climate, g[5][i], g[6][i])))
				abort();
		}
		classify(&b, &p, g, w, h, flags);
	}
	tp_biome_free(&b);
	return 0;
}
