/*
 * tp_extent.h - a grid's extent in world units: checked against what its
 * CRS allows, and written out for messages.
 *
 * All functions return 0 on success and -1 with a message in *e.
 */
#ifndef TP_EXTENT_H
#define TP_EXTENT_H

#include "core/tp_err.h"
#include "stream/tp_stream.h"

/* 0 unless h's CRS is geographic (tp_geo_header_geographic) and its
 * extent leaves longitudes [-180,360] or latitudes [-90,90]; the message
 * gives the extent and the CRS. */
int	tp_extent_check_geographic(const tp_header *h, tp_err *e);

#endif
