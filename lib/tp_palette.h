/*
 * tp_palette.h - what the codes of a band named "biome" mean and the
 * colours they are drawn in: one table, so every program that writes or
 * draws biome codes agrees on them.
 *
 * A biome band holds whole codes 0 .. TP_PALETTE_BIOMES - 1 as floats
 * (NaN: no biome). tgeotiff writes it as UInt8 with this table as the
 * GeoTIFF's colour map; codes without an entry are drawn grey.
 */
#ifndef TP_PALETTE_H
#define TP_PALETTE_H

typedef struct tp_palette_entry {
	const char *name;	/* e.g. "deep water" */
	unsigned char rgb[3];	/* display colour, sRGB 0..255 */
} tp_palette_entry;

enum { TP_PALETTE_BIOMES = 16 };	/* codes with an entry: 0 .. 15 */

/* The entry of biome code `code`, or NULL when the code has none. */
const tp_palette_entry *tp_palette_biome(int code);

#endif
