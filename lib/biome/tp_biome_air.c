/* tp_biome_air.c - a row's temperature and precipitation for tbiome
 * --climate, from tp_climate; apart from tp_biome.c so that the table
 * alone links without the climate model. */
#include <math.h>

#include "biome/tp_biome_air.h"

void
tp_biome_air_row(const tp_climate *c, const double *lat, const float *height,
    const float *moisture, const float *rain_in, int64_t width, double *temp,
    double *rain)
{
	for (int64_t x = 0; x < width; x++) {
		temp[x] = tp_climate_temperature(c, lat[x], height[x]);
		rain[x] = rain_in != NULL ? rain_in[x] : moisture != NULL ?
		    tp_climate_rain(c, moisture[x]) : NAN;
	}
}
