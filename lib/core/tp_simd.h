/*
 * tp_simd.h - the one probe for the vector instructions a kernel may use,
 * and the macros its vector paths are written with.
 *
 * A kernel (tshape, tterrace, tisland, tridge, tnoise, terode's brush) has a
 * scalar path, which is the reference, and at most one vector path per
 * level. Every path does the same IEEE operations in the same order, so the
 * level changes the speed only, never a byte. The level a kernel runs at
 * lives in the kernel's own struct, set from tp_simd_probe() by its init
 * function; a caller may lower it (the tests compare the bytes of every
 * level that way), never raise it above what the probe returned.
 *
 * TP_SIMD=scalar, sse2 or avx2 in the environment caps what tp_simd_probe
 * returns, for benchmarks and bug reports; other values are ignored.
 *
 * Vector code sits inside #ifdef TP_HAVE_SSE2 or TP_HAVE_AVX2. SSE2 belongs
 * to x86-64 and compiles with the default flags; AVX2 functions carry TP_AVX2
 * (TP_AVX2_INL for helpers that must be inlined into them), so the rest of a
 * file stays baseline code and the AVX2 code runs only when probed.
 */
#ifndef TP_SIMD_H
#define TP_SIMD_H

#ifdef __SSE2__
#define TP_HAVE_SSE2	1
#include <emmintrin.h>
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TP_HAVE_AVX2	1
#include <immintrin.h>
#define TP_AVX2		__attribute__((target("avx2")))
#define TP_AVX2_INL	static inline __attribute__((always_inline, target("avx2")))
#endif

typedef enum { TP_SIMD_SCALAR, TP_SIMD_SSE2, TP_SIMD_AVX2 } tp_simd_level;

/* The highest level this processor runs, capped by TP_SIMD when set. */
tp_simd_level tp_simd_probe(void);
/* "scalar", "sse2" or "avx2". Only the tests call it: it names the level in
 * their messages. */
const char *tp_simd_name(tp_simd_level l);

#endif
