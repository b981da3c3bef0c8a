/* tp_palette.c - the biome codes' names and colours. */
#include <stddef.h>

#include "tp_palette.h"

static const tp_palette_entry biomes[TP_PALETTE_BIOMES] = {
	[0] = { "deep water", { 0, 40, 110 } },
	[1] = { "shallow water", { 30, 90, 170 } },
	[2] = { "beach", { 220, 205, 150 } },
	[3] = { "desert", { 230, 200, 120 } },
	[4] = { "grassland", { 140, 190, 90 } },
	[5] = { "shrubland", { 150, 160, 90 } },
	[6] = { "temperate forest", { 60, 130, 60 } },
	[7] = { "rain forest", { 30, 100, 50 } },
	[8] = { "taiga", { 70, 110, 90 } },
	[9] = { "tundra", { 160, 160, 140 } },
	[10] = { "rock", { 120, 110, 100 } },
	[11] = { "snow", { 245, 245, 250 } },
	[12] = { "river", { 50, 110, 200 } },
	[13] = { "lake", { 60, 100, 180 } },
	[14] = { "marsh", { 90, 120, 100 } },
	[15] = { "bare ground", { 180, 160, 140 } },
};

const tp_palette_entry *
tp_palette_biome(int code)
{
	return code >= 0 && code < TP_PALETTE_BIOMES ? &biomes[code] : NULL;
}
