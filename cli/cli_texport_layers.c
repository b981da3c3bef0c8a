/* cli_texport_layers.c - texport's layer maps (splat, weight and normal
 * maps): their rows written whole, one PNG a picture, or cut into the
 * engine tiles of the heightmap's grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_texport.h"
#include "cli_writer.h"
#include "export/tp_export_rows.h"
#include "export/tp_tiles.h"
#include "geo/tp_geo.h"
#include "render/tp_normalmap.h"

/* Where a map's rows go: npic pictures of channels bytes a cell (grey:
 * slot k of each splat row as picture k), whole or as tiles. */
typedef struct layer_out {
	const cli_texport_layer_opts *o;
	const tp_header *h;		/* the output's HISTORY */
	int	npic, channels, grey;
	int64_t	width, height;
	char	*name[TP_SPLAT_SLOTS];	/* the untiled pictures' */
	tp_png_writer *png[TP_SPLAT_SLOTS];
	cli_out	t[TP_SPLAT_SLOTS];
	tp_tiles tiles;			/* with o->size */
	tp_tiles_bytes tb;
	cli_set	set;			/* the tiles and their sidecar */
	uint8_t	*slots;			/* grey: npic rows of width */
} layer_out;

/* Every tile of the row of tiles just completed, a file a picture. */
static void
tile_row(layer_out *lo)
{
	int64_t n = lo->tiles.size;
	cli_out c;
	tp_err e;

	for (int64_t col = 0; col < lo->tiles.cols; col++)
		for (int k = 0; k < lo->npic; k++) {
			char *final = tp_tiles_name(&lo->tiles, lo->name[k],
			    col, lo->tb.row), *name;
			tp_png_writer *png;
			int rc = 0;

			if (final == NULL)
				cli_die("out of memory");
			name = cli_set_path(&lo->set, final);
			free(final);
			png = cli_png_begin(&c, name, (uint32_t)n, (uint32_t)n,
			    lo->channels, lo->o->software, lo->h);
			free(name);
			for (int64_t y = 0; y < n && rc == 0; y++)
				rc = tp_png_write_row(png, tp_tiles_bytes_row(
				    &lo->tb, k, col, y), &e);
			cli_outfile_end(&c, rc == 0, &e);
		}
}

/* The sink: a row of the map (splat: the slots' RGBA pictures side by
 * side; normal: RGB) into the pictures or the row of tiles. */
static int
layer_row(void *ctx, const uint8_t *px, tp_err *e)
{
	layer_out *lo = ctx;
	size_t pic = (size_t)lo->width * (size_t)lo->channels;
	int rc = 0;

	if (lo->grey) {
		for (int k = 0; k < lo->npic; k++)
			tp_export_rows_slot(px, lo->width, k, lo->slots +
			    (size_t)k * (size_t)lo->width);
		px = lo->slots;
	}
	if (lo->o->size > 0) {
		if (tp_tiles_bytes_push(&lo->tb, px))
			tile_row(lo);
		return 0;
	}
	for (int k = 0; k < lo->npic && rc == 0; k++)
		rc = tp_png_write_row(lo->png[k], px + (size_t)k * pic, e);
	return rc;
}

/* Ready lo for npic pictures of channels bytes (grey: 1, from the slots)
 * of the input's size (its header in); their names from labels (weight
 * maps) or none. Untiled, the pictures are opened now. */
static void
layer_begin(layer_out *lo, const cli_texport_layer_opts *o,
    const tp_header *in, const tp_header *h, int npic, int channels,
    const char (*labels)[TP_NAME_MAX + 8])
{
	tp_err e;

	*lo = (layer_out){ .o = o, .h = h, .npic = npic, .channels = channels,
	    .grey = o->grey, .width = in->width, .height = in->height };
	if (lo->grey && (lo->slots = malloc((size_t)npic *
	    (size_t)lo->width)) == NULL)
		cli_die("out of memory for a row");
	for (int k = 0; k < npic; k++)
		if ((lo->name[k] = tp_export_rows_pic_name(o->out, k, labels !=
		    NULL ? labels[k] : NULL)) == NULL)
			cli_die("out of memory");
	if (o->size > 0) {
		if (tp_tiles_plan(&lo->tiles, o->engine, o->size, lo->width,
		    lo->height, &e) < 0 || tp_tiles_bytes_init(&lo->tb,
		    &lo->tiles, npic, (size_t)channels, &e) < 0)
			cli_fail(&e);
		cli_texport_fit_note("--tile-size", lo->width, lo->height,
		    lo->tiles.width, lo->tiles.height);
		return;
	}
	for (int k = 0; k < npic; k++)
		lo->png[k] = cli_png_begin(&lo->t[k], lo->name[k],
		    (uint32_t)lo->width, (uint32_t)lo->height, channels,
		    o->software, h);
}

/* The map is written (ok) or failed (*e): untiled, its pictures committed
 * or aborted; tiled, the last row of tiles and the grid's sidecar. */
static void
layer_end(layer_out *lo, int ok, const tp_err *e)
{
	char *text, *path, *side;

	for (int k = 0; k < lo->npic && lo->o->size == 0; k++)
		cli_outfile_end(&lo->t[k], ok, e);
	if (lo->o->size > 0) {
		if (!ok)
			cli_fail(e);
		if (tp_tiles_bytes_end(&lo->tb))
			tile_row(lo);
		text = tp_tiles_layers_json(&lo->tiles, lo->h, lo->o->format,
		    (const char *const *)lo->name, lo->npic);
		if (text == NULL || (side = tp_export_sidecar_name(lo->o->out))
		    == NULL)
			cli_die("out of memory for the sidecar");
		path = cli_set_path(&lo->set, side);	/* moved last */
		cli_text_write(path, text, strlen(text));
		cli_set_publish(&lo->set);
		free(side);
		free(path);
		free(text);
		tp_tiles_bytes_free(&lo->tb);
	}
	for (int k = 0; k < lo->npic; k++)
		free(lo->name[k]);
	free(lo->slots);
}

/* The biome groups and their window, or none (*g NULL) without groups. */
static void
splat_groups(const cli_texport_layer_opts *o, const tp_header *h,
    tp_splat_groups **g, tp_splat *sp)
{
	tp_err e;

	*g = NULL;
	if (o->groups == NULL)
		return;
	if ((*g = tp_splat_open(o->groups, h, &e)) == NULL ||
	    tp_splat_init(sp, *g, h->width, h->height, o->blend, &e) < 0)
		cli_fail(&e);
}

void
cli_texport_splat(const cli_texport_layer_opts *o, cli_texport_in *in,
    int argc, char **argv)
{
	const tp_header *ih = in->h;
	char labels[TP_SPLAT_SLOTS][TP_NAME_MAX + 8];
	int b, nslot;
	tp_export_rows_src s;
	tp_splat_groups *g;
	tp_splatband sb;
	cli_progress p;
	tp_export_rows_loop l = { .threads = o->threads,
	    .progress = cli_progress_cb, .pctx = &p };
	layer_out lo;
	tp_splat sp;
	tp_header h;
	tp_err e;
	int rc;

	cli_texport_src(in, o->groups != NULL ? o->band : NULL, &s);
	b = o->groups != NULL ? s.band : -1;
	if (o->sb != NULL && (sb = *o->sb, tp_splatband_bind(&sb, ih,
	    &e)) < 0)
		cli_fail(&e);
	splat_groups(o, ih, &g, &sp);
	nslot = (g != NULL ? g->nslots : 1) + (o->sb != NULL ? sb.n : 0);
	if (nslot > TP_SPLAT_SLOTS)
		cli_die("--splat-bands: %d biome slots and %d bands make %d "
		    "slots, more than %d", g->nslots, sb.n, nslot,
		    TP_SPLAT_SLOTS);
	for (int k = 0; k < nslot; k++)
		tp_splatband_slot_name(g, o->sb != NULL ? &sb : NULL, g != NULL ?
		    g->nslots : 1, k, labels[k], sizeof labels[k]);
	cli_output_header(&h, ih, argc, argv);
	layer_begin(&lo, o, ih, &h, o->grey ? nslot : (nslot + 3) / 4,
	    o->grey ? 1 : 4, o->grey ? labels : NULL);
	cli_progress_init(&p, "splat", o->quiet);
	rc = tp_export_rows_splat(&s, b, g != NULL ? &sp : NULL, o->sb != NULL ?
	    &sb : NULL, &(tp_export_rows_sink){ layer_row, &lo }, &l, &e);
	cli_progress_done(&p);
	layer_end(&lo, rc == 0, &e);
	if (g != NULL)
		tp_splat_free(&sp);
	tp_export_rows_src_free(&s);
	tp_header_free(&h);
	free(g);
}

void
cli_texport_normal(const cli_texport_layer_opts *o, cli_texport_in *in,
    int argc, char **argv)
{
	tp_normalmap_opts no = { .zscale = o->zscale, .y_down = o->ydown };
	tp_geo_grid geo = tp_geo_grid_of(in->h, TP_GEO_AUTO);
	tp_export_rows_src s;
	cli_progress p;
	tp_export_rows_loop l = { .threads = o->threads,
	    .progress = cli_progress_cb, .pctx = &p };
	layer_out lo;
	tp_header h;
	tp_err e;
	double steep;
	int rc;

	cli_texport_src(in, o->band, &s);
	cli_output_header(&h, in->h, argc, argv);
	layer_begin(&lo, o, in->h, &h, 1, 3, NULL);
	cli_progress_init(&p, "normal", o->quiet);
	rc = tp_export_rows_normals(&s, &(tp_export_rows_sink){ layer_row,
	    &lo }, &no, &geo, &l, &steep, &e);
	cli_progress_done(&p);
	layer_end(&lo, rc == 0, &e);
	cli_texport_flat_note(steep, o->zscale_given);
	tp_header_free(&h);
	tp_export_rows_src_free(&s);
}
