/* check_palette.c - unit tests of tp_palette: the biome table. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "biome/tp_palette.h"
#include "tp_test.h"

static tp_palette p;

/* The default table parses, and holds the 19 classes with Red Blob
 * Games' colours under their codes. */
START_TEST(test_default)
{
	const tp_palette_entry *c;

	tp_palette_default(&p);
	ck_assert_int_eq(p.n, 19);
	for (int i = 0; i < p.n; i++)
		ck_assert_int_eq(p.e[i].code, i);
	c = tp_palette_find(&p, 2);
	ck_assert_str_eq(c->name, "beach");
	ck_assert_uint_eq(c->rgb[0], 0xa0);
	ck_assert_uint_eq(c->rgb[1], 0x90);
	ck_assert_uint_eq(c->rgb[2], 0x77);
	ck_assert_str_eq(tp_palette_find(&p, 11)->name,
	    "temperate deciduous forest");
	ck_assert_str_eq(tp_palette_find(&p, 0)->rule, "sea");
	ck_assert_str_eq(tp_palette_find(&p, 8)->rule,
	    "zone 0.6 0.8 0.33 0.66 climate 5 20 500 1000");
	ck_assert_ptr_null(tp_palette_find(&p, 19));
	ck_assert_ptr_null(tp_palette_find(&p, -1));
}
END_TEST

/* Every class has a name of its own. */
START_TEST(test_names_distinct)
{
	tp_palette_default(&p);
	for (int i = 0; i < p.n; i++)
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(p.e[i].name, p.e[j].name);
}
END_TEST

static void
refused(const char *text, const char *msg)
{
	tp_err e;

	ck_assert_int_eq(tp_palette_parse(&p, text, strlen(text), &e), -1);
	ck_assert_str_eq(e.msg, msg);
}

START_TEST(test_parse)
{
	static const char t[] = "# comment\n\n  7 \"cold land\" #0A0b0c zone 0 1 "
	    "0 1  \r\n3 hot #ffffff sea\n";
	tp_err e;

	ck_assert_int_eq(tp_palette_parse(&p, t, strlen(t), &e), 0);
	ck_assert_int_eq(p.n, 2);
	ck_assert_int_eq(p.e[0].code, 7);
	ck_assert_str_eq(p.e[0].name, "cold land");
	ck_assert_uint_eq(p.e[0].rgb[0], 10);
	ck_assert_uint_eq(p.e[0].rgb[1], 11);
	ck_assert_uint_eq(p.e[0].rgb[2], 12);
	ck_assert_str_eq(p.e[0].rule, "zone 0 1 0 1");
	ck_assert_int_eq(p.e[0].line, 3);
	ck_assert_int_eq(p.e[1].line, 4);
	ck_assert_str_eq(p.e[1].rule, "sea");
	refused("", "the table has no classes");
	refused("# only\n", "the table has no classes");
	refused("1 a #000000\n", "line 1: class 1 has no rule");
	refused("1 a\n", "line 1: want code, name, colour and rule");
	refused("255 a #000000 sea\n",
	    "line 1: code '255' is not a whole number 0..254");
	refused("\n1.5 a #000000 sea\n",
	    "line 2: code '1.5' is not a whole number 0..254");
	refused("1 a #00000g sea\n", "line 1: colour '#00000g' is not #rrggbb");
	refused("1 a 000000 sea\n", "line 1: colour '000000' is not #rrggbb");
	refused("1 \"a #000000 sea\n", "line 1: a name's quote is not closed");
	refused("1 \"\" #000000 sea\n", "line 1: name '' is empty, too long or "
	    "not printable ASCII");
	refused("1 a #000000 sea\n1 b #000000 sea\n",
	    "line 2: code 1 is given twice");
}
END_TEST

/* A table file's error names the file and the line, once each. */
START_TEST(test_load)
{
	char path[] = "/tmp/check_palette.XXXXXX", want[TP_ERR_MAX];
	int fd = mkstemp(path);
	tp_err e;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "1 sea #000000 sea\n2 x #fffff zone\n", 34),
	    34);
	close(fd);
	ck_assert_int_eq(tp_palette_load(&p, path, &e), -1);
	snprintf(want, sizeof want, "%s: line 2: colour '#fffff' is not "
	    "#rrggbb", path);
	ck_assert_str_eq(e.msg, want);
	ck_assert_int_eq(tp_palette_load(&p, path, NULL), -1);
	unlink(path);
	ck_assert_int_eq(tp_palette_load(&p, path, &e), -1);
	snprintf(want, sizeof want, "%s: No such file or directory", path);
	ck_assert_str_eq(e.msg, want);
}
END_TEST

/* BIOME header lines carry a table from tbiome to tgeotiff and tview. */
START_TEST(test_header)
{
	static const char t[] = "4 \"deep sea\" #010203 sea\n9 land #fffefd "
	    "zone 0 1 0 1\n";
	tp_palette q;
	tp_header h;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 1, 1, &e), 0);
	ck_assert_int_eq(tp_palette_from_header(&q, &h, &e), 0);
	ck_assert_int_eq(q.n, 19);
	ck_assert_int_eq(tp_header_add_extra(&h, "BIOME 1 #000000 old", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "OTHER x", &e), 0);
	ck_assert_int_eq(tp_palette_parse(&p, t, strlen(t), &e), 0);
	ck_assert_int_eq(tp_palette_to_header(&p, &h, &e), 0);
	ck_assert_uint_eq(h.nextra, 3);
	ck_assert_str_eq(h.extra[0], "OTHER x");
	ck_assert_str_eq(h.extra[1], "BIOME 4 #010203 deep sea");
	ck_assert_str_eq(h.extra[2], "BIOME 9 #fffefd land");
	ck_assert_int_eq(tp_palette_from_header(&q, &h, &e), 1);
	ck_assert_int_eq(q.n, 2);
	ck_assert_str_eq(q.e[0].name, "deep sea");
	ck_assert_uint_eq(q.e[1].rgb[2], 0xfd);
	ck_assert_str_eq(q.e[1].rule, "");
	ck_assert_int_eq(tp_header_add_extra(&h, "BIOME 3 #abc x", &e), 0);
	ck_assert_int_eq(tp_palette_from_header(&q, &h, &e), -1);
	ck_assert_str_eq(e.msg, "BIOME: '3 #abc x' is not 'code #rrggbb name'");
	tp_header_free(&h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("palette");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_default);
	tcase_add_test(core, test_names_distinct);
	tcase_add_test(core, test_parse);
	tcase_add_test(core, test_load);
	tcase_add_test(core, test_header);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
