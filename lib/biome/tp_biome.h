/*
 * tp_biome.h - the biome of a cell: the table's rules (tp_palette.h)
 * compiled into lookups, and the classification of a row.
 *
 * A class's rule is a list of clauses (tp_palette.c's default text spells
 * out the grammar): "zone E0 E1 M0 M1", "climate T0 T1 P0 P1", or one of
 * the keywords sea lake river rock snow beach marsh. Intervals are
 * half-open, [lo, hi); a bound may be -inf or inf; an interval must not be
 * empty (lo < hi). An unbounded interval (-inf, inf) matches a NaN too, so
 * a class that does not look at moisture does not need it.
 *
 * A cell of height h, sea level S, moisture m is classified by the first
 * of these that applies (each override only when the table has a class
 * with its keyword; the first such class in table order):
 *	1. h NaN                                          NaN
 *	2. h < S                                          sea (NaN without one)
 *	3. lake > 0 (a lake band given; else depth > lake) lake
 *	4. river > 0                                      river
 *	5. slope > rock_slope                             rock
 *	6. h >= snow (snow NaN: never)                    snow
 *	7. h - S < beach                                  beach
 *	8. h - S < marsh_height, m >= marsh_wet,
 *	   slope < marsh_slope                            marsh
 *	9. table mode: the first zone, in table order, holding
 *	   e = (h - S) / (top - S) and m; climate mode: the first climate
 *	   clause holding T and P. None: NaN, counted as unmatched.
 * Slope is in degrees: the slope band's value where the stream has one,
 * else atan of Horn's gradient (tp_grad.h) of heights times zscale over
 * the cell spacing in metres. "slope > D" is decided as gradient > tan(D),
 * which is the same comparison without an atan per cell.
 */
#ifndef TP_BIOME_H
#define TP_BIOME_H

#include <stdint.h>

#include "core/tp_err.h"
#include "biome/tp_palette.h"

/* The override keywords, in the order they are applied. */
enum tp_biome_kw {
	TP_BIOME_SEA, TP_BIOME_LAKE, TP_BIOME_RIVER, TP_BIOME_ROCK,
	TP_BIOME_SNOW, TP_BIOME_BEACH, TP_BIOME_MARSH, TP_BIOME_NKW
};

typedef struct tp_biome_opts {
	double	sea;		/* sea level, height units */
	double	top;		/* table mode: height of e = 1, > sea */
	double	lake;		/* depth above which a cell is lake */
	double	rock_slope;	/* degrees, 0 .. 90 */
	double	snow;		/* height from which snow; NaN: none */
	double	beach;		/* height above the sea below which beach */
	double	marsh_height;	/* height above the sea below which marsh */
	double	marsh_wet;	/* moisture from which marsh */
	double	marsh_slope;	/* degrees below which marsh */
	double	zscale;		/* metres per height unit, for the slope */
	int	climate;	/* 1: climate clauses instead of zones */
} tp_biome_opts;

/* Table mode defaults for sea level sea and top height top: lake 0.001
 * (top - sea), rock 40 degrees, snow sea + 0.9 (top - sea), beach 0.02
 * (top - sea), marsh 0.1 (top - sea), moisture 0.83 and 1 degree, zscale
 * 1. */
void	tp_biome_defaults(tp_biome_opts *o, double sea, double top);

/* One clause's rectangle: [a0, a1) x [b0, b1) gives code. */
typedef struct tp_biome_box {
	double	a0, a1, b0, b1;
	float	code;
} tp_biome_box;

/* The clauses of one kind, compiled: both axes cut at every finite bound
 * of every box, so each cell of the cut grid lies wholly inside or
 * outside each box and holds the code of the first box (table order)
 * holding it. A lookup counts the bounds at or below each value (a few
 * compares, no branches) and reads the cell; NaN has a row and a column
 * of its own. A table too large for the grid is scanned box by box. */
typedef struct tp_biome_look {
	int	nbox;
	tp_biome_box *box;	/* in table order */
	int	na, nb;		/* finite bounds on each axis */
	double	*acut, *bcut;	/* sorted, distinct */
	float	*code;		/* (na + 2) x (nb + 2): [ka * (nb + 2) + kb];
				 * NULL: scan the boxes */
} tp_biome_look;

typedef struct tp_biome {
	tp_biome_opts o;
	float	kw[TP_BIOME_NKW];	/* each keyword's code, NaN: none */
	tp_biome_look zone, climate;
	double	tan2_rock, tan2_marsh;	/* squared tangents of the slopes */
	double	escale;			/* 1 / (top - sea) */
	int	need_slope;		/* a rock or marsh class exists */
	int	simd;			/* tp_simd_level the rows run at:
					 * tp_simd_probe()'s; lower it to
					 * compare (the same bytes) */
} tp_biome;

/* Compile palette p's rules, with tp_biome_defaults(0, 1) as options.
 * Errors name the table line and the word: "line 7: 'zonee' is not a
 * clause (zone, climate, sea, lake, river, rock, snow, beach, marsh)". A
 * table for climate mode needs climate clauses, one for table mode zones.
 * b is freed with tp_biome_free (also after a failure). */
int	tp_biome_compile(tp_biome *b, const tp_palette *p, int climate,
	    tp_err *e);
/* Classify with options o from now on (o->climate is the compiled one). */
void	tp_biome_set(tp_biome *b, const tp_biome_opts *o);
void	tp_biome_free(tp_biome *b);

/* The output header of a stream with header h: a band "biome" added
 * unless h has one (its index in *band), SEALEVEL sea, and p's classes as
 * BIOME lines. */
int	tp_biome_header(tp_header *h, const tp_palette *p, double sea,
	    int *band, tp_err *e);

/* The code of the first zone holding (e, m), or NaN. Only the tests call it:
 * one look-up of the zone table, to check the table cell by cell without a
 * stream. */
float	tp_biome_zone(const tp_biome *b, double e, double m);
/* The code of the first climate clause holding temperature t (C) and
 * precipitation p (mm/year): Whittaker's diagram; NaN when none does. Only the
 * tests call it: one look-up of the climate table, to check the table cell by
 * cell without a stream. */
float	tp_biome_whittaker(const tp_biome *b, double t, double p);

/* One row's inputs: heights of rows y - 1, y, y + 1 (up and down NULL
 * beyond the grid), the other bands' samples of row y (NULL when the
 * stream lacks the band), and the row's cell spacing in metres. */
typedef struct tp_biome_row {
	const float *up, *mid, *down;
	const float *moisture, *river, *depth, *slope;
	const float *lake;	/* lake ids (tflow): lake > 0 is lake, and
				 * depth is not looked at for it */
	const double *temp, *rain;	/* climate mode: C, mm/year */
	double	ewres, nsres;
} tp_biome_row;

/* What a run saw, for the warnings at its end. */
typedef struct tp_biome_tally {
	int64_t	unmatched;	/* land cells that got NaN */
	double	hmax;		/* the highest height (-inf: none) */
} tp_biome_tally;

void	tp_biome_tally_init(tp_biome_tally *t);
/* Add t's counts into sum. */
void	tp_biome_tally_add(tp_biome_tally *sum, const tp_biome_tally *t);

/* Classify the width cells of row r into out (codes as floats, NaN), and
 * add what it saw to t. */
void	tp_biome_classify(const tp_biome *b, const tp_biome_row *r,
	    int64_t width, float *out, tp_biome_tally *t);

#endif
