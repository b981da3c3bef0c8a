/* check_palette.c - unit tests of tp_palette: the biome codes' table. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tp_palette.h"
#include "tp_test.h"

/* Entries as tgeotiff(1) lists them. */
START_TEST(test_entries)
{
	const tp_palette_entry *b = tp_palette_biome(2);

	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->name, "beach");
	ck_assert_uint_eq(b->rgb[0], 220);
	ck_assert_uint_eq(b->rgb[1], 205);
	ck_assert_uint_eq(b->rgb[2], 150);
	ck_assert_str_eq(tp_palette_biome(0)->name, "deep water");
	ck_assert_str_eq(tp_palette_biome(15)->name, "bare ground");
}
END_TEST

/* Every code has a name of its own. */
START_TEST(test_names_distinct)
{
	for (int i = 0; i < TP_PALETTE_BIOMES; i++) {
		ck_assert_ptr_nonnull(tp_palette_biome(i));
		ck_assert_uint_gt(strlen(tp_palette_biome(i)->name), 0);
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(tp_palette_biome(i)->name,
			    tp_palette_biome(j)->name);
	}
}
END_TEST

START_TEST(test_outside)
{
	ck_assert_ptr_null(tp_palette_biome(-1));
	ck_assert_ptr_null(tp_palette_biome(TP_PALETTE_BIOMES));
	ck_assert_ptr_null(tp_palette_biome(255));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("palette");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits");

	tcase_add_test(core, test_entries);
	tcase_add_test(core, test_names_distinct);
	tcase_add_test(lim, test_outside);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	return tp_test_run(s);
}
