# series: one static binary.  `make` builds ./series with musl-gcc when it
# is installed, else with the system cc; either way linked statically.
#   make demo     the main job on a small tree it makes (test/demo)
#   make test     the suite against ./series, on every core (last line:
#                 N passed, N failed); the fault sweeps sampled
#   make faults   the fault sweeps whole: every git step in every mode
#   make check    the suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make cross-test  unit tests and a test per command on aarch64 and i686
#   make size     the stripped size of ./series
#   make install  PREFIX=/usr/local DESTDIR=
#   make CROSS=aarch64-linux-gnu-   a cross build (static)

VERSION  = 0.1
PREFIX  ?= /usr/local
BINDIR   = $(PREFIX)/bin
WARN     = -std=c11 -Wall -Wextra -Wpedantic
MUSL    := $(shell command -v musl-gcc 2>/dev/null)

ifneq ($(CROSS),)
  CC     = $(CROSS)gcc
  LIBC   = glibc
else ifeq ($(origin CC),default)
  ifneq ($(MUSL),)
    CC   = musl-gcc
    LIBC = musl
  else
    CC   = cc
    LIBC = glibc
  endif
else
  LIBC  ?= libc
endif

# -Oz (GCC 12, clang) where the compiler has it: 4 KB under -Os, and no
# slower at what test/bench times.
OZ      := $(shell $(CC) -Oz -E -x c /dev/null >/dev/null 2>&1 && echo -Oz || echo -Os)
CFLAGS  ?= $(OZ)
LDFLAGS ?=
DEFS     = -DSERIES_VERSION='"$(VERSION)"' -DSERIES_LIBC='"$(LIBC)"' -DSERIES_STATIC
HOSTCC  ?= cc
NPROC   := $(shell nproc 2>/dev/null || echo 2)
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# Each function in its own section, so the static link drops what nothing
# calls (libc's and ours): 8 KB of the binary.
# The text is not padded out to pages of its own (-z noseparate-code): 4 KB.
GC       = -ffunction-sections -fdata-sections -Wl,--gc-sections \
	   -Wl,-z,noseparate-code
# No unwind tables: C throws nothing, and the binary ships stripped, so
# .eh_frame only took room (16 KB).
NOUNWIND = -fno-asynchronous-unwind-tables -fno-unwind-tables
# Not position-independent: a static binary loads at one address, and
# position-independent code reaches its data the long way (5 KB).
NOPIE    = -fno-pie -no-pie

all: series

series: series.c series.h
	$(CC) $(WARN) $(CFLAGS) $(GC) $(NOUNWIND) $(NOPIE) $(DEFS) -static $(LDFLAGS) -o $@ series.c
	$(CROSS)strip $@ 2>/dev/null || strip $@

# The unit tests and the fuzz harnesses link series.c without its main(),
# compiled once for all of them.
test/series-lib.o: series.c series.h
	$(HOSTCC) $(WARN) -O1 -g -DSERIES_NO_MAIN -c -o $@ series.c
test/unit: test/unit*.c test/unit.h test/series-lib.o
	$(HOSTCC) $(WARN) -O1 -g -DSERIES_NO_MAIN -I. -o $@ test/unit*.c test/series-lib.o

test/elfcheck: test/elfcheck.c
	$(HOSTCC) $(WARN) -O1 -o $@ test/elfcheck.c

# For valgrind's memcheck: dynamic, so it can follow the heap.
series-vg: series.c series.h
	$(HOSTCC) $(WARN) -O1 -g -DSERIES_VERSION='"$(VERSION)"' -o $@ series.c

# What the suite runs, built on every core first.
SUITE    = series test/unit test/elfcheck test/corpus-run series-vg
test:
	$(MAKE) -s -j$(NPROC) $(SUITE)
	bash test/run

faults:
	$(MAKE) -s -j$(NPROC) series
	FAULTS=all ONLY=faults bash test/run

demo: series
	bash test/demo

# The sanitizers need the dynamic glibc runtime, so these builds are not static.
series-san: series.c series.h
	$(HOSTCC) $(WARN) -O1 -g $(SAN) -DSERIES_VERSION='"$(VERSION)"' -o $@ series.c
test/series-lib-san.o: series.c series.h
	$(HOSTCC) $(WARN) -O1 -g $(SAN) -DSERIES_NO_MAIN -c -o $@ series.c
test/unit-san: test/unit*.c test/unit.h test/series-lib-san.o
	$(HOSTCC) $(WARN) -O1 -g $(SAN) -DSERIES_NO_MAIN -I. -o $@ test/unit*.c test/series-lib-san.o

test/corpus-san: test/fuzz-main.c test/fuzz-*.c test/series-lib-san.o
	for f in $(FUZZERS); do \
	  $(HOSTCC) $(WARN) -O1 -g $(SAN) -I. -o test/corpus-$$f test/fuzz-main.c test/fuzz-$$f.c test/series-lib-san.o || exit 1; \
	done
	rm -f test/corpus-run
	touch $@

check:
	$(MAKE) -s -j$(NPROC) series-san test/unit-san test/elfcheck test/corpus-san
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	SERIES=$(CURDIR)/series-san UNIT=$(CURDIR)/test/unit-san SERIES_DYNAMIC_OK=1 bash test/run

size: series
	@echo "series: $$(stat -c %s series) bytes stripped ($(CC), $(LIBC), static)"

install: series
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 series $(DESTDIR)$(BINDIR)/series

clean:
	rm -rf cross-*
	rm -f series series-san series-vg test/unit test/unit-san test/elfcheck test/corpus-* test/fuzz-status \
	  test/series-lib.o test/series-lib-san.o \
	  test/fuzz-patch test/fuzz-maintainers test/fuzz-regex

.PHONY: all test faults demo check size install clean

# Fuzzing (clang with libFuzzer): each harness for FUZZ_SECONDS, seeded from
# test/corpus/NAME; what it finds goes to test/fuzz-out/NAME/.
FUZZ_SECONDS ?= 60
FUZZERS  = status patch maintainers regex diff mbox
FUZZFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DSERIES_NO_MAIN -I.
test/fuzz-%: test/fuzz-%.c series.c series.h
	clang $(FUZZFLAGS) -o $@ $< series.c
fuzz: $(FUZZERS:%=test/fuzz-%)
	for f in $(FUZZERS); do \
	  mkdir -p test/fuzz-out/$$f/work; \
	  test/fuzz-$$f -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=2 -print_final_stats=1 \
	    -artifact_prefix=test/fuzz-out/$$f/ test/fuzz-out/$$f/work test/corpus/$$f || exit 1; \
	done

# The harnesses without libFuzzer: every file of the seed corpus (and every
# crasher kept there) once, as part of the suite.
test/corpus-run: test/fuzz-main.c test/fuzz-*.c test/series-lib.o
	for f in $(FUZZERS); do \
	  $(HOSTCC) $(WARN) -O1 -g -I. -o test/corpus-$$f test/fuzz-main.c test/fuzz-$$f.c test/series-lib.o || exit 1; \
	done
	touch $@
# The unit tests and a test per command against static cross builds under
# qemu-user (test/cross).
cross-test:
	$(MAKE) -s -j$(NPROC) test/elfcheck
	bash test/cross $(CROSS_TARGETS)

.PHONY: fuzz cross-test
