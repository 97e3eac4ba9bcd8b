# SPDX-License-Identifier: MIT
# pdtools: one non-recursive GNU Makefile.
#
#   make                 build every tool into bin/
#   make check           build and run every test (SANITIZE=1: with ASan+UBSan)
#   make check-stress    N runs of the tests (TESTS=) beside two busy CPU loops
#   make bench           time the tools against cat and perf (see BENCHMARKS.md);
#                        VS=DIR: each tool also against its build in DIR
#   make demo            a real pipeline, end to end
#   make deps            install the Debian packages build and tests need
#   make install         PREFIX=/usr/local DESTDIR= (binaries and man pages)
#   make V=1             show full commands
#   make LTO=            without link-time optimization (see LTO below)

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DESTDIR ?=
CC      ?= cc
CFLAGS  ?= -O2 -g
INSTALL ?= install
PKG_CONFIG ?= pkg-config

VERSION := 0.1.0

# The project's flags stay apart from CFLAGS, so a user's CFLAGS never
# drop the warnings.
PD_CFLAGS := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter -D_GNU_SOURCE \
	-DPD_VERSION='"$(VERSION)"' -I.
PD_LDFLAGS := -Wl,--as-needed

PKGS := libzstd libelf libdw libtraceevent
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# libiberty (no .pc file): perf's C++ demangler, for the same names.
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -liberty
# zlib: pdstat --pprof's gzip (libelf and libdw depend on it already).
ZLIB_CFLAGS := $(shell $(PKG_CONFIG) --cflags zlib 2>/dev/null)
ZLIB_LIBS := $(shell $(PKG_CONFIG) --libs zlib 2>/dev/null || echo -lz)
PKG_CFLAGS += $(ZLIB_CFLAGS)

# Link-time optimization of the tools: a record's way through pdsort or
# pdcat crosses reader.c, join.c, ordered.c and writer.c, and inlining
# across them takes about a twentieth off a merge's time. LTO= turns it
# off (a compiler that lacks the flags goes without, and so does the
# SANITIZE=1 build, which checks behaviour, not speed).
ifeq ($(origin LTO)$(SANITIZE),undefined)
LTO := $(shell $(CC) -flto=auto -ffat-lto-objects -x c -c -o /dev/null \
	/dev/null 2>/dev/null && echo -flto=auto -ffat-lto-objects)
endif
# Fat objects: the test programs link their plain code (GCC would
# optimize every link of them again), as quick to build as before.
NO_LTO := $(if $(LTO),-fno-lto)

# GCC's generic x86-64 tuning clears a struct of a few hundred bytes (a
# parsed sample is 360) with rep stosq, whose start-up every record
# paid: vector stores up to 512 bytes and glibc's memset above took a
# tenth off pddump --folded and pdstat --top. Only a compiler that takes
# the flag (GCC on x86) gets it.
comma := ,
MEMSET_FLAG := -mmemset-strategy=vector_loop:512:noalign$(comma)libcall:-1:noalign
MEMSET_TUNE := $(shell $(CC) $(MEMSET_FLAG) -x c -c -o /dev/null /dev/null \
	2>/dev/null && echo '$(MEMSET_FLAG)')
PD_CFLAGS += $(MEMSET_TUNE)
PD_LDFLAGS += $(MEMSET_TUNE)

# SANITIZE=1 builds into its own tree, so the two builds never mix.
ifeq ($(SANITIZE),1)
B := build/san
PD_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
PD_LDFLAGS += -fsanitize=address,undefined
OUT := $(B)/bin
else
B := build
OUT := bin
endif

ifneq ($(V),1)
Q = @
qcc = @printf '  CC      %s\n' $@;
qld = @printf '  LD      %s\n' $@;
qar = @printf '  AR      %s\n' $@;
endif

# libcommon is four libraries, one archive each (see README, Layout):
# stream knows the format; sym names addresses; rec builds what pdrecord
# synthesizes; cli is the tool support that prints and exits. A tool links
# the ones it names in pdX_LIBS, in that order (a user before what it uses).
LIBS := cli rec sym stream
$(foreach l,$(LIBS),$(eval LIB_$(l) := $(B)/libcommon/$(l).a))
LIB_ALL := $(foreach l,$(LIBS),$(LIB_$(l)))
pdcat_LIBS    := cli stream
pddump_LIBS   := cli sym stream
pdrecord_LIBS := cli rec stream
pdsort_LIBS   := cli stream
pdstat_LIBS   := cli sym stream
pdstat_EXTRA  := $(ZLIB_LIBS) -pthread
pdswap_LIBS   := cli stream

# A tool is a folder pdX holding pdX.c; every .c in it is part of the tool.
TOOLS := $(sort $(patsubst %/,%,$(dir $(wildcard pd*/pd*.c))))
TOOLS := $(foreach t,$(TOOLS),$(if $(wildcard $(t)/$(t).c),$(t)))
BINS := $(TOOLS:%=$(OUT)/%)

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
# tests/gen/fixture.c is the fixture builder the generators link, not one.
FIXTURE_OBJ := $(B)/tests/gen/fixture.o
HELPER_SRC := $(sort $(filter-out tests/gen/fixture.c, \
	$(wildcard tests/gen/*.c tests/bench/*.c)))
HELPER_BIN := $(patsubst tests/%.c,$(B)/tests/%,$(HELPER_SRC))

FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
REPLAY_BIN := $(FUZZ_NAMES:%=$(B)/tests/fuzz/replay_%)

MANS := $(sort $(wildcard man/*.[1-8]))

all: $(BINS)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(qcc)$(CC) $(PD_CFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(LTO) $(CPPFLAGS) \
		-MMD -MP -c -o $@ $<

define lib_rule
$(LIB_$(1)): $(patsubst %.c,$(B)/%.o,$(sort $(wildcard libcommon/$(1)/*.c)))
	$$(qar)rm -f $$@ && $$(AR) rcs $$@ $$^
endef
$(foreach l,$(LIBS),$(eval $(call lib_rule,$(l))))

define tool_rule
$(OUT)/$(1): $(patsubst %.c,$(B)/%.o,$(wildcard $(1)/*.c)) \
		$(foreach l,$($(1)_LIBS),$(LIB_$(l)))
	@mkdir -p $$(@D)
	$$(qld)$$(CC) $$(PD_LDFLAGS) $$(CFLAGS) $$(LTO) $$(LDFLAGS) -o $$@ $$^ \
		$$(PKG_LIBS) \
		$$($(1)_EXTRA) -lm
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

$(B)/tests/%: $(B)/tests/%.o $(LIB_ALL)
	@mkdir -p $(@D)
	$(qld)$(CC) $(PD_LDFLAGS) $(CFLAGS) $(NO_LTO) $(LDFLAGS) -o $@ $^ \
		$(PKG_LIBS) -lm

# A static pattern: the generic rule above would match these too, and
# make takes it when fixture.o does not exist yet.
GEN_BIN := $(filter $(B)/tests/gen/%,$(HELPER_BIN))
$(GEN_BIN): $(B)/tests/gen/%: $(B)/tests/gen/%.o $(FIXTURE_OBJ) $(LIB_ALL)
	@mkdir -p $(@D)
	$(qld)$(CC) $(PD_LDFLAGS) $(CFLAGS) $(NO_LTO) $(LDFLAGS) -o $@ $^ \
		$(PKG_LIBS) -lm

$(B)/tests/test_%.o: tests/unit/test_%.c
	@mkdir -p $(@D)
	$(qcc)$(CC) $(PD_CFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# A fuzz target linked to a plain driver: make check replays inputs.
$(B)/tests/fuzz/replay_%: $(B)/tests/fuzz/fuzz_%.o $(B)/tests/fuzz/replay.o $(LIB_ALL)
	@mkdir -p $(@D)
	$(qld)$(CC) $(PD_LDFLAGS) $(CFLAGS) $(NO_LTO) $(LDFLAGS) -o $@ $^ \
		$(PKG_LIBS) -lm

.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# Tests: one runner for unit, cli and interop cases; its last line is
# "N passed, N failed, N skipped".
# The sub-make sees the packages deps-check may just have installed.
check: deps-check
	$(Q)$(MAKE) --no-print-directory check-run

check-run: $(BINS) $(UNIT_BIN) $(HELPER_BIN) $(REPLAY_BIN)
	$(Q)PD_BIN=$(CURDIR)/$(OUT) PD_TBIN=$(CURDIR)/$(B)/tests \
		PD_SANITIZE=$(SANITIZE) sh tests/run.sh $(TESTS)

# The same cases N times in a row beside two busy CPU loops: no case may
# be flaky (tests/stress.sh). make check-stress N=20 TESTS=flame/memory
N ?= 20
check-stress: $(BINS) $(UNIT_BIN) $(HELPER_BIN) $(REPLAY_BIN)
	$(Q)PD_BIN=$(CURDIR)/$(OUT) PD_TBIN=$(CURDIR)/$(B)/tests \
		PD_SANITIZE=$(SANITIZE) sh tests/stress.sh $(N) $(TESTS)

bench: $(BINS) $(HELPER_BIN)
	$(Q)PD_BIN=$(CURDIR)/$(OUT) PD_TBIN=$(CURDIR)/$(B)/tests \
		BENCH_VS=$(VS) sh tests/bench/bench.sh

demo: deps-check
	$(Q)$(MAKE) --no-print-directory demo-run

demo-run: $(BINS)
	$(Q)PD_BIN=$(CURDIR)/$(OUT) sh tests/demo.sh

# libFuzzer targets (clang): `make fuzz` builds build/fuzz/fuzz_<name>;
# `make fuzz-run SECONDS=N` runs each for N seconds from its seed corpus
# (tests/fuzz/seed, seed-<name>, small real streams), keeping inputs in
# build/fuzz/corpus_<name> and crashes in build/fuzz/crash-*.
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined
SECONDS ?= 60
fuzz:
	$(Q)$(MAKE) --no-print-directory B=build/fuzz CC=$(FUZZ_CC) \
		CFLAGS="$(FUZZ_FLAGS)" LTO= fuzz-bins

fuzz-bins: $(FUZZ_NAMES:%=$(B)/fuzz_%)

$(B)/fuzz_%: $(B)/tests/fuzz/fuzz_%.o $(LIB_ALL)
	$(qld)$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS) -lm

fuzz-run: fuzz
	$(Q)SECONDS=$(SECONDS) sh tests/fuzz/run.sh $(FUZZ_NAMES)

# Debian packages for build and tests. As root they are installed;
# otherwise the exact command is printed. Installed without recommends,
# so libc6-dev and clang's libFuzzer runtime are named.
DEB_PKGS := gcc libc6-dev make libelf-dev libdw-dev libzstd-dev zlib1g-dev pkg-config \
	linux-perf mandoc man-db time zstd python3 clang libclang-rt-dev valgrind \
	chromium lld libiberty-dev xz-utils jq procps libtraceevent-dev \
	libdebuginfod-dev debuginfod openssh-server golang-go libdeflate0 \
	strace
deps:
	$(Q)sh tests/deps.sh install $(DEB_PKGS)
	$(Q)$(MAKE) --no-print-directory deps-npm

# The Firefox Profiler's command-line package, which loads what
# pdstat --gecko writes (tests/cli/export/gecko.sh): from npm into a
# cache outside the tree. Where npm or the network is missing (CI has
# Debian's archive only) this says so and the test skips that part.
PROFILER_CLI_DIR ?= $(HOME)/.cache/pdtools/profiler-cli
PROFILER_CLI_PKG := @firefox-devtools/profiler-cli@0.10.0
deps-npm:
	$(Q)if ! command -v npm >/dev/null 2>&1; then \
		echo "deps-npm: no npm: the Firefox Profiler check will skip"; \
	elif timeout 90 npm install --no-audit --no-fund --fetch-retries=1 \
	    --fetch-timeout=20000 \
	    --prefix $(PROFILER_CLI_DIR) $(PROFILER_CLI_PKG) >/dev/null 2>&1; then \
		echo "deps-npm: $(PROFILER_CLI_PKG) in $(PROFILER_CLI_DIR)"; \
	else \
		echo "deps-npm: npm could not install $(PROFILER_CLI_PKG): the Firefox Profiler check will skip"; \
	fi

# Installs only what is missing (as root), so `make check` and `make demo`
# work on a fresh machine; a non-root user gets the apt-get line.
deps-check:
	$(Q)sh tests/deps.sh missing $(DEB_PKGS)

install: $(BINS)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	$(INSTALL) -m 0755 $(BINS) $(DESTDIR)$(BINDIR)
	for m in $(MANS); do \
		s=$${m##*.}; \
		$(INSTALL) -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; \
	done

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(BINDIR)/%)
	for m in $(MANS); do \
		rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m#man/}; \
	done

clean:
	rm -rf build bin

.PHONY: all check check-run check-stress bench demo demo-run fuzz fuzz-bins fuzz-run deps deps-check deps-npm install uninstall clean
