# series: one static binary.  `make` builds ./series with musl-gcc when it
# is installed, else with the system cc; either way linked statically.
#   make test     the suite against ./series (last line: N passed, N failed)
#   make check    the suite under AddressSanitizer + UndefinedBehaviorSanitizer
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

CFLAGS  ?= -Os
LDFLAGS ?=
DEFS     = -DSERIES_VERSION='"$(VERSION)"' -DSERIES_LIBC='"$(LIBC)"' -DSERIES_STATIC
HOSTCC  ?= cc
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

all: series

series: series.c series.h
	$(CC) $(WARN) $(CFLAGS) $(DEFS) -static $(LDFLAGS) -o $@ series.c
	$(CROSS)strip $@ 2>/dev/null || strip $@

# Unit tests link series.c without its main().
test/unit: test/unit*.c test/unit.h series.c series.h
	$(HOSTCC) $(WARN) -O1 -g -DSERIES_NO_MAIN -I. -o $@ test/unit*.c series.c

test: series test/unit
	bash test/run

# The sanitizers need the dynamic glibc runtime, so these builds are not static.
series-san: series.c series.h
	$(HOSTCC) $(WARN) -O1 -g $(SAN) -DSERIES_VERSION='"$(VERSION)"' -o $@ series.c
test/unit-san: test/unit*.c test/unit.h series.c series.h
	$(HOSTCC) $(WARN) -O1 -g $(SAN) -DSERIES_NO_MAIN -I. -o $@ test/unit*.c series.c

check: series-san test/unit-san
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	SERIES=$(CURDIR)/series-san UNIT=$(CURDIR)/test/unit-san bash test/run

size: series
	@echo "series: $$(stat -c %s series) bytes stripped ($(CC), $(LIBC), static)"

install: series
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 series $(DESTDIR)$(BINDIR)/series

clean:
	rm -f series series-san test/unit test/unit-san

.PHONY: all test check size install clean
