/*
 * richdem-d8.cpp - RichDEM's flat resolution and D8 on a raw float32 plane,
 * for scripts/richdem-compare.sh (not part of the build: RichDEM is no
 * Debian package, so the script compiles this against a RichDEM source
 * tree given to it).
 *
 *	richdem-d8 WIDTH HEIGHT IN.f32 DIR.u8 FLAT.u8
 *
 * IN.f32: WIDTH x HEIGHT little-endian float32, row by row, NaN nodata.
 * DIR.u8: one byte a cell, the D8 direction RichDEM gives it as an ESRI
 * code (1 E, 2 SE, 4 S, 8 SW, 16 W, 32 NW, 64 N, 128 NE), 0 for none
 * (border cells, cells with no lower neighbour, nodata).
 * FLAT.u8: one byte a cell, 1 where FindFlats called the cell IS_A_FLAT
 * before resolution, else 0.
 *
 * The calls are those of pyrichdem's rd.ResolveFlats(dem) (richdem's
 * ResolveFlatsEpsilon: GetFlatMask then ResolveFlatsEpsilon_Barnes2014)
 * and rd.FlowProportions(dem, method='D8') (FM_D8), in that order.
 *
 * RichDEM tests nodata with ==, which never holds for NaN, so NaN cells are
 * given a nodata value no cell holds (-FLT_MAX, or -inf if -FLT_MAX
 * occurs). A count of the flat cells raised to or
 * above a neighbour they were below (RichDEM's own "inappropriately
 * raised" warning, which its logger drops) goes to stdout as "raised N".
 * RichDEM's progress bars write to stderr.
 */
#include <richdem/common/Array2D.hpp>
#include <richdem/common/Array3D.hpp>
#include <richdem/flats/find_flats.hpp>
#include <richdem/flats/flats.hpp>
#include <richdem/flowmet/OCallaghan1984.hpp>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace richdem;

/* ESRI code of RichDEM's neighbour n = 1..8: W, NW, N, NE, E, SE, S, SW. */
static const uint8_t esri_of_rd[9] = {0, 16, 32, 64, 128, 1, 2, 4, 8};

static int
fail(const char *msg)
{
	std::fprintf(stderr, "richdem-d8: %s\n", msg);
	return 1;
}

/* The nodata value: -FLT_MAX, or -inf where a cell holds -FLT_MAX; NaN
 * where both occur (then none is free). */
static float
pick_nodata(const std::vector<float> &z)
{
	int neg_max = 0, neg_inf = 0;

	for (float v : z) {
		neg_max |= v == -FLT_MAX;
		neg_inf |= v == -INFINITY;
	}
	return !neg_max ? -FLT_MAX : !neg_inf ? -INFINITY : NAN;
}

static int
write_bytes(const char *path, const std::vector<uint8_t> &b)
{
	FILE *f = std::fopen(path, "wb");

	if (f == nullptr)
		return -1;
	size_t n = std::fwrite(b.data(), 1, b.size(), f);
	return std::fclose(f) == 0 && n == b.size() ? 0 : -1;
}

int
main(int argc, char **argv)
{
	if (argc != 6)
		return fail("usage: richdem-d8 WIDTH HEIGHT IN.f32 DIR.u8 FLAT.u8");
	const int w = std::atoi(argv[1]), h = std::atoi(argv[2]);
	if (w < 1 || h < 1)
		return fail("bad size");
	const size_t n = (size_t)w * (size_t)h;

	std::vector<float> z(n);
	FILE *in = std::fopen(argv[3], "rb");
	if (in == nullptr)
		return fail("cannot open the input");
	size_t got = std::fread(z.data(), sizeof(float), n, in);
	std::fclose(in);
	if (got != n)
		return fail("short input");

	const float nodata = pick_nodata(z);
	if (std::isnan(nodata))
		return fail("no free nodata value: both -FLT_MAX and -inf occur");
	Array2D<float> dem(w, h, 0.0f);
	dem.setNoData(nodata);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float v = z[(size_t)y * w + x];
			dem(x, y) = std::isnan(v) ? nodata : v;
		}

	Array2D<int8_t> flats;
	FindFlats(dem, flats);
	Array2D<float> before = dem;

	ResolveFlatsEpsilon(dem);	/* pyrichdem's rd.ResolveFlats */

	/* RichDEM's raise_warn, recounted: its logger is compiled out */
	long raised = 0;
	for (int y = 1; y < h - 1; y++)
		for (int x = 1; x < w - 1; x++) {
			if (flats(x, y) != IS_A_FLAT)
				continue;
			for (int k = 1; k <= 8; k++) {
				int nx = x + d8x[k], ny = y + d8y[k];
				if (before(x, y) < before(nx, ny) &&
				    dem(x, y) >= dem(nx, ny)) {
					raised++;
					break;
				}
			}
		}

	Array3D<float> props(dem, 0.0f);	/* rd.FlowProportions 'D8' */
	FM_D8(dem, props);

	std::vector<uint8_t> dir(n, 0), flat(n, 0);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			flat[i] = flats(x, y) == IS_A_FLAT;
			if (props(x, y, 0) != HAS_FLOW_GEN)
				continue;
			for (int k = 1; k <= 8; k++)
				if (props(x, y, k) > 0)
					dir[i] = esri_of_rd[k];
		}
	if (write_bytes(argv[4], dir) != 0 || write_bytes(argv[5], flat) != 0)
		return fail("cannot write the output");
	std::printf("raised %ld\n", raised);
	return 0;
}
