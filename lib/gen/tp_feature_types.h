/*
 * tp_feature_types.h - the layered ground's data (tp_feature.h is the
 * manual): the items, residual lines and the set that holds them, and
 * their limits. Apart from tp_feature.h so that the feature modules'
 * internal header (tp_featprep.h) needs nothing of the modules it serves.
 */
#ifndef TP_FEATURE_TYPES_H
#define TP_FEATURE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define TP_FEAT_COORD_MAX	1e15	/* |coordinate|, |height|, |amplitude| */
#define TP_FEAT_LEN_MIN		1e-9	/* sigma, width, falloff, scale */
#define TP_FEAT_LEN_MAX		1e15	/* the same, and radius */
/* the hill's reach in sigmas, sqrt(2 ln 1000) */
#define TP_FEAT_HILL_REACH	3.7169221888498383
#define TP_FEAT_RIDGE_REACH	3.0	/* in widths */

/* The layers, as a mask (--layer). */
#define TP_LAYER_HILLS		1u	/* base and hills */
#define TP_LAYER_FEATURES	2u	/* ridges, cliffs, plateaus (basins) */
#define TP_LAYER_RESIDUAL	4u	/* residual noise */
#define TP_LAYER_ALL		7u

typedef enum {
	TP_FEAT_HILL, TP_FEAT_RIDGE, TP_FEAT_CLIFF, TP_FEAT_PLATEAU
} tp_feature_kind;

typedef struct tp_feature_item {
	tp_feature_kind kind;
	double	x0, y0;		/* hill, plateau: the centre; else the start */
	double	x1, y1;		/* ridge, cliff: the segment's end */
	double	height;
	double	sigma;		/* hill */
	double	width;		/* ridge, cliff */
	double	falloff;	/* cliff, plateau */
	double	radius;		/* plateau */
	int	line;		/* of the source file, for messages; 0: none */
} tp_feature_item;

typedef struct tp_feature_residual {
	uint32_t seed;
	double	amplitude, scale;
	int	octaves;
} tp_feature_residual;

typedef struct tp_features {
	double	base;		/* 0 without a base line */
	tp_feature_item	*f;		/* hills and features, in file order */
	size_t	n, cap;
	tp_feature_residual *res;	/* residual lines, in file order */
	size_t	nres, capres;
	int	has_base;	/* a base line was read (a second is an error) */
} tp_features;

#endif
