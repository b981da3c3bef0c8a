/* tp_simd.c - the processor's vector level, capped by TP_SIMD. */
#include <stdlib.h>
#include <string.h>

#include "core/tp_simd.h"

static const char *const names[] = { "scalar", "sse2", "avx2" };

/* What the processor runs, whatever the environment says. */
static tp_simd_level
hardware(void)
{
#ifdef TP_HAVE_AVX2
	if (__builtin_cpu_supports("avx2"))
		return TP_SIMD_AVX2;
#endif
#ifdef TP_HAVE_SSE2
	return TP_SIMD_SSE2;
#else
	return TP_SIMD_SCALAR;
#endif
}

tp_simd_level
tp_simd_probe(void)
{
	tp_simd_level hw = hardware();
	const char *cap = getenv("TP_SIMD");

	/* read every time: no state is kept, and a probe costs nanoseconds
	 * next to the rows a kernel then runs */
	for (int l = TP_SIMD_SCALAR; cap != NULL && l < (int)hw; l++)
		if (strcmp(cap, names[l]) == 0)
			return (tp_simd_level)l;
	return hw;
}

const char *
tp_simd_name(tp_simd_level l)
{
	return (unsigned)l < 3 ? names[l] : "unknown";
}
