/* cli_vrt.c - a GDAL VRT of a stream file (cli_vrt.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_vrt.h"

/* s with XML's five characters escaped. */
static void
put_xml(const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': fputs("&amp;", stdout); break;
		case '<': fputs("&lt;", stdout); break;
		case '>': fputs("&gt;", stdout); break;
		case '"': fputs("&quot;", stdout); break;
		case '\'': fputs("&apos;", stdout); break;
		default: putchar(*s);
		}
	}
}

/* The header of stream file path and its length in bytes; the file must
 * be exactly that header and its samples, since GDAL reads it in place. */
static uint64_t
read_header(const char *path, tp_header *h)
{
	struct stat sb;
	uint64_t nbytes, size;
	FILE *f;
	tp_err e;

	if ((f = fopen(path, "rb")) == NULL)
		cli_die("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(f), &sb) < 0 || !S_ISREG(sb.st_mode))
		cli_die("%s: --vrt needs a regular file", path);
	if (tp_header_read(h, f, &nbytes, &e) < 0)
		cli_die("%s: %s", path, e.msg);
	fclose(f);
	size = nbytes + 4u * (uint64_t)h->width * (uint64_t)h->height *
	    (uint64_t)h->nbands;
	if ((uint64_t)sb.st_size != size)
		cli_die("%s: %llu bytes, not the %llu of its header and samples",
		    path, (unsigned long long)sb.st_size,
		    (unsigned long long)size);
	return nbytes;
}

static void
put_band(int b, const tp_header *h, const char *abs, uint64_t nbytes)
{
	uint64_t row = 4u * (uint64_t)h->width;

	printf("  <VRTRasterBand dataType=\"Float32\" band=\"%d\" "
	    "subClass=\"VRTRawRasterBand\">\n    <Description>", b + 1);
	put_xml(h->band[b]);
	fputs("</Description>\n    <NoDataValue>nan</NoDataValue>\n"
	    "    <SourceFilename relativeToVRT=\"0\">", stdout);
	put_xml(abs);
	printf("</SourceFilename>\n    <ImageOffset>%llu</ImageOffset>\n"
	    "    <PixelOffset>4</PixelOffset>\n"
	    "    <LineOffset>%llu</LineOffset>\n"
	    "    <ByteOrder>LSB</ByteOrder>\n  </VRTRasterBand>\n",
	    (unsigned long long)(nbytes + row * (uint64_t)b),
	    (unsigned long long)(row * (uint64_t)h->nbands));
}

void
cli_vrt_print(const char *path)
{
	char abs[PATH_MAX];
	uint64_t nbytes;
	tp_header h;

	nbytes = read_header(path, &h);
	if (realpath(path, abs) == NULL)
		cli_die("%s: %s", path, strerror(errno));
	printf("<VRTDataset rasterXSize=\"%lld\" rasterYSize=\"%lld\">\n",
	    (long long)h.width, (long long)h.height);
	if (h.crs[0] != '\0') {
		fputs("  <SRS dataAxisToSRSAxisMapping=\"1,2\">", stdout);
		put_xml(h.crs);
		fputs("</SRS>\n", stdout);
	}
	printf("  <GeoTransform>%.17g, %.17g, 0, %.17g, 0, %.17g</GeoTransform>\n",
	    h.origin_x, h.cellsize, h.origin_y, -h.cellsize);
	for (int b = 0; b < h.nbands; b++)
		put_band(b, &h, abs, nbytes);
	fputs("</VRTDataset>\n", stdout);
	tp_header_free(&h);
}
