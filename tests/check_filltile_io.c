/* check_filltile_io.c - unit tests of tp_filltile_io: the edge files of
 * tiled filling written and parsed back, checked against their tile,
 * truncation refused. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_filltile.h"
#include "tp_test.h"

static const tp_fill_opts EPS = { TP_FILL_EPSILON, 1e-4f };

/* Edge and levels files read back what was written. */
START_TEST(test_files)
{
	tp_fring r, back;
	tp_fedge ed;
	tp_ftgrid g;
	tp_err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	ck_assert_int_eq(tp_ftgrid_init(&g, 10, 7, 4, 4, &EPS, 0.25, &e), 0);
	ck_assert_int_eq(tp_fring_alloc(&r, 2, 3, &e), 0);
	for (i = 0; i < 10; i++) {
		r.z[i] = (float)i;
		r.f[i] = i == 3 ? INFINITY : (float)i + 0.5f;
	}
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_fedge_write(f, &g, 1, 2, &r, NULL, &e), 0);
	fclose(f);
	ck_assert_str_eq(strtok(buf, "\n"), "TERRAPIPE-EDGE 2 1 2 2 3 epsilon "
	    "9.99999975e-05 0.25");
	buf[strlen(buf)] = '\n';
	ck_assert_int_eq(tp_fedge_parse(&ed, (unsigned char *)buf, len, &e), 0);
	ck_assert_int_eq(tp_fedge_check(&ed, &g, 1, 2, &e), 0);
	ck_assert_int_eq(memcmp(ed.ring.f, r.f, 10 * sizeof *r.f), 0);
	ck_assert_int_eq(tp_fedge_check(&ed, &g, 0, 2, &e), -1);
	ck_assert_str_eq(e.msg, "the edge file is of tile 1,2, not 0,2");
	tp_fring_free(&ed.ring);
	ck_assert_int_eq(tp_fedge_parse(&ed, (unsigned char *)buf, len - 1,
	    &e), -1);
	ck_assert_str_eq(e.msg, "edge file: the ring is truncated");
	free(buf);
	(void)back;
	tp_fring_free(&r);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("filltile_io");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_files);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
