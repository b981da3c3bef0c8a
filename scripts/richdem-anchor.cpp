/*
 * richdem-anchor.cpp - RichDEM's runs that tflow's and tfill's speeds are
 * set beside (scripts/bench-anchors.sh; not part of the build: RichDEM is
 * no Debian package, so the script compiles this against a RichDEM source
 * tree given to it).
 *
 *	richdem-anchor flow WIDTH HEIGHT IN.f32 ACC.f32 DIR.u8
 *	richdem-anchor zhou WIDTH HEIGHT IN.f32 OUT.f32
 *
 * flow: d8_flow_directions then d8_flow_accum.
 * IN.f32: WIDTH x HEIGHT little-endian float32, row by row (no NaN: the
 * bench's grids are filled noise). ACC.f32: d8_flow_accum's cell counts;
 * DIR.u8: d8_flow_directions' RichDEM codes (0 none, 1..8 W, NW, N, NE, E,
 * SE, S, SW). The heights are read straight into RichDEM's array and the
 * results written straight from its arrays, so its memory is that of the
 * two calls: the heights, the directions, the counts, the dependency
 * counts and the queue of sources.
 * zhou: PriorityFlood_Zhou2016 (Zhou, Sun and Fu 2016), the filled
 * heights into OUT.f32.
 */
#include <richdem/common/Array2D.hpp>
#include <richdem/depressions/Zhou2016.hpp>
#include <richdem/flowmet/d8_flowdirs.hpp>
#include <richdem/methods/d8_methods.hpp>

#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace richdem;

static int
fail(const char *msg)
{
	std::fprintf(stderr, "richdem-anchor: %s\n", msg);
	return 1;
}

template<class T> static int
write_all(const char *path, const T *p, size_t n)
{
	FILE *f = std::fopen(path, "wb");

	if (f == nullptr)
		return -1;
	size_t got = std::fwrite(p, sizeof *p, n, f);
	return std::fclose(f) == 0 && got == n ? 0 : -1;
}

/* The heights, read straight into RichDEM's array. */
static int
read_dem(Array2D<float> &dem, const char *path, size_t n)
{
	dem.setNoData(-FLT_MAX);
	FILE *in = std::fopen(path, "rb");
	if (in == nullptr)
		return fail("cannot open the input");
	size_t got = std::fread(dem.data(), sizeof(float), n, in);
	std::fclose(in);
	return got == n ? 0 : fail("short input");
}

int
main(int argc, char **argv)
{
	const int flow = argc == 7 && std::strcmp(argv[1], "flow") == 0;
	const int zhou = argc == 6 && std::strcmp(argv[1], "zhou") == 0;
	if (!flow && !zhou)
		return fail("usage: richdem-anchor flow WIDTH HEIGHT IN.f32 "
		    "ACC.f32 DIR.u8 | zhou WIDTH HEIGHT IN.f32 OUT.f32");
	const int w = std::atoi(argv[2]), h = std::atoi(argv[3]);
	if (w < 1 || h < 1)
		return fail("bad size");
	const size_t n = (size_t)w * (size_t)h;

	Array2D<float> dem(w, h, 0.0f);
	if (read_dem(dem, argv[4], n) != 0)
		return 1;
	if (zhou) {
		PriorityFlood_Zhou2016(dem);
		return write_all(argv[5], dem.data(), n) != 0 ?
		    fail("cannot write the output") : 0;
	}
	Array2D<uint8_t> dirs;
	d8_flow_directions(dem, dirs);
	Array2D<float> area;
	d8_flow_accum(dirs, area);

	if (write_all(argv[5], area.data(), n) != 0 ||
	    write_all(argv[6], dirs.data(), n) != 0)
		return fail("cannot write the output");
	return 0;
}
