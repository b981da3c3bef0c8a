# terrapipe - GNU make. Settings first; everything is derived from the file
# lists so build, install and uninstall never drift apart.
#
#   make            build bin/ (programs) and obj/ (objects, libterrapipe.a,
#                   libcli.a)
#   make check      install missing Debian packages, build, run every test
#   make purity     libterrapipe.a references no exit, printf, stderr, ...
#   make includes   lib/'s include graph: no loop between modules or
#                   folders, no cli/ header, a header for every .c
#   make asan       the whole test suite under AddressSanitizer and UBSan
#   make fuzz       libFuzzer targets, FUZZ_SECONDS each (make check runs
#                   each for FUZZ_CHECK_SECONDS from the seeds alone)
#   make bench      benchmarks (scripts/bench.sh), figures and ratios
#   make demo       the longest pipeline there is, leaving demo.tif,
#                   demo-biome.tif, their PNGs and demo-texture.png here
#   make textures   the ground textures (grass, rock, sand, snow: tiling
#                   RGB PNGs made by tnoise) in share/textures/
#   make install    PREFIX=/usr/local DESTDIR= (the QGIS provider too, in
#                   QGIS_PLUGINS: QGIS finds it there when PREFIX is QGIS's
#                   own, /usr, else through QGIS_PLUGINPATH)
#   make qgis-zip   terrapipe-qgis.zip, the provider for QGIS's plugin
#                   manager (Install from ZIP)

PREFIX	?= /usr/local
MANDIR	?= $(PREFIX)/share/man
QGIS_PLUGINS ?= $(PREFIX)/share/qgis/python/plugins
# The QGIS provider (docs/QGIS.md): its Python files and models.
QGIS_PY	= $(wildcard qgis/terrapipe/*.py) qgis/terrapipe/metadata.txt
QGIS_MODELS = $(wildcard qgis/terrapipe/models/*.model3)
O	?= .
CC	?= cc
OPT	?= -O2
CFLAGS	?= $(OPT) -g
WARN	= -Wall -Wextra -Wshadow -Wno-unused-parameter
# Include paths and libraries from pkg-config where the package ships a .pc
# file; the second argument is the fallback when pkg-config or the .pc is
# absent.
pc_cflags = $(shell pkg-config --cflags $(1) 2>/dev/null || echo $(2))
pc_libs	  = $(shell pkg-config --libs $(1) 2>/dev/null || echo $(2))
TIFF_CFLAGS := $(call pc_cflags,libtiff-4,)
TIFF_LIBS   := $(call pc_libs,libtiff-4,-ltiff)
PNG_CFLAGS  := $(call pc_cflags,libpng,)
PNG_LIBS    := $(call pc_libs,libpng,-lpng)
PROJ_CFLAGS := $(call pc_cflags,proj,)
PROJ_LIBS   := $(call pc_libs,proj,-lproj)
JANSSON_CFLAGS := $(call pc_cflags,jansson,)
JANSSON_LIBS   := $(call pc_libs,jansson,-ljansson)
# libgeotiff installs no .pc file (Debian, and upstream's autotools build),
# and its headers sit in a directory of their own: name it here; override
# it (make GEOTIFF_CFLAGS=-I/opt/geotiff/include) where it lives elsewhere.
GEOTIFF_CFLAGS ?= -I/usr/include/geotiff
GEOTIFF_LIBS   ?= -lgeotiff
# -ffp-contract=off: no fused multiply-add, so the same bytes on every CPU.
XCFLAGS	= -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread \
	  -ffp-contract=off $(WARN) -Ilib $(GEOTIFF_CFLAGS) $(TIFF_CFLAGS) \
	  $(PNG_CFLAGS) $(PROJ_CFLAGS) $(JANSSON_CFLAGS) $(FFTW_CFLAGS) -MMD -MP
# lib/ cannot include cli/ headers: only cli/, cmd/ and tests/ see them.
INC_lib	=
INC_cli	= -Icli
INC_cmd	= -Icli
LDLIBS	= -lm -pthread
FUZZ_SECONDS ?= 30
FUZZ_CHECK_SECONDS ?= 3
# make check and make asan build with -j$(JOBS) unless make was given a -j
# of its own, and run JOBS test suites (and fuzz targets) at once.
JOBS	?= $(shell nproc 2>/dev/null || echo 2)
SUBMAKE	= $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))
# The wall time since START (seconds since the epoch), for the last line of
# make check and make asan.
elapsed	= echo "$(1): $$(( $$(date +%s) - $(2) )) s of wall time"

ifeq ($(FUZZ),1)
XCFLAGS	+= -fsanitize=fuzzer-no-link
endif
ifeq ($(SAN),1)
XCFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=address,undefined
endif

# Libraries only some programs link.
LDLIBS_timport	= $(GEOTIFF_LIBS) $(TIFF_LIBS) $(PNG_LIBS) $(PROJ_LIBS)
LDLIBS_tgeotiff	= $(GEOTIFF_LIBS) $(TIFF_LIBS)
LDLIBS_geotiff	= $(GEOTIFF_LIBS) $(TIFF_LIBS) $(PNG_LIBS)
LDLIBS_geotiff_write = $(GEOTIFF_LIBS) $(TIFF_LIBS) $(PNG_LIBS)
LDLIBS_import	= $(GEOTIFF_LIBS) $(TIFF_LIBS) $(PNG_LIBS)
LDLIBS_hmjson	= $(GEOTIFF_LIBS) $(TIFF_LIBS) $(PNG_LIBS)
LDLIBS_png	= $(PNG_LIBS)
LDLIBS_tiffmem	= $(GEOTIFF_LIBS) $(TIFF_LIBS)
LDLIBS_tifftags	= $(GEOTIFF_LIBS) $(TIFF_LIBS)
LDLIBS_tview	= $(PNG_LIBS)
# tp_latitude inverts projected CRSs with PROJ: tbiome and its test suite.
# tp_orographic's transforms are FFTW's (double precision).
FFTW_CFLAGS := $(call pc_cflags,fftw3,)
FFTW_LIBS   := $(call pc_libs,fftw3,-lfftw3)
LDLIBS_tbiome	= $(PROJ_LIBS) $(FFTW_LIBS)
LDLIBS_latitude	= $(PROJ_LIBS)
LDLIBS_crs	= $(PROJ_LIBS)
LDLIBS_biomerun	= $(PROJ_LIBS) $(FFTW_LIBS)
LDLIBS_orographic = $(FFTW_LIBS)
LDLIBS_tfeature	= $(JANSSON_LIBS) $(PROJ_LIBS)
# --crs is checked against PROJ
LDLIBS_tnoise	= $(PROJ_LIBS)
LDLIBS_feature	= $(JANSSON_LIBS)
LDLIBS_featindex = $(JANSSON_LIBS)
LDLIBS_feature_file = $(JANSSON_LIBS)
LDLIBS_ttexture	= $(GEOTIFF_LIBS) $(TIFF_LIBS) $(PNG_LIBS)
LDLIBS_texture	= $(PNG_LIBS)
LDLIBS_material	= $(PNG_LIBS)
LDLIBS_ground	= $(PNG_LIBS)
# texport -f exr: OpenEXR's core C library, for texport and its test only
# (tp_exr.o is the one object of the archive that calls it). Its .pc file
# names the C++ libraries too: link the core alone.
EXR_CFLAGS := $(call pc_cflags,OpenEXR,-I/usr/include/OpenEXR)
EXR_LIBS    ?= -lOpenEXRCore
CFLAGS_tp_exr	= $(EXR_CFLAGS)
CFLAGS_check_exr = $(EXR_CFLAGS)
LDLIBS_texport	= $(PNG_LIBS) $(JANSSON_LIBS) $(EXR_LIBS)
LDLIBS_exr	= $(EXR_LIBS)
LDLIBS_tiles	= $(PNG_LIBS) $(JANSSON_LIBS)
LDLIBS_export	= $(PNG_LIBS) $(JANSSON_LIBS)
LDLIBS_export_rows = $(PNG_LIBS) $(JANSSON_LIBS)
LDLIBS_engine	= $(PNG_LIBS) $(JANSSON_LIBS)
# tvector: GeoPackage through SQLite, GeoJSON through jansson, WKT from PROJ.
SQLITE_LIBS := $(call pc_libs,sqlite3,-lsqlite3)
LDLIBS_tvector	= $(SQLITE_LIBS) $(JANSSON_LIBS) $(PROJ_LIBS)
LDLIBS_vecfile	= $(SQLITE_LIBS) $(JANSSON_LIBS) $(PROJ_LIBS)
LDLIBS_geojson	= $(JANSSON_LIBS)
LDLIBS_gpkg	= $(SQLITE_LIBS) $(JANSSON_LIBS) $(PROJ_LIBS)
LDLIBS_vector	= $(SQLITE_LIBS) $(JANSSON_LIBS) $(PROJ_LIBS)
# terode --device gpu: the OpenCL ICD loader, for terode and its test
# suite only (tp_cl.o is the one object of the archive that calls OpenCL).
LDLIBS_terode	= -lOpenCL
LDLIBS_erode_batch = -lOpenCL
LDLIBS_eroderun	= -lOpenCL
LDLIBS_cl	= -lOpenCL
CFLAGS_tp_cl	= -I$(OBJ_DIR)/gen

# Per-module flags for hot loops: CFLAGS_<module> = ...
CFLAGS_tp_noise	= -O3
CFLAGS_tp_biome	= -O3
# tp_slope: no errno or trap to keep sqrt and the selects out of vector loops
# (neither changes a value: still IEEE, still no fused multiply-add).
CFLAGS_tp_slope	= -O3 -fno-math-errno -fno-trapping-math
CFLAGS_tp_export	= -O3
# tp_erode: sqrtf as one instruction, no errno branch in the droplet's step.
CFLAGS_tp_erode	= -O3 -fno-math-errno -fno-trapping-math

BIN_DIR	= $(O)/bin
OBJ_DIR	= $(O)/obj
LIBSRC	= $(sort $(wildcard lib/*/*.c lib/*/*/*.c))
LIBOBJ	= $(LIBSRC:%.c=$(OBJ_DIR)/%.o)
LIBA	= $(OBJ_DIR)/libterrapipe.a
# cli/ (messages, exit codes, options) in an archive of its own, so the
# library proper stays free of exit() and printing: programs link both.
CLISRC	= $(sort $(wildcard cli/*.c))
CLIOBJ	= $(CLISRC:%.c=$(OBJ_DIR)/%.o)
CLIA	= $(OBJ_DIR)/libcli.a
# What lib/ may not reference (make purity): leaving the process and
# writing to the terminal are the programs' decisions.
IMPURE	= exit _exit _Exit quick_exit abort __assert_fail printf vprintf puts \
	  putchar perror psignal stdout stderr err errx verr verrx warn warnx \
	  vwarn vwarnx error error_at_line
CMDS	= $(sort $(basename $(notdir $(wildcard cmd/*.c))))
BIN	= $(CMDS:%=$(BIN_DIR)/%)
CHECKS	= $(sort $(basename $(notdir $(wildcard tests/check_*.c))))
CHECKBIN = $(CHECKS:%=$(OBJ_DIR)/tests/%)
MAN1	= $(sort $(wildcard man/*.1))
MAN5	= $(sort $(wildcard man/*.5))
MAN7	= $(sort $(wildcard man/*.7))
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

.PHONY: all check test unit shell lint purity includes asan fuzz fuzz-build bench demo qgis-zip \
	deps install uninstall clean textures
all: $(BIN)

$(OBJ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CFLAGS_$(basename $(notdir $<))) $(XCFLAGS) \
	    $(INC_$(firstword $(subst /, ,$<))) -c -o $@ $<

# Rebuilt from scratch when the Makefile changes, so no object that moved
# out of an archive lingers in it.
$(LIBA): $(LIBOBJ) Makefile
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

$(CLIA): $(CLIOBJ) Makefile
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

$(BIN): $(BIN_DIR)/%: $(OBJ_DIR)/cmd/%.o $(CLIA) $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $< $(CLIA) $(LIBA) \
	    $(LDLIBS_$*) $(LDLIBS)

$(CHECKBIN): $(OBJ_DIR)/tests/%: tests/%.c $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CFLAGS_$*) $(XCFLAGS) $(CHECK_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) \
	    $(LDLIBS_$(subst check_,,$*)) $(CHECK_LIBS) $(LDLIBS)

# The erosion kernel embedded in tp_cl.o: lib/erode/tp_droplet.h (the
# droplet, shared with the CPU path) and lib/erode/tp_erode.cl as two C
# strings.
$(OBJ_DIR)/lib/erode/tp_cl.o: $(OBJ_DIR)/gen/tp_erode_cl.inc
$(OBJ_DIR)/gen/tp_erode_cl.inc: lib/erode/tp_droplet.h lib/erode/tp_erode.cl
	@mkdir -p $(@D)
	@{ echo 'static const char tp_droplet_src[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' lib/erode/tp_droplet.h; \
	  echo ';'; echo 'static const char tp_erode_cl_src[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' lib/erode/tp_erode.cl; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@

deps:
	@scripts/install-deps check

# make check: packages, build, unit tests, program tests, man pages, and a
# few seconds of every fuzz target.
check: deps
	@start=$$(date +%s); \
	$(SUBMAKE) test && $(SUBMAKE) fuzz-build && \
	$(FUZZ_ENV) FUZZ_JOBS=$(JOBS) scripts/run-fuzz --check build-fuzz $(FUZZ_CHECK_SECONDS); \
	st=$$?; $(call elapsed,make check,$$start); exit $$st

test: all $(CHECKBIN) textures
	@$(MAKE) --no-print-directory purity includes
	@scripts/run-tests -j $(JOBS) $(OBJ_DIR)/tests $(BIN_DIR)
	@$(MAKE) --no-print-directory lint

# Every undefined symbol of every object in libterrapipe.a, against IMPURE.
purity: $(LIBA)
	@bad=$$(nm -u -A $(LIBA) | awk -v list="$(IMPURE)" \
	    'BEGIN { n = split(list, a, " "); for (i = 1; i <= n; i++) x[a[i]] = 1 } \
	    { s = $$NF; sub(/@.*/, "", s); if (s in x) print $$1 " " s }'); \
	if [ -n "$$bad" ]; then echo "$$bad"; \
	    echo "purity: FAILED (lib/ must return errors, not exit or print)"; exit 1; fi; \
	echo "purity: $(notdir $(LIBA)) references none of: $(IMPURE)"

includes:
	@scripts/check-includes

# Both formatters readers use: mandoc, and groff's mdoc macros (man -l,
# and man on systems whose man-db formats with groff), all warnings on.
lint:
	@out=$$(mandoc -T lint -W warning $(MAN1) $(MAN5) $(MAN7) 2>&1); \
	for p in $(MAN1) $(MAN5) $(MAN7); do \
	    out="$$out$$(groff -man -ww -z $$p 2>&1)"; done; \
	if [ -n "$$out" ]; then echo "$$out"; echo "man lint: FAILED"; exit 1; fi; \
	echo "mandoc lint: $(words $(MAN1) $(MAN5) $(MAN7)) pages clean, groff -ww too"

asan: deps
	@start=$$(date +%s); \
	$(SUBMAKE) O=build-asan CC=clang SAN=1 OPT=-O1 test; \
	st=$$?; $(call elapsed,make asan,$$start); exit $$st

# The fuzz targets are built by scripts/run-fuzz with this file's flags:
# the same standard, defines, warnings, include paths and libraries as the
# programs (less dependency files), the sanitizers of build-fuzz/'s
# libraries, and libFuzzer's main.
FUZZ_CFLAGS = -g -O1 $(filter-out -MMD -MP,$(XCFLAGS)) $(INC_cmd) \
	      -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	      -fno-omit-frame-pointer
FUZZ_ENV = FUZZ_CC=clang FUZZ_CFLAGS="$(FUZZ_CFLAGS)" \
	   FUZZ_LIBS="$(GEOTIFF_LIBS) $(TIFF_LIBS) $(PNG_LIBS) $(JANSSON_LIBS) $(LDLIBS)"

fuzz: deps
	@$(SUBMAKE) fuzz-build
	@$(FUZZ_ENV) FUZZ_JOBS=$(JOBS) scripts/run-fuzz build-fuzz $(FUZZ_SECONDS)

fuzz-build:
	@$(MAKE) --no-print-directory O=build-fuzz CC=clang SAN=1 FUZZ=1 OPT=-O1 \
	    build-fuzz/obj/libterrapipe.a build-fuzz/obj/libcli.a

bench: all
	@scripts/install-deps bench || echo "bench: running without the GIS tools"
	@scripts/bench.sh $(BIN_DIR)

demo: deps all textures
	@scripts/demo.sh $(BIN_DIR)

# The ground textures, made at build time by the toolchain (no network):
# snow.png is written last, so it stands for the four.
TEX_DIR	= $(O)/share/textures
textures: $(TEX_DIR)/snow.png
$(TEX_DIR)/snow.png: scripts/make-textures.sh $(BIN_DIR)/tnoise
	@scripts/make-textures.sh $(BIN_DIR) $(TEX_DIR)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	    $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5
	install -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7
	install -d $(DESTDIR)$(QGIS_PLUGINS)/terrapipe/models
	install -m 644 $(QGIS_PY) $(DESTDIR)$(QGIS_PLUGINS)/terrapipe
	install -m 644 $(QGIS_MODELS) $(DESTDIR)$(QGIS_PLUGINS)/terrapipe/models

# The provider as the plugin manager installs it: one folder, terrapipe/.
qgis-zip: $(O)/terrapipe-qgis.zip
$(O)/terrapipe-qgis.zip: $(QGIS_PY) $(QGIS_MODELS)
	@/usr/bin/python3 -c 'import sys, zipfile; \
	z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED); \
	[z.write(f, f[len("qgis/"):]) for f in sys.argv[2:]]; z.close()' \
	    $@ $(QGIS_PY) $(QGIS_MODELS)
	@echo "qgis-zip: $@"

uninstall:
	rm -f $(CMDS:%=$(DESTDIR)$(PREFIX)/bin/%)
	rm -f $(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) $(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%) \
	    $(MAN7:man/%=$(DESTDIR)$(MANDIR)/man7/%)
	rm -rf $(DESTDIR)$(QGIS_PLUGINS)/terrapipe

clean:
	rm -rf bin obj build-asan build-fuzz share/textures terrapipe-qgis.zip

-include $(shell find $(OBJ_DIR) -name '*.d' 2>/dev/null)
