/*
 * tp_splatband.h - splat channels driven by mask bands (terode's wear,
 * deposit and flow, tslope's slope, any band), beside or instead of the
 * biome slots of tp_splat.
 *
 * The spec, texport's --splat-bands, names bands and the range of each
 * that spans no cover to full cover, comma-separated:
 *
 *	wear:0:0.5,deposit:0:0.2,slope:20:45
 *
 * A name alone takes the range 0:1 (a band already a cover fraction).
 * Band k's cover is t_k = (v - LO) / (HI - LO) clamped to [0, 1] (NaN, or
 * HI == LO with v < HI: 0). With S = t_1 + ... + t_n, band k's share of 255
 * is 255 t_k / max(1, S): when the covers sum past 1 they split the cell
 * in proportion, and the base gets nothing. The base (slot 0 alone, or the
 * biome slots of tp_splat by their weights) shares the rest, 255 - the
 * bands' shares. The base slots come first and the bands follow in the
 * spec's order, so with the biome slots 0 .. m-1 band k is slot m + k - 1.
 *
 * Every slot's real share is rounded by largest remainders (floors, then
 * one unit each to the largest remainders, ties to the lower slot), so a
 * cell's weights sum to exactly 255, as tp_splat's do. Example, one base
 * slot and wear:0:0.5,slope:20:45 at wear 0.1, slope 30: t = 0.2, 0.4;
 * shares 51, 102; the base 102: (102, 51, 102).
 */
#ifndef TP_SPLATBAND_H
#define TP_SPLATBAND_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "export/tp_splat.h"
#include "stream/tp_stream.h"

#define TP_SPLATBAND_MAX	(TP_SPLAT_SLOTS - 1)	/* a base slot left */

typedef struct tp_splatband {
	int	n;				/* bands */
	char	name[TP_SPLATBAND_MAX][TP_NAME_MAX];
	double	lo[TP_SPLATBAND_MAX], hi[TP_SPLATBAND_MAX];
	int	band[TP_SPLATBAND_MAX];		/* after bind: in the stream */
} tp_splatband;

/* Parse spec into sb: 1 to TP_SPLATBAND_MAX entries NAME[:LO:HI], LO <
 * HI, no name twice. */
int	tp_splatband_parse(tp_splatband *sb, const char *spec, tp_err *e);
/* Find each band in the stream of header h (band[]). */
int	tp_splatband_bind(tp_splatband *sb, const tp_header *h, tp_err *e);

/* One cell's weights: base[0 .. nbase) (summing to 255; NULL with nbase 1:
 * the base slot alone) and the bands' values v[0 .. n) into w[0 .. nbase
 * + n), summing to 255. nbase + n <= TP_SPLAT_SLOTS. */
void	tp_splatband_cell(const tp_splatband *sb, const uint8_t *base,
	    int nbase, const float *v, uint8_t *w);

/* Slot s's name for its weight map into buf (len bytes): a band's name
 * for the slots of sb after the nbase base slots; else the first biome of
 * g (NULL: "base") given slot s, blanks and other characters outside
 * [A-Za-z0-9-] as '_' ("temperate deciduous forest": temperate_deciduous_
 * forest), "rest" when only '*' names it. */
void	tp_splatband_slot_name(const tp_splat_groups *g,
	    const tp_splatband *sb, int nbase, int s, char *buf, size_t len);

#endif
