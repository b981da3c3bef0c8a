# terrapipe - GNU make. Settings first; everything is derived from the file
# lists so build, install and uninstall never drift apart.
#
#   make            build bin/ (programs) and obj/ (objects, libterrapipe.a)
#   make check      install missing Debian packages, build, run every test
#   make asan       the whole test suite under AddressSanitizer and UBSan
#   make fuzz       libFuzzer targets, FUZZ_SECONDS each
#   make bench      benchmarks (scripts/bench.sh), figures and ratios
#   make demo       the longest pipeline there is, leaving demo.tif here
#   make install    PREFIX=/usr/local DESTDIR=

PREFIX	?= /usr/local
MANDIR	?= $(PREFIX)/share/man
O	?= .
CC	?= cc
OPT	?= -O2
CFLAGS	?= $(OPT) -g
WARN	= -Wall -Wextra -Wshadow -Wno-unused-parameter
# -ffp-contract=off: no fused multiply-add, so the same bytes on every CPU.
XCFLAGS	= -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread \
	  -ffp-contract=off $(WARN) -Ilib -Icli -I/usr/include/geotiff -MMD -MP
LDLIBS	= -lm -pthread
FUZZ_SECONDS ?= 30

ifeq ($(FUZZ),1)
XCFLAGS	+= -fsanitize=fuzzer-no-link
endif
ifeq ($(SAN),1)
XCFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=address,undefined
endif

# Libraries only some programs link.
LDLIBS_timport	= -lgeotiff -ltiff -lpng
LDLIBS_tgeotiff	= -lgeotiff -ltiff
LDLIBS_geotiff	= -lgeotiff -ltiff -lpng
LDLIBS_tview	= -lpng

# Per-module flags for hot loops: CFLAGS_<module> = ...
CFLAGS_tp_noise	= -O3

BIN_DIR	= $(O)/bin
OBJ_DIR	= $(O)/obj
LIBSRC	= $(sort $(wildcard lib/*.c) $(wildcard cli/*.c))
LIBOBJ	= $(LIBSRC:%.c=$(OBJ_DIR)/%.o)
LIBA	= $(OBJ_DIR)/libterrapipe.a
CMDS	= $(sort $(basename $(notdir $(wildcard cmd/*.c))))
BIN	= $(CMDS:%=$(BIN_DIR)/%)
CHECKS	= $(sort $(basename $(notdir $(wildcard tests/check_*.c))))
CHECKBIN = $(CHECKS:%=$(OBJ_DIR)/tests/%)
MAN1	= $(sort $(wildcard man/*.1))
MAN5	= $(sort $(wildcard man/*.5))
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)

.PHONY: all check test unit shell lint asan fuzz bench demo deps install \
	uninstall clean
all: $(BIN)

$(OBJ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CFLAGS_$(basename $(notdir $<))) $(XCFLAGS) -c -o $@ $<

$(LIBA): $(LIBOBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BIN_DIR)/%: $(OBJ_DIR)/cmd/%.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS_$*) $(LDLIBS)

$(CHECKBIN): $(OBJ_DIR)/tests/%: tests/%.c $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XCFLAGS) $(CHECK_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) \
	    $(LDLIBS_$(subst check_,,$*)) $(CHECK_LIBS) $(LDLIBS)

deps:
	@scripts/install-deps check

# make check: packages, build, unit tests, program tests, man pages.
check: deps
	@$(MAKE) --no-print-directory test

test: all $(CHECKBIN)
	@scripts/run-tests $(OBJ_DIR)/tests $(BIN_DIR)
	@$(MAKE) --no-print-directory lint

lint:
	@out=$$(mandoc -T lint -W warning $(MAN1) $(MAN5) 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; echo "mandoc lint: FAILED"; exit 1; fi; \
	echo "mandoc lint: $(words $(MAN1) $(MAN5)) pages clean"

asan: deps
	@$(MAKE) --no-print-directory O=build-asan CC=clang SAN=1 OPT=-O1 test

fuzz: deps
	@$(MAKE) --no-print-directory O=build-fuzz CC=clang SAN=1 FUZZ=1 OPT=-O1 \
	    build-fuzz/obj/libterrapipe.a
	@scripts/run-fuzz build-fuzz $(FUZZ_SECONDS)

bench: all
	@scripts/install-deps bench || echo "bench: running without the GIS tools"
	@scripts/bench.sh $(BIN_DIR)

demo: deps all
	@scripts/demo.sh $(BIN_DIR)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5

uninstall:
	rm -f $(CMDS:%=$(DESTDIR)$(PREFIX)/bin/%)
	rm -f $(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) $(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%)

clean:
	rm -rf bin obj build-asan build-fuzz

-include $(shell find $(OBJ_DIR) -name '*.d' 2>/dev/null)
