/*
 * cli_texport.h - what texport says on stderr besides its range line, and
 * its sidecar written: the notes and warnings that keep a heightmap from
 * landing in an engine at the wrong size or flat; its input, a stream or a
 * tile set; its runs over it.
 */
#ifndef CLI_TEXPORT_H
#define CLI_TEXPORT_H

#include <stdint.h>
#include <sys/types.h>

#include "cli_outfile.h"
#include "export/tp_engine.h"
#include "export/tp_export_rows.h"
#include "export/tp_splatband.h"
#include "stream/tp_stream.h"
#include "stream/tp_tilerows.h"

/* texport's input (cli_texport_in.c): the stream on standard input, or
 * the rows of a tile set (--from-tiles), the bytes of its mosaic. */
typedef struct cli_texport_in {
	tp_reader r;		/* standard input's stream, unless tiles */
	tp_tilerows t;		/* --from-tiles' set */
	int	tiles;		/* which */
	const tp_header *h;	/* the input's header: the whole grid's */
	off_t	start;		/* where the stream begins in a regular
				   file, or -1 (a pipe, or tiles) */
} cli_texport_in;

/* Open standard input's stream, or with from the tile set of the manifest
 * (or directory) from, every tile's header checked before anything is
 * written. Exits on failure. */
void	cli_texport_open(cli_texport_in *in, const char *from);
void	cli_texport_close(cli_texport_in *in);
/* s over band `band` of in (an error naming the bands when it has none;
 * NULL: band 0, for a reader of whole rows). */
void	cli_texport_src(cli_texport_in *in, const char *band,
	    tp_export_rows_src *s);
/* The range to quantise by into *lo, *hi unless zrange (then they hold
 * --zrange's): the band's, by a first pass over a file or a tile set, or
 * held from a pipe, with a "range" bar unless quiet. Returns whether NaN
 * were seen, or -1 when they are counted while writing. */
int	cli_texport_range(const cli_texport_in *in, tp_export_rows_src *s,
	    int zrange, int quiet, double *lo, double *hi);

/* OUT.json for a w x ht heightmap of format (its name) written from the
 * grid of header h for engine g, levels spanning lo .. hi, zscale metres a
 * unit, nan: NaN samples were written, staged as transaction t: the
 * caller commits the heightmap, then t (cli_outfile_end), so that a
 * sidecar that cannot be written leaves the old heightmap in place.
 * Exits on failure, every open transaction aborted. */
void	cli_texport_sidecar(cli_out *t, const char *out, tp_engine g,
	    const tp_header *h, const char *format, int64_t w, int64_t ht,
	    double lo, double hi, double zscale, int nan);

/* Unless quiet, on a geographic grid: "texport: geographic grid: cells
 * 74.1 x 92.6 m at 36.6 N; ..." (tp_engine_geo_text). */
void	cli_texport_geo_note(tp_engine g, const tp_header *h, int64_t ht,
	    int quiet);

/* A warning, even under -q, when --crop or --pad (opt) turned a w x h grid
 * into ow x oh and changed more than TP_ENGINE_FIT_WARN of its cells. */
void	cli_texport_fit_note(const char *opt, int64_t w, int64_t h,
	    int64_t ow, int64_t oh);

/* Unless quiet, the range line: "texport: height 0..65535 = 12.5..1803 m"
 * (tp_export_range_text). */
void	cli_texport_range_note(tp_export_format f, double lo, double hi,
	    const tp_header *h, int quiet);

/* A warning, even under -q, when a normal map's steepest gradient
 * (tp_export_rows_normals) is a slope below TP_NORMALMAP_FLAT_DEG and
 * --zscale was not given (zscale_given 0): heights of 0..1 over cells of
 * metres. A map with no slope at all is flat ground: no warning. */
void	cli_texport_flat_note(double steepest, int zscale_given);

/* -f splat, weights and normal: what texport was asked. */
typedef struct cli_texport_layer_opts {
	const char *out;
	const char *format;		/* its name, for the tiles' sidecar */
	const char *band;		/* splat: the biome band, with groups */
	const char *groups;		/* --biome-groups, or NULL */
	const tp_splatband *sb;		/* --splat-bands, or NULL */
	const char *software;
	int	blend, quiet, threads;
	int	grey;			/* -f weights: a grey map a slot */
	int	ydown, zscale_given;	/* normal: --normal-y down; --zscale */
	double	zscale;
	int64_t	size;			/* --tile-size, or 0: whole maps */
	tp_engine engine;		/* the tiles' sizes and names */
} cli_texport_layer_opts;

/* The splat maps of the input in (a stream or a tile set, whole rows of
 * every band): the biome slots of groups, then sb's bands (tp_splatband),
 * out.png, out_1.png, ... four slots a picture, or with grey one 8-bit
 * grey map a slot, out_0_NAME.png, ... (tp_splatband_slot_name); HISTORY
 * from argc, argv. With a size, each picture cut into the engine tiles of
 * cli_texport_tiles' grid (tp_tiles, tp_tiles_bytes), out_x0_y0.png,
 * out_1_x0_y0.png, ..., and OUT.json describing them
 * (tp_tiles_layers_json), the set put in place whole (cli_set). Exits on
 * failure. */
void	cli_texport_splat(const cli_texport_layer_opts *o, cli_texport_in *in,
	    int argc, char **argv);

/* The normal map of the band of the input (tp_normalmap: o's zscale and
 * ydown), one RGB picture, or its tiles as for cli_texport_splat; the flat map
 * warning (cli_texport_flat_note). Exits on failure. */
void	cli_texport_normal(const cli_texport_layer_opts *o,
	    cli_texport_in *in, int argc, char **argv);

/* --tile-size and -f exr: what texport was asked. */
typedef struct cli_texport_tiles_opts {
	const char *out, *band, *format, *software;
	tp_export_format f;
	tp_engine engine;
	int64_t	size;			/* samples a tile side */
	int	zrange, quiet;		/* zrange: lo, hi given */
	int	exr;			/* -f exr: float32 OpenEXR tiles */
	double	lo, hi, zscale;
} cli_texport_tiles_opts;

/* The heightmap of the input as engine tiles (tp_tiles), each written
 * whole as soon as its rows are in, then OUT.json describing the grid;
 * the range line and geographic note as for one heightmap. With exr, the
 * tiles of cli_texport_exr's image and its sidecar's zrange. Exits on
 * failure. */
void	cli_texport_tiles(const cli_texport_tiles_opts *o, cli_texport_in *in,
	    int argc, char **argv);

/* -f exr: the band of the input as a float32 OpenEXR image of heights
 * times o->zscale, NaN written as LO, and its sidecar (format "exr",
 * zrange in the file's units). Exits on failure. */
void	cli_texport_exr(const cli_texport_tiles_opts *o, cli_texport_in *in,
	    int argc, char **argv);

#endif
