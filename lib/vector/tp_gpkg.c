/*
 * tp_gpkg.c - GeoPackage writing through libsqlite3 (see tp_gpkg.h).
 *
 * Everything is one transaction with the journal off: the file is a
 * temporary one that tp_outfile renames only when it is complete, so
 * SQLite's crash safety would buy nothing and cost a copy of every page.
 * The R-tree's triggers call ST_* functions that only GeoPackage readers
 * (GDAL, QGIS) define, so they are created after the layer's rows, which
 * fill the R-tree directly.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vector/tp_gpkg.h"
#include "geo/tp_crs.h"

#define LAYER_MAX	64	/* bytes of a layer name */

struct tp_gpkg {
	sqlite3	*db;
	int	srs_id;
	char	layer[LAYER_MAX];	/* the layer open, "" for none */
	int	nfields;
	const tp_vecgeom_field *fields;
	sqlite3_stmt *ins, *rtree;
	double	minx, miny, maxx, maxy;	/* the layer's extent so far */
	int64_t	nfeat;
	unsigned char *blob;
	size_t	cblob;
};

static int
db_fail(tp_gpkg *g, const char *what, tp_err *e)
{
	return tp_err_set(e, "GeoPackage: %s: %s", what, sqlite3_errmsg(g->db));
}

static int
exec(tp_gpkg *g, const char *sql, tp_err *e)
{
	char *msg = NULL;

	if (sqlite3_exec(g->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		tp_err_set(e, "GeoPackage: %s", msg ? msg : "SQLite failed");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* sqlite3_mprintf's text run through exec, then freed. */
static int
execf(tp_gpkg *g, tp_err *e, const char *fmt, ...)
{
	va_list ap;
	char *sql;
	int rc;

	va_start(ap, fmt);
	sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	if (sql == NULL)
		return tp_err_set(e, "out of memory");
	rc = exec(g, sql, e);
	sqlite3_free(sql);
	return rc;
}

static const char schema[] =
    "PRAGMA application_id = 1196444487;"	/* 'GPKG' */
    "PRAGMA user_version = 10300;"
    "PRAGMA journal_mode = OFF;"
    "PRAGMA synchronous = OFF;"
    "BEGIN;"
    "CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL,"
    " srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,"
    " organization_coordsys_id INTEGER NOT NULL,"
    " definition TEXT NOT NULL, description TEXT);"
    "CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY,"
    " data_type TEXT NOT NULL, identifier TEXT UNIQUE,"
    " description TEXT DEFAULT '',"
    " last_change DATETIME NOT NULL DEFAULT"
    " (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
    " min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,"
    " srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id)"
    " REFERENCES gpkg_spatial_ref_sys(srs_id));"
    "CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL,"
    " column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,"
    " srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,"
    " CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),"
    " CONSTRAINT uk_gc_table_name UNIQUE (table_name),"
    " CONSTRAINT fk_gc_tn FOREIGN KEY (table_name)"
    " REFERENCES gpkg_contents(table_name),"
    " CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id)"
    " REFERENCES gpkg_spatial_ref_sys (srs_id));"
    "CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT,"
    " extension_name TEXT NOT NULL, definition TEXT NOT NULL,"
    " scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE"
    " (table_name, column_name, extension_name));"
    "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS',"
    " -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate"
    " reference system');"
    "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS',"
    " 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate"
    " reference system');";

/* A row of gpkg_spatial_ref_sys for EPSG:epsg, its WKT from PROJ. */
static int
add_srs(tp_gpkg *g, int epsg, tp_err *e)
{
	char *wkt, *name;
	int rc;

	if (tp_crs_wkt(epsg, &wkt, &name, e) < 0)
		return -1;
	rc = execf(g, e, "INSERT INTO gpkg_spatial_ref_sys VALUES "
	    "(%Q, %d, 'EPSG', %d, %Q, NULL);", name, epsg, epsg, wkt);
	free(wkt);
	free(name);
	return rc;
}

int
tp_gpkg_open(tp_gpkg **gp, const char *path, int epsg, tp_err *e)
{
	tp_gpkg *g;

	*gp = NULL;
	if ((g = calloc(1, sizeof *g)) == NULL)
		return tp_err_set(e, "out of memory");
	if (sqlite3_open_v2(path ? path : ":memory:", &g->db,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		if (g->db == NULL)
			tp_err_set(e, "out of memory");
		else
			db_fail(g, path ? path : "in memory", e);
		tp_gpkg_abort(g);
		return -1;
	}
	g->srs_id = epsg > 0 ? epsg : -1;
	if (exec(g, schema, e) < 0 || add_srs(g, 4326, e) < 0 ||
	    (epsg > 0 && epsg != 4326 && add_srs(g, epsg, e) < 0)) {
		tp_gpkg_abort(g);
		return -1;
	}
	*gp = g;
	return 0;
}

static const char *const gtype_name[] = { "LINESTRING", "MULTIPOLYGON" };

/* The feature table, its R-tree and the rows describing them. */
static int
create_layer(tp_gpkg *g, const char *name, int gtype, const char *desc,
    tp_err *e)
{
	char *sql, *p;
	int i;

	if ((sql = sqlite3_mprintf("CREATE TABLE \"%w\" (fid INTEGER PRIMARY "
	    "KEY AUTOINCREMENT NOT NULL, geom %s", name,
	    gtype_name[gtype])) == NULL)
		return tp_err_set(e, "out of memory");
	for (i = 0; i < g->nfields; i++) {
		p = sqlite3_mprintf("%z, \"%w\" %s", sql, g->fields[i].name,
		    g->fields[i].type == TP_VF_INT ? "INTEGER" : "REAL");
		if ((sql = p) == NULL)
			return tp_err_set(e, "out of memory");
	}
	if ((p = sqlite3_mprintf("%z);", sql)) == NULL)
		return tp_err_set(e, "out of memory");
	i = exec(g, p, e);
	sqlite3_free(p);
	if (i < 0)
		return -1;
	return execf(g, e, "INSERT INTO gpkg_contents (table_name, data_type,"
	    " identifier, description, last_change, srs_id) VALUES (%Q,"
	    " 'features', %Q, %Q, '1970-01-01T00:00:00.000Z', %d);"
	    "INSERT INTO gpkg_geometry_columns VALUES (%Q, 'geom', '%s', %d,"
	    " 0, 0);"
	    "CREATE VIRTUAL TABLE \"rtree_%w_geom\" USING rtree(id, minx,"
	    " maxx, miny, maxy);"
	    "INSERT INTO gpkg_extensions VALUES (%Q, 'geom',"
	    " 'gpkg_rtree_index',"
	    " 'http://www.geopackage.org/spec120/#extension_rtree',"
	    " 'write-only');", name, name, desc, g->srs_id, name,
	    gtype_name[gtype], g->srs_id, name, name);
}

/* The insert statements of the layer open: fid, geom, fields; the R-tree. */
static int
prepare(tp_gpkg *g, tp_err *e)
{
	char *sql;
	int i, rc;

	if ((sql = sqlite3_mprintf("INSERT INTO \"%w\" VALUES (?, ?",
	    g->layer)) == NULL)
		return tp_err_set(e, "out of memory");
	for (i = 0; i < g->nfields && sql != NULL; i++)
		sql = sqlite3_mprintf("%z, ?", sql);
	if (sql == NULL || (sql = sqlite3_mprintf("%z)", sql)) == NULL)
		return tp_err_set(e, "out of memory");
	rc = sqlite3_prepare_v2(g->db, sql, -1, &g->ins, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return db_fail(g, "insert", e);
	if ((sql = sqlite3_mprintf("INSERT INTO \"rtree_%w_geom\" VALUES "
	    "(?, ?, ?, ?, ?)", g->layer)) == NULL)
		return tp_err_set(e, "out of memory");
	rc = sqlite3_prepare_v2(g->db, sql, -1, &g->rtree, NULL);
	sqlite3_free(sql);
	return rc == SQLITE_OK ? 0 : db_fail(g, "R-tree", e);
}

/* The triggers that keep the R-tree right when a reader edits the layer,
 * as the gpkg_rtree_index extension gives them. */
static int
triggers(tp_gpkg *g, tp_err *e)
{
	const char *t = g->layer;
	char r[LAYER_MAX + 16];

	snprintf(r, sizeof r, "rtree_%s_geom", t);
	return execf(g, e,
	    "CREATE TRIGGER \"%w_insert\" AFTER INSERT ON \"%w\""
	    " WHEN (new.geom NOT NULL AND NOT ST_IsEmpty(NEW.geom))"
	    " BEGIN INSERT OR REPLACE INTO \"%w\" VALUES (NEW.fid,"
	    " ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom),"
	    " ST_MaxY(NEW.geom)); END;"
	    "CREATE TRIGGER \"%w_update1\" AFTER UPDATE OF geom ON \"%w\""
	    " WHEN OLD.fid = NEW.fid AND (NEW.geom NOTNULL AND NOT"
	    " ST_IsEmpty(NEW.geom))"
	    " BEGIN INSERT OR REPLACE INTO \"%w\" VALUES (NEW.fid,"
	    " ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom),"
	    " ST_MaxY(NEW.geom)); END;"
	    "CREATE TRIGGER \"%w_update2\" AFTER UPDATE OF geom ON \"%w\""
	    " WHEN OLD.fid = NEW.fid AND (NEW.geom ISNULL OR"
	    " ST_IsEmpty(NEW.geom))"
	    " BEGIN DELETE FROM \"%w\" WHERE id = OLD.fid; END;"
	    "CREATE TRIGGER \"%w_update3\" AFTER UPDATE ON \"%w\""
	    " WHEN OLD.fid != NEW.fid AND (NEW.geom NOTNULL AND NOT"
	    " ST_IsEmpty(NEW.geom))"
	    " BEGIN DELETE FROM \"%w\" WHERE id = OLD.fid;"
	    " INSERT OR REPLACE INTO \"%w\" VALUES (NEW.fid,"
	    " ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom),"
	    " ST_MaxY(NEW.geom)); END;"
	    "CREATE TRIGGER \"%w_update4\" AFTER UPDATE ON \"%w\""
	    " WHEN OLD.fid != NEW.fid AND (NEW.geom ISNULL OR"
	    " ST_IsEmpty(NEW.geom))"
	    " BEGIN DELETE FROM \"%w\" WHERE id IN (OLD.fid, NEW.fid); END;"
	    "CREATE TRIGGER \"%w_delete\" AFTER DELETE ON \"%w\""
	    " WHEN old.geom NOT NULL"
	    " BEGIN DELETE FROM \"%w\" WHERE id = OLD.fid; END;",
	    r, t, r, r, t, r, r, t, r, r, t, r, r, r, t, r, r, t, r);
}

/* Close the layer open: its extent, its triggers, its statements. */
static int
end_layer(tp_gpkg *g, tp_err *e)
{
	int rc = 0;

	if (g->layer[0] == '\0')
		return 0;
	sqlite3_finalize(g->ins);
	sqlite3_finalize(g->rtree);
	g->ins = g->rtree = NULL;
	if (g->nfeat > 0)
		rc = execf(g, e, "UPDATE gpkg_contents SET min_x = %!.17g, "
		    "min_y = %!.17g, max_x = %!.17g, max_y = %!.17g "
		    "WHERE table_name = %Q;", g->minx, g->miny, g->maxx,
		    g->maxy, g->layer);
	if (rc == 0)
		rc = triggers(g, e);
	g->layer[0] = '\0';
	return rc;
}

int
tp_gpkg_layer(tp_gpkg *g, const char *name, int gtype,
    const tp_vecgeom_field *fields, int nfields, const char *description,
    tp_err *e)
{
	if (end_layer(g, e) < 0)
		return -1;
	if (strlen(name) >= LAYER_MAX)
		return tp_err_set(e, "layer name '%s' too long", name);
	strcpy(g->layer, name);
	g->fields = fields;
	g->nfields = nfields;
	g->nfeat = 0;
	g->minx = g->miny = INFINITY;
	g->maxx = g->maxy = -INFINITY;
	if (create_layer(g, name, gtype, description, e) < 0 ||
	    prepare(g, e) < 0) {
		g->layer[0] = '\0';
		return -1;
	}
	return 0;
}

/* Little-endian bytes of integers and doubles into the blob. */
static unsigned char *
put_u32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
	return p + 4;
}

static unsigned char *
put_f64(unsigned char *p, double d)
{
	uint64_t v;
	int i;

	memcpy(&v, &d, sizeof v);
	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
	return p + 8;
}

/* The envelope minx, maxx, miny, maxy of n points. */
static void
envelope(const double *xy, size_t n, double env[4])
{
	size_t i;

	env[0] = env[2] = INFINITY;
	env[1] = env[3] = -INFINITY;
	for (i = 0; i < n; i++) {
		env[0] = fmin(env[0], xy[2 * i]);
		env[1] = fmax(env[1], xy[2 * i]);
		env[2] = fmin(env[2], xy[2 * i + 1]);
		env[3] = fmax(env[3], xy[2 * i + 1]);
	}
}

static unsigned char *
put_points(unsigned char *p, const double *xy, size_t n)
{
	size_t i;

	p = put_u32(p, (uint32_t)n);
	for (i = 0; i < 2 * n; i++)
		p = put_f64(p, xy[i]);
	return p;
}

size_t
tp_gpkg_blob(const tp_vecgeom *g, int srs_id, unsigned char *buf)
{
	/* header 8 + envelope 32; a WKB header is 1 + 4; a count 4 */
	size_t n = 40 + 9, r, pt, k, ring0;
	unsigned char *p = buf;
	double env[4];

	if (g->npts > (SIZE_MAX - 1024) / 16 || g->nrings > SIZE_MAX / 32)
		return 0;
	n += g->npts * 16;
	if (g->type == TP_VG_MPOLY)
		n += g->npolys * 9 + g->nrings * 4;
	if (buf == NULL)
		return n;
	envelope(g->xy, g->npts, env);
	p[0] = 'G';
	p[1] = 'P';
	p[2] = 0;		/* version 1 */
	p[3] = 0x03;		/* little-endian, envelope minx maxx miny maxy */
	p = put_u32(p + 4, (uint32_t)srs_id);
	for (k = 0; k < 4; k++)
		p = put_f64(p, env[k]);
	*p++ = 1;		/* WKB little-endian */
	if (g->type == TP_VG_LINE) {
		p = put_u32(p, 2);
		put_points(p, g->xy, g->npts);
		return n;
	}
	p = put_u32(p, 6);
	p = put_u32(p, (uint32_t)g->npolys);
	for (k = 0, r = 0, pt = 0; k < g->npolys; k++) {
		*p++ = 1;
		p = put_u32(p, 3);
		p = put_u32(p, (uint32_t)g->poly[k]);
		for (ring0 = r; r < ring0 + g->poly[k]; r++) {
			p = put_points(p, g->xy + 2 * pt, g->ring[r]);
			pt += g->ring[r];
		}
	}
	return n;
}

static int
bind_values(tp_gpkg *g, const double *v)
{
	int i, rc = SQLITE_OK;

	for (i = 0; i < g->nfields && rc == SQLITE_OK; i++)
		if (isnan(v[i]))
			rc = sqlite3_bind_null(g->ins, i + 3);
		else if (g->fields[i].type == TP_VF_INT)
			rc = sqlite3_bind_int64(g->ins, i + 3,
			    fabs(v[i]) < 9.2e18 ? (sqlite3_int64)v[i] : 0);
		else
			rc = sqlite3_bind_double(g->ins, i + 3, v[i]);
	return rc;
}

static int
step(tp_gpkg *g, sqlite3_stmt *s, tp_err *e)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : db_fail(g, "insert", e);
}

int
tp_gpkg_feature(tp_gpkg *g, const tp_vecgeom *geom, const double *v,
    tp_err *e)
{
	size_t n = tp_gpkg_blob(geom, g->srs_id, NULL);
	double env[4];
	void *nb;

	if (g->layer[0] == '\0')
		return tp_err_set(e, "GeoPackage: no layer open");
	if (n == 0 || n > INT32_MAX)
		return tp_err_set(e, "GeoPackage: a geometry of %zu points is "
		    "too large", geom->npts);
	if (n > g->cblob) {
		if ((nb = realloc(g->blob, n)) == NULL)
			return tp_err_set(e, "out of memory");
		g->blob = nb;
		g->cblob = n;
	}
	tp_gpkg_blob(geom, g->srs_id, g->blob);
	envelope(geom->xy, geom->npts, env);
	g->nfeat++;
	if (sqlite3_bind_int64(g->ins, 1, g->nfeat) != SQLITE_OK ||
	    sqlite3_bind_blob(g->ins, 2, g->blob, (int)n, SQLITE_STATIC) !=
	    SQLITE_OK || bind_values(g, v) != SQLITE_OK)
		return db_fail(g, "bind", e);
	if (step(g, g->ins, e) < 0)
		return -1;
	sqlite3_bind_int64(g->rtree, 1, g->nfeat);
	sqlite3_bind_double(g->rtree, 2, env[0]);
	sqlite3_bind_double(g->rtree, 3, env[1]);
	sqlite3_bind_double(g->rtree, 4, env[2]);
	sqlite3_bind_double(g->rtree, 5, env[3]);
	if (step(g, g->rtree, e) < 0)
		return -1;
	g->minx = fmin(g->minx, env[0]);
	g->maxx = fmax(g->maxx, env[1]);
	g->miny = fmin(g->miny, env[2]);
	g->maxy = fmax(g->maxy, env[3]);
	return 0;
}

/* Write the in-memory database's bytes to fd. */
static int
serialize(tp_gpkg *g, int fd, tp_err *e)
{
	sqlite3_int64 n;
	unsigned char *p = sqlite3_serialize(g->db, "main", &n, 0);
	ssize_t k;
	sqlite3_int64 off = 0;

	if (p == NULL)
		return tp_err_set(e, "out of memory");
	while (off < n) {
		if ((k = write(fd, p + off, (size_t)(n - off))) <= 0) {
			sqlite3_free(p);
			return tp_err_set(e, "cannot write the GeoPackage");
		}
		off += k;
	}
	sqlite3_free(p);
	return 0;
}

int
tp_gpkg_close(tp_gpkg *g, int fd, tp_err *e)
{
	int rc = end_layer(g, e);

	if (rc == 0)
		rc = exec(g, "COMMIT;", e);
	if (rc == 0 && fd >= 0)
		rc = serialize(g, fd, e);
	if (rc == 0 && sqlite3_close(g->db) != SQLITE_OK)
		rc = db_fail(g, "close", e);
	else if (rc == 0)
		g->db = NULL;
	tp_gpkg_abort(g);
	return rc;
}

void
tp_gpkg_abort(tp_gpkg *g)
{
	if (g == NULL)
		return;
	sqlite3_finalize(g->ins);
	sqlite3_finalize(g->rtree);
	if (g->db != NULL)
		sqlite3_close(g->db);
	free(g->blob);
	free(g);
}
