/* check_material.c - unit tests of tp_material: the materials file. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/tp_png.h"
#include "render/tp_material.h"
#include "tp_test.h"
#include "tp_test_png.h"

static char mdir[] = "/tmp/check_material.XXXXXX";

/* Write text to mdir/name; return its path in a static buffer. */
static const char *
put(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", mdir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void
refused(const char *text, const char *msg)
{
	static tp_materials ms;
	tp_err e;

	ck_assert_int_eq(tp_materials_load(&ms, put("m.txt", text), &e), -1);
	if (strstr(e.msg, msg) == NULL)
		ck_abort_msg("'%s' lacks '%s'", e.msg, msg);
}

/* The materials file: names (quoted with blanks), relative paths, sizes,
 * tints, '*'; errors name file and line; binding to a biome table. */
START_TEST(test_materials)
{
	static tp_materials ms;
	static tp_palette p;
	uint8_t px[2 * 2 * 4];
	char tex[300];
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(mdir));
	memset(px, 200, sizeof px);
	snprintf(tex, sizeof tex, "%s/g.png", mdir);
	write_png(tex, 2, 2, 4, px);
	ck_assert_int_eq(tp_materials_load(&ms, put("m.txt",
	    "# comment\n\ngrassland g.png 4\n\"temperate desert\" g.png 6 "
	    "#ff8000\n* g.png 8\n"), &e), 0);
	ck_assert_int_eq(ms.n, 3);
	ck_assert_str_eq(ms.m[1].name, "temperate desert");
	ck_assert_double_eq(ms.m[1].size, 6);
	ck_assert_float_eq(ms.m[1].tint[1], 128.0f / 255.0f);
	ck_assert_int_eq(ms.any, 2);
	tp_palette_default(&p);
	ck_assert_int_eq(tp_materials_bind(&ms, &p, &e), 0);
	ck_assert_ptr_eq(tp_materials_for(&ms, 10), &ms.m[0]);	/* grassland */
	ck_assert_ptr_eq(tp_materials_for(&ms, 0), &ms.m[2]);	/* '*' */
	ck_assert_ptr_eq(tp_materials_for(&ms, NAN), &ms.m[2]);
	tp_materials_free(&ms);

	ck_assert_int_eq(tp_materials_load(&ms, put("m.txt",
	    "grassland g.png 4\n"), &e), 0);
	ck_assert_int_eq(tp_materials_bind(&ms, &p, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "no '*' line"));
	tp_materials_free(&ms);
	ck_assert_int_eq(tp_materials_load(&ms, put("m.txt",
	    "* g.png 4\nmeadow g.png 4\n"), &e), 0);
	ck_assert_int_eq(tp_materials_bind(&ms, &p, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "m.txt:2: no biome 'meadow'"));
	tp_materials_free(&ms);

	refused("* g.png\n", "m.txt:1: want NAME PATH SIZE");
	refused("\n* g.png 0\n", "m.txt:2: size");
	refused("* g.png 4 #12\n", "m.txt:1: tint");
	refused("* g.png 4 #123456 x\n", "m.txt:1: more than");
	refused("* nothere.png 4\n", "m.txt:1: ");
	refused("* g.png 4\n* g.png 5\n", "m.txt:2: '*' again");
	refused("\"open g.png 4\n", "m.txt:1: a name's quote");
	refused("# nothing\n", "no materials");
	unlink(tex);
	snprintf(tex, sizeof tex, "%s/m.txt", mdir);
	unlink(tex);
	rmdir(mdir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("material");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_materials);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
