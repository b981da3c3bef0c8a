/* cli_texport_in.c - texport's input: standard input's stream, or the rows
 * of a tile set read as its mosaic (--from-tiles), and the band's range. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_texport.h"

void
cli_texport_open(cli_texport_in *in, const char *from)
{
	tp_err e;

	memset(in, 0, sizeof *in);
	in->start = -1;
	if (from == NULL) {
		in->start = tp_export_rows_src_start(stdin);	/* before the
								   header */
		cli_open_input(&in->r);
		in->h = &in->r.h;
		return;
	}
	/* every tile in place and of this cut before a file is written */
	if (tp_tilerows_open(&in->t, from, "", &e) < 0 ||
	    tp_tilerows_check(&in->t, &e) < 0)
		cli_fail(&e);
	in->tiles = 1;
	in->h = &in->t.h;
}

void
cli_texport_close(cli_texport_in *in)
{
	if (in->tiles)
		tp_tilerows_free(&in->t);
	else
		tp_reader_free(&in->r);
}

void
cli_texport_src(cli_texport_in *in, const char *band, tp_export_rows_src *s)
{
	int b = band != NULL ? cli_band(in->h, band) : 0;
	tp_err e;

	if ((in->tiles ? tp_export_rows_src_init_tiles(s, &in->t, b, &e) :
	    tp_export_rows_src_init(s, &in->r, b, &e)) < 0)
		cli_fail(&e);
}

int
cli_texport_range(const cli_texport_in *in, tp_export_rows_src *s,
    int zrange, int quiet, double *lo, double *hi)
{
	tp_export_rows_loop l = { .threads = 0, .progress = cli_progress_cb };
	tp_export_range rg;
	cli_progress p;
	tp_err e;
	int rc;

	if (zrange)
		return -1;
	l.pctx = &p;
	cli_progress_init(&p, "range", quiet);
	rc = tp_export_rows_src_range(s, in->start, &rg, &l, &e);
	cli_progress_done(&p);
	if (rc < 0)
		cli_fail(&e);
	tp_export_range_get(&rg, lo, hi);
	return rg.nan > 0;
}
