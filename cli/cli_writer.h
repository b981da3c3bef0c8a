/*
 * cli_writer.h - the lib's file writers as cli_outfile transactions.
 *
 * Each *_begin takes the writer's own create arguments and returns the
 * writer, its temporary files watched; write through it, then end with
 * cli_outfile_end(&t, ok, &e). On failure they print one line and exit 1,
 * leaving nothing behind. Each kind is a file of its own
 * (cli_writer_png.c, ...), so a program links only the libraries of the
 * writers it uses.
 */
#ifndef CLI_WRITER_H
#define CLI_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "cli_outfile.h"
#include "export/tp_export.h"
#include "io/tp_exr.h"
#include "io/tp_geotiff_write.h"
#include "io/tp_png.h"
#include "stream/tp_stream.h"
#include "vector/tp_vecfile.h"

/* tp_png_create. */
tp_png_writer *cli_png_begin(cli_out *t, const char *path, uint32_t width,
	    uint32_t height, int channels, const char *software,
	    const tp_header *h);
/* tp_export_create. */
tp_export_writer *cli_export_begin(cli_out *t, const char *path,
	    tp_export_format f, int64_t width, int64_t height, int flip,
	    const char *software, const tp_header *h);
/* tp_exr_create. */
tp_exr_writer *cli_exr_begin(cli_out *t, const char *path, int64_t width,
	    int64_t height);
/* tp_geotiff_write_open: the GeoTIFF and its sidecars, one transaction. */
tp_geotiff_writer	*cli_gtw_begin(cli_out *t, const char *path,
	    const tp_header *h, int band, const tp_geotiff_write_opts *o);
/* tp_vecfile_create. */
tp_vecfile *cli_vecfile_begin(cli_out *t, const char *path, int fmt,
	    int epsg);
/* The whole transaction for len bytes of text at path (tp_sidecar_stage). */
void	cli_text_write(const char *path, const char *text, size_t len);
/* Its first half: the text staged beside path, to be put in place by
 * cli_outfile_end(t, 1, NULL) once the file it describes is. */
void	cli_text_begin(cli_out *t, const char *path, const char *text,
	    size_t len);

#endif
