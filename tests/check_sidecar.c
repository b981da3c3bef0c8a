/* check_sidecar.c - unit tests of tp_sidecar: the PAM categories and the
 * QGIS style of a biome table, their names, and how they are put in place. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tp_sidecar.h"
#include "tp_test.h"

static tp_palette p;

/* A table with gaps (codes 0, 5, 200) and names XML must escape; built by
 * hand, since names with quotes or control characters never parse. */
static void
gappy(void)
{
	static const struct { int code; const char *name; unsigned char rgb[3]; }
	    c[] = { { 200, "top", { 255, 0, 1 } },
	    { 0, "a&b <c> \"d\" 'e'", { 16, 32, 48 } },
	    { 5, "tab\there", { 160, 176, 192 } } };

	memset(&p, 0, sizeof p);
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		p.e[i].code = c[i].code;
		strcpy(p.e[i].name, c[i].name);
		memcpy(p.e[i].rgb, c[i].rgb, 3);
	}
	p.n = 3;
}

static size_t
count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)) != NULL; s += strlen(what))
		n++;
	return n;
}

START_TEST(test_pam_default)
{
	char *t;
	size_t len;
	tp_err e;

	tp_palette_default(&p);
	ck_assert_int_eq(tp_sidecar_pam(&p, &t, &len, &e), 0);
	ck_assert_uint_eq(len, strlen(t));
	ck_assert_uint_eq(count(t, "<Category>"), 19);
	ck_assert_ptr_nonnull(strstr(t, "<PAMDataset>\n"));
	ck_assert_ptr_nonnull(strstr(t, "<PAMRasterBand band=\"1\">"));
	ck_assert_ptr_nonnull(strstr(t, "<Category>ocean</Category>\n"
	    "      <Category>lake</Category>"));
	ck_assert_ptr_nonnull(strstr(t, "<Category>marsh</Category>\n"
	    "    </CategoryNames>"));
	free(t);
}
END_TEST

/* One Category per code 0 .. 200, empty in the gaps, names escaped. */
START_TEST(test_pam_gaps)
{
	char *t;
	size_t len;
	tp_err e;

	gappy();
	ck_assert_int_eq(tp_sidecar_pam(&p, &t, &len, &e), 0);
	ck_assert_uint_eq(count(t, "<Category>"), 201);
	ck_assert_uint_eq(count(t, "<Category></Category>"), 198);
	ck_assert_ptr_nonnull(strstr(t, "<Category>a&amp;b &lt;c&gt; &quot;d&quot;"
	    " &apos;e&apos;</Category>\n      <Category></Category>"));
	ck_assert_ptr_nonnull(strstr(t, "<Category>tab here</Category>"));
	ck_assert_ptr_nonnull(strstr(t, "<Category></Category>\n"
	    "      <Category>top</Category>\n    </CategoryNames>"));
	free(t);
}
END_TEST

/* One paletteEntry per class, in code order, with the class's colour. */
START_TEST(test_qml)
{
	char *t;
	const char *a, *b, *c;
	size_t len;
	tp_err e;

	gappy();
	ck_assert_int_eq(tp_sidecar_qml(&p, &t, &len, &e), 0);
	ck_assert_uint_eq(len, strlen(t));
	ck_assert_uint_eq(count(t, "<paletteEntry "), 3);
	ck_assert_ptr_nonnull(strstr(t, "<rasterrenderer type=\"paletted\" band=\"1\""));
	a = strstr(t, "<paletteEntry value=\"0\" color=\"#102030\" label=\"a&amp;b "
	    "&lt;c&gt; &quot;d&quot; &apos;e&apos;\" alpha=\"255\"/>");
	b = strstr(t, "<paletteEntry value=\"5\" color=\"#a0b0c0\" label=\"tab here\"");
	c = strstr(t, "<paletteEntry value=\"200\" color=\"#ff0001\" label=\"top\"");
	ck_assert(a != NULL && b != NULL && c != NULL && a < b && b < c);
	ck_assert_str_eq(t + len - 8, "</qgis>\n");
	free(t);
	tp_palette_default(&p);
	ck_assert_int_eq(tp_sidecar_qml(&p, &t, &len, &e), 0);
	ck_assert_uint_eq(count(t, "<paletteEntry "), 19);
	ck_assert_ptr_nonnull(strstr(t, "value=\"17\" color=\"#225588\" label=\"river\""));
	free(t);
}
END_TEST

START_TEST(test_paths)
{
	static const char *const cases[][3] = {
		{ "map.tif", "map.tif.aux.xml", "map.qml" },
		{ "d/a.b/map.tiff", "d/a.b/map.tiff.aux.xml", "d/a.b/map.qml" },
		{ "d.x/map", "d.x/map.aux.xml", "d.x/map.qml" },
		{ ".hidden", ".hidden.aux.xml", ".hidden.qml" },
		{ "a.b.tif", "a.b.tif.aux.xml", "a.b.qml" },
	};
	char *s;
	tp_err e;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(tp_sidecar_pam_path(cases[i][0], &s, &e), 0);
		ck_assert_str_eq(s, cases[i][1]);
		free(s);
		ck_assert_int_eq(tp_sidecar_qml_path(cases[i][0], &s, &e), 0);
		ck_assert_str_eq(s, cases[i][2]);
		free(s);
	}
}
END_TEST

static char dir[64];

/* A fresh scratch directory in dir. */
static void
scratch(void)
{
	strcpy(dir, "/tmp/check_sidecar.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
put_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static int
exists(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

/* A staged file is nowhere under its name until commit; abort leaves
 * nothing. */
START_TEST(test_stage)
{
	char path[256];
	tp_outfile o;
	tp_err e;

	scratch();
	snprintf(path, sizeof path, "%s/m.qml", dir);
	ck_assert_int_eq(tp_sidecar_stage(&o, path, "<x/>\n", 5, &e), 0);
	ck_assert(!exists("m.qml"));
	ck_assert_ptr_nonnull(o.tmp);
	ck_assert_int_eq(tp_outfile_commit(&o, &e), 0);
	ck_assert(exists("m.qml"));
	snprintf(path, sizeof path, "%s/n.qml", dir);
	ck_assert_int_eq(tp_sidecar_stage(&o, path, "<x/>\n", 5, &e), 0);
	tp_outfile_abort(&o);
	ck_assert(!exists("n.qml"));
	snprintf(path, sizeof path, "%s/none/n.qml", dir);
	ck_assert_int_eq(tp_sidecar_stage(&o, path, "<x/>\n", 5, &e), -1);
	remove(strcat(strcpy(path, dir), "/m.qml"));
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Stale: the .aux.xml always goes, the .qml only when tgeotiff wrote it. */
START_TEST(test_stale)
{
	char tif[256], path[256], *t;
	size_t len;
	tp_err e;

	scratch();
	snprintf(tif, sizeof tif, "%s/m.tif", dir);
	tp_palette_default(&p);
	ck_assert_int_eq(tp_sidecar_qml(&p, &t, &len, &e), 0);
	put_file("m.qml", t);
	free(t);
	put_file("m.tif.aux.xml", "<PAMDataset/>\n");
	ck_assert_int_eq(tp_sidecar_remove_stale(tif, &e), 0);
	ck_assert(!exists("m.qml"));
	ck_assert(!exists("m.tif.aux.xml"));
	/* the grey style is ours too; remove_pam leaves any style */
	ck_assert_int_eq(tp_sidecar_qml_grey(&t, &len, &e), 0);
	ck_assert_uint_eq(strlen(t), len);
	ck_assert_ptr_nonnull(strstr(t, "type=\"singlebandgray\" "
	    "grayBand=\"1\""));
	put_file("m.qml", t);
	free(t);
	snprintf(path, sizeof path, "%s/m.qml", dir);
	ck_assert_int_eq(tp_sidecar_theirs(path), 0);
	put_file("m.tif.aux.xml", "<PAMDataset/>\n");
	ck_assert_int_eq(tp_sidecar_remove_pam(tif, &e), 0);
	ck_assert(exists("m.qml"));
	ck_assert(!exists("m.tif.aux.xml"));
	ck_assert_int_eq(tp_sidecar_remove_stale(tif, &e), 0);
	ck_assert(!exists("m.qml"));
	ck_assert_int_eq(tp_sidecar_theirs(path), 0);	/* none there */
	put_file("m.qml", "<qgis/>\n");		/* a user's own style */
	ck_assert_int_eq(tp_sidecar_theirs(path), 1);
	ck_assert_int_eq(tp_sidecar_remove_stale(tif, &e), 0);
	ck_assert(exists("m.qml"));
	remove(strcat(strcpy(tif, dir), "/m.qml"));
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *
sidecar_suite(void)
{
	Suite *su = suite_create("sidecar");
	TCase *core = tcase_create("core");
	TCase *files = tcase_create("files");

	tcase_add_test(core, test_pam_default);
	tcase_add_test(core, test_pam_gaps);
	tcase_add_test(core, test_qml);
	tcase_add_test(core, test_paths);
	tcase_add_test(files, test_stage);
	tcase_add_test(files, test_stale);
	suite_add_tcase(su, core);
	suite_add_tcase(su, files);
	return su;
}

int
main(void)
{
	return tp_test_run(sidecar_suite());
}
