/*
 * tp_biome_air.h - tbiome --climate's air: a row's temperature and
 * precipitation from the climate model (tp_climate.h), for the biome
 * table (tp_biome.h). Apart from tp_biome.h so that the table alone links
 * without the climate model.
 */
#ifndef TP_BIOME_AIR_H
#define TP_BIOME_AIR_H

#include <stdint.h>

#include "biome/tp_climate.h"

/* The temperature (C) and precipitation
 * (mm/year) of the width cells of a row, from their latitudes (degrees),
 * heights and moisture by model c: precipitation rain_in's where given
 * (the orographic model), else tp_climate_rain of the moisture, else NaN. */
void	tp_biome_air_row(const tp_climate *c, const double *lat,
	    const float *height, const float *moisture, const float *rain_in,
	    int64_t width, double *temp, double *rain);

#endif
