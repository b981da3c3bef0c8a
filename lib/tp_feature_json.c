/* tp_feature_json.c - the GeoJSON form of the layered ground (libjansson);
 * written in full later. */
#include "tp_feature.h"

int
tp_features_parse_geojson(tp_features *fs, const char *name,
    const char *text, size_t len, tp_err *e)
{
	(void)fs; (void)text; (void)len;
	return tp_err_set(e, "%s: GeoJSON is not read yet", name);
}

int
tp_features_write_geojson(const tp_features *fs, FILE *f, tp_err *e)
{
	(void)fs; (void)f;
	return tp_err_set(e, "GeoJSON is not written yet");
}
