/* fuzz-libs: */
/*
 * fuzz_splat.c - libFuzzer target: any text through tp_splat_parse is a
 * biome groups file or an error, never a crash; one that binds to the
 * default biome table turns a small grid of codes (from the input's last
 * bytes) into weights that sum to 255 at every cell, with every slot past
 * the file's last 0 (abort() otherwise).
 *
 * Input bytes: the groups file's text. The grid: 5 x 4 cells, each code
 * the byte at (size - 1 - i) mod 20 (255: NaN), blend from the first byte
 * mod 3.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/tp_splat.h"

enum { W = 5, H = 4 };

static void
run(const tp_splat_groups *g, const uint8_t *data, size_t size)
{
	int npic = (g->nslots + 3) / 4;
	uint8_t out[4 * W * 4];
	float row[W];
	tp_splat s;

	if (tp_splat_init(&s, g, W, H, data[0] % 3, NULL) < 0)
		abort();
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			uint8_t b = data[(size - 1 - (size_t)(y * W + x) %
			    size) % size];

			row[x] = b == 255 ? NAN : (float)(b % 20);
		}
		if (tp_splat_push(&s, row, NULL) < 0)
			break;	/* a code the table lacks */
		while (tp_splat_ready(&s)) {
			tp_splat_take(&s, out);
			for (int x = 0; x < W; x++) {
				int sum = 0;

				for (int k = 0; k < 4 * npic; k++) {
					uint8_t v = out[((k / 4) * W + x) * 4 +
					    k % 4];

					if (k >= g->nslots && v != 0)
						abort();
					sum += v;
				}
				if (sum != 255)
					abort();
			}
		}
	}
	tp_splat_free(&s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static tp_splat_groups g;
	static tp_palette p;

	if (size == 0)
		return 0;
	if (tp_splat_parse(&g, (const char *)data, size, "fuzz", NULL) < 0)
		return 0;
	if (g.nslots < 1 || g.nslots > TP_SPLAT_SLOTS || g.n < 1)
		abort();
	tp_palette_default(&p);
	if (tp_splat_bind(&g, &p, "fuzz", NULL) == 0)
		run(&g, data, size);
	return 0;
}
