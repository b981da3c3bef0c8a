/* fuzz-libs: */
/*
 * fuzz_splatband.c - libFuzzer target: any text through tp_splatband_parse
 * (texport's --splat-bands) is a spec or an error, never a crash; with a
 * spec parsed, cells of any values (from the input's last bytes, as floats:
 * NaN, infinities and huge ones among them) and any base weights summing
 * to 255 give weights that sum to exactly 255 (abort() otherwise).
 *
 * Input bytes: up to the first NUL, the spec; after it, the cells' values
 * 4 bytes each and the base slot count from the last byte.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/tp_splatband.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One cell: values from p (n floats, fewer bytes padded with 0). */
static void
cell(const tp_splatband *sb, const uint8_t *p, size_t len, int nbase)
{
	uint8_t base[TP_SPLAT_SLOTS] = { 0 }, w[TP_SPLAT_SLOTS];
	float v[TP_SPLATBAND_MAX] = { 0 };
	int sum = 0;

	memcpy(v, p, len < sizeof v ? len : sizeof v);
	base[nbase - 1] = 255;
	if (nbase > 1) {	/* an uneven split of the base */
		base[0] = 100;
		base[nbase - 1] = 155;
	}
	tp_splatband_cell(sb, nbase > 1 ? base : NULL, nbase, v, w);
	for (int s = 0; s < nbase + sb->n; s++)
		sum += w[s];
	if (sum != 255)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t n = nul != NULL ? (size_t)(nul - data) : size;
	char *spec = malloc(n + 1);
	tp_splatband sb;
	tp_err e;

	if (spec == NULL)
		return 0;
	memcpy(spec, data, n);
	spec[n] = '\0';
	if (tp_splatband_parse(&sb, spec, &e) == 0 && nul != NULL) {
		int nbase = 1 + data[size - 1] % (TP_SPLAT_SLOTS - sb.n);

		cell(&sb, nul + 1, size - n - 1, nbase);
	}
	free(spec);
	return 0;
}
