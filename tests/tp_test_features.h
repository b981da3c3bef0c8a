/* tp_test_features.h - feature lists for the suites of tp_feature and its
 * index (check_feature, check_featindex).
 *
 *   parse_ok(fs, text)    fs parsed from text; the test fails with the
 *                         parser's message when it does not parse
 *   random_items(fs, s, n, span, size)   n random items of every kind
 *                         over [0, span]^2, lengths 0.03 .. 3 size
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_FEATURES_H
#define TP_TEST_FEATURES_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gen/tp_feature.h"
#include "tp_test.h"

/* fs from text; the test fails with the message when it does not parse. */
static inline void
parse_ok(tp_features *fs, const char *text)
{
	tp_err e;

	tp_features_init(fs);
	if (tp_features_parse_text(fs, "t.txt", text, strlen(text), &e) < 0)
		ck_abort_msg("parse: %s", e.msg);
}

/* n random items of every kind, spread over [0, span]^2. */
static inline void
random_items(tp_features *fs, uint64_t *s, size_t n, double span,
    double size)
{
	tp_err e;

	for (size_t i = 0; i < n; i++) {
		tp_feature_item f;
		double u = (double)(tp_test_rnd(s) % 1000000) / 1e6;
		double len = size * pow(10, 2 * u - 1.5);	/* 0.03 .. 3 size */

		memset(&f, 0, sizeof f);
		f.kind = (tp_feature_kind)(tp_test_rnd(s) % 4);
		f.x0 = (double)(tp_test_rnd(s) % 1000000) / 1e6 * span;
		f.y0 = (double)(tp_test_rnd(s) % 1000000) / 1e6 * span;
		f.x1 = f.x0 + len * ((double)(tp_test_rnd(s) % 2001) / 1000 - 1);
		f.y1 = f.y0 + len * ((double)(tp_test_rnd(s) % 2001) / 1000 - 1) +
		    1e-3;
		f.height = (double)(tp_test_rnd(s) % 2001) / 100 - 10;
		f.sigma = f.width = len / 4 + 1e-3;
		f.falloff = len / 8 + 1e-3;
		f.radius = len / 3;
		ck_assert_int_eq(tp_features_add(fs, &f, &e), 0);
	}
}

#endif
