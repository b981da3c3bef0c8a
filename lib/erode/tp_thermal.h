/*
 * tp_thermal.h - thermal (talus) erosion: material slides from a cell to a
 * lower neighbour where the drop exceeds the talus slope.
 *
 * Each pass moves, between every pair of 8-neighbours whose drop d exceeds
 * talus * distance (distance 1 or sqrt 2 cells), TP_THERMAL_RATE * (d -
 * talus * distance) from the higher to the lower cell. A pass reads the old
 * heights and writes new ones (Jacobi, double-buffered), so the result does
 * not depend on the thread count, and the pairwise flows conserve volume.
 * Nodata cells (failing tp_erode_valid: NaN, infinities, |v| > 1e30)
 * and sea cells (finite and below the sea level, tp_d8.h) neither give
 * nor take. A cell gives at most half its largest drop to land, so land
 * stays above its lowest land neighbour (up to rounding) and the sea
 * keeps its coast.
 */
#ifndef TP_THERMAL_H
#define TP_THERMAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

#define TP_THERMAL_RATE	0.0625	/* share of the excess moved per pair */

/* Run passes thermal passes on the width x height plane z (row y at
 * z + y * stride) in place; talus is the stable drop per cell in height
 * units, >= 0; sea_level -INFINITY: no sea. Needs one extra width x
 * height float buffer. */
int	tp_thermal(float *z, int64_t width, int64_t height, size_t stride,
	    int passes, double talus, double sea_level, int threads, tp_err *e);

#endif
