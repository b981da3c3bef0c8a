/* fuzz-libs: */
/*
 * fuzz_material.c - libFuzzer target: any materials file, naming any bytes
 * as its texture PNG, loads or fails with a message, never crashes; a
 * loaded texture's mean lies in [0, 1] per channel, and every sampling
 * mode gives colours in [0, 1] (abort() otherwise).
 *
 * Input bytes: the materials file's text, then a NUL, then the PNG's bytes
 * (all of it the text when there is no NUL; the PNG is then empty). The
 * text may name the PNG as "t.png" (written beside it) or anything else.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/tp_material.h"

static char dir[64];

static void
put(const char *name, const uint8_t *p, size_t n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL ||
	    (n > 0 && fwrite(p, 1, n, f) != n) || fclose(f) != 0)
		abort();
}

static void
in_unit(const float c[3])
{
	for (int i = 0; i < 3; i++)
		if (!(c[i] >= 0.0f && c[i] <= 1.0f))
			abort();
}

/* Every mode at a few points, plain and with the cache. */
static void
sample(const tp_texture *t)
{
	static const double uv[][2] = { { 0, 0 }, { 0.37, 12.5 },
	    { -3.01, 7.77 }, { 1e9, -1e9 }, { NAN, 0.5 } };
	tp_texture_opts o;
	tp_texture_cache c;
	float out[3];

	in_unit(t->mean);
	tp_texture_defaults(&o);
	for (int m = TP_TEX_PLAIN; m <= TP_TEX_IQ; m++) {
		o.mode = (tp_texture_mode)m;
		tp_texture_cache_init(&c);
		for (size_t i = 0; i < sizeof uv / sizeof uv[0]; i++) {
			tp_texture_sample(&o, t, uv[i][0], uv[i][1], out);
			in_unit(out);
			tp_texture_sample_cached(&o, t, &c, uv[i][0], uv[i][1],
			    out);
			in_unit(out);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t tn = nul != NULL ? (size_t)(nul - data) : size;
	static tp_materials ms;
	char path[128];
	tp_err e;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof dir, "/tmp/fuzz_material.XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
	}
	put("m.txt", data, tn);
	put("t.png", nul != NULL ? nul + 1 : data, nul != NULL ?
	    size - tn - 1 : 0);
	snprintf(path, sizeof path, "%s/m.txt", dir);
	if (tp_materials_load(&ms, path, &e) < 0) {
		if (strlen(e.msg) == 0)
			abort();
		return 0;
	}
	for (int i = 0; i < ms.n; i++) {
		if (!(ms.m[i].size > 0) || ms.m[i].tex.w < 1 || ms.m[i].tex.h < 1)
			abort();
		sample(&ms.m[i].tex);
	}
	tp_materials_free(&ms);
	return 0;
}
