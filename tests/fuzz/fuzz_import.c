/* fuzz-libs: */
/*
 * fuzz_import.c - libFuzzer target: timport's readers by path and from a
 * pipe, as the program calls them.
 *
 * The input is written to a temporary file and read back by path with
 * the reader its magic picks (tp_geotiff_read, tp_import_png,
 * tp_import_pgm or tp_import_asc on the opened file), and as an SRTM .hgt
 * named by the input's first bytes (tp_hgt_corner on any name; the tile
 * read when the size is right, which no short input is). Then as --raw: the first two bytes
 * give a size of 1..16 x 1..16 cells, the rest is the float32 body, read
 * from the file and again from a pipe (no size known in advance). Both
 * must agree: success exactly when the body holds width x height x 4 bytes,
 * and then every sample bit for bit as it was in the input. The header of
 * every grid read must be one the stream writer refuses or that reads back
 * equal (fuzz_stream.h): timport writes it.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_stream.h"
#include "io/tp_geotiff.h"
#include "io/tp_hgt.h"
#include "io/tp_import.h"

#define RAW_SIDE	16

/* The input in a new temporary file; its path in path. */
static int
to_file(const uint8_t *data, size_t size, char *path, size_t cap)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, cap, "%s/fuzz_import.XXXXXX", dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* A grid read: its header must go through the stream (fuzz_stream.h). */
static void
imported(tp_grid *g)
{
	(void)fuzz_header_through(&g->h, NULL);
	tp_grid_free(g);
}

/* Read path with the reader timport would pick. */
static void
by_path(const char *path, const uint8_t *data, size_t size)
{
	tp_geotiff_ropts o = { .band = 1, .max_cells = 1 << 20 };
	tp_grid g;
	tp_err e;
	FILE *f;
	int fmt = tp_import_sniff(data, size), r = -1;

	if (fmt == TP_FMT_TIFF) {
		if (tp_geotiff_read(&g, path, &o, &e) == 0)
			imported(&g);
		return;
	}
	if ((f = fopen(path, "rb")) == NULL)
		abort();
	if (fmt == TP_FMT_PNG)
		r = tp_import_png(&g, f, &e);
	else if (fmt == TP_FMT_PGM)
		r = tp_import_pgm(&g, f, &e);
	else if (fmt == TP_FMT_ASC)
		r = tp_import_asc(&g, f, &e);
	if (r == 0)
		imported(&g);
	fclose(f);
}

/* The input's first bytes as a .hgt name, and the file as that tile. */
static void
as_hgt(const char *path, const uint8_t *data, size_t size)
{
	char name[24];
	size_t n = size < 12 ? size : 12;
	tp_grid g;
	tp_err e;
	FILE *f;
	int lat, lon;

	memcpy(name, data, n);
	memcpy(name + n, ".hgt", 5);
	if (memchr(name, '\0', n) == NULL &&
	    tp_hgt_corner(name, &lat, &lon, &e) == 0 &&
	    (lat < -90 || lat > 89 || lon < -180 || lon > 179))
		abort();
	if ((f = fopen(path, "rb")) == NULL)
		abort();
	if (tp_import_hgt(&g, f, "N35W107.hgt", &e) == 0)
		imported(&g);
	fclose(f);
}

/* --raw: the result must be right for a body of n bytes: exactly the
 * samples, the rest ignored (and said), too few refused. */
static void
check_raw(int r, tp_grid *g, int64_t w, int64_t h, const uint8_t *body,
    size_t n)
{
	size_t need = (size_t)(w * h * 4);
	int want = n == need ? 0 : n > need ? 1 : -1;	/* 1: more follows */

	if (r != want)
		abort();
	if (r < 0)
		return;
	if (g->h.width != w || g->h.height != h || g->h.nbands != 1 ||
	    memcmp(g->data, body, need) != 0)	/* little-endian host */
		abort();
	tp_grid_free(g);
}

/* The body through a pipe: the reader cannot seek or know its size. The
 * body (under 64 KiB, libFuzzer's -max_len) fits in a pipe's buffer, so it
 * is written whole first, without a second process; 1 when it did not fit. */
static int
raw_pipe(tp_grid *g, int64_t w, int64_t h, const uint8_t *body, size_t n,
    int *r)
{
	int p[2];
	FILE *f;
	tp_err e;

	if (pipe(p) < 0 || fcntl(p[1], F_SETFL, O_NONBLOCK) < 0)
		abort();
	if (n > 0 && write(p[1], body, n) != (ssize_t)n) {
		close(p[0]);
		close(p[1]);
		return 1;
	}
	close(p[1]);
	if ((f = fdopen(p[0], "rb")) == NULL)
		abort();
	*r = tp_import_raw(g, f, w, h, &e);
	fclose(f);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[4096];
	tp_grid g;
	tp_err e;
	FILE *f;
	int64_t w, h;
	int r;

	if (to_file(data, size, path, sizeof(path)) < 0)
		return 0;
	by_path(path, data, size);
	as_hgt(path, data, size);
	if (size >= 2) {
		w = 1 + data[0] % RAW_SIDE, h = 1 + data[1] % RAW_SIDE;
		unlink(path);
		if (to_file(data + 2, size - 2, path, sizeof(path)) < 0)
			return 0;
		if ((f = fopen(path, "rb")) == NULL)
			abort();
		r = tp_import_raw(&g, f, w, h, &e);
		fclose(f);
		check_raw(r, &g, w, h, data + 2, size - 2);
		if (raw_pipe(&g, w, h, data + 2, size - 2, &r) == 0)
			check_raw(r, &g, w, h, data + 2, size - 2);
	}
	unlink(path);
	return 0;
}
