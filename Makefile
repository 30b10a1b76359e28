# SPDX-License-Identifier: MIT
# One non-recursive Makefile.  The target ISA comes from the compiler
# (`$(CC) -dumpmachine`), never from the build host, so
#   make CROSS_COMPILE=aarch64-linux-gnu-
# builds build/aarch64/ on any machine.  `make check` runs everything;
# `make check-<isa>` runs one ISA's kernel tests (under qemu-user if foreign).

CROSS_COMPILE ?=
CC := $(CROSS_COMPILE)gcc
# GNU says powerpc64le, the kernel (uname -m), qemu and Debian's users say
# ppc64le: the directory names follow the latter.
ARCH := $(subst powerpc64le,ppc64le,$(shell $(CC) -dumpmachine 2>/dev/null | cut -d- -f1))
# make check installs the compiler first (tools/deps.sh), so only the
# other goals need one to start.
ifeq ($(ARCH),)
ifneq ($(filter-out check clean,$(or $(MAKECMDGOALS),all)),)
$(error cannot run '$(CC) -dumpmachine': is the (cross) compiler installed?)
endif
endif
BUILD := build/$(ARCH)

# The ISAs whose kernels we ship, and the compiler prefix for each.
ISAS := x86_64 aarch64 riscv64 ppc64le
CROSS_x86_64 := x86_64-linux-gnu-
CROSS_aarch64 := aarch64-linux-gnu-
CROSS_riscv64 := riscv64-linux-gnu-
CROSS_ppc64le := powerpc64le-linux-gnu-

# Only to pick the runner of test binaries (native or qemu-user) and, for a
# foreign ISA, where its libraries come from: code generation never depends
# on it.
HOST_ARCH := $(shell uname -m)
FOREIGN := $(if $(filter $(ARCH),$(HOST_ARCH)),,1)
EMU = $(if $(FOREIGN),qemu-$(ARCH))

# A foreign ISA links static cmocka, hwloc, libnuma, jansson and libpfm4
# built from Debian's sources by tools/cross-deps.sh (bookworm has no riscv64
# packages to install); static binaries run under qemu-user with no sysroot.
# They are kept outside the checkout too (~/.cache/mess/deps), so a fresh
# clone copies them instead of building them for 8 minutes.
ifneq ($(FOREIGN),)
DEPS := build/deps/$(ARCH)
CPPFLAGS += -I$(DEPS)/include
LDFLAGS += -static -L$(DEPS)/lib
endif

# CPUs each ISA's kernel tests run on under qemu-user ('default' is qemu's
# own): with and without the optional vector extensions, so both the
# run-time selection and the vector kernels are exercised.  RVV at two
# vector lengths proves the declared traffic does not depend on VLEN.
QEMU_CPUS_x86_64 := default
QEMU_CPUS_aarch64 := default
QEMU_CPUS_riscv64 := default rv64,v=true,vlen=128 rv64,v=true,vlen=512
QEMU_CPUS_ppc64le := default power8 power10

VERSION := 0.1.0
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)

OPTFLAGS ?= -O2 -g
WARNFLAGS := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wformat-truncation \
	-Werror=implicit-function-declaration
CPPFLAGS += -Iharness -Iinclude -Ikernels/include -Ikernels/c -D_GNU_SOURCE
# The ISA's port (kernels/asm/<isa>/port.h, kernels/README.md): a missing
# one stops the build, never falls back to another ISA's.
ifneq ($(ARCH),)
ifeq ($(wildcard kernels/asm/$(ARCH)/port.h),)
$(error no port for $(ARCH): add kernels/asm/$(ARCH)/ (docs/adding-an-isa.md))
endif
endif
CPPFLAGS += -Ikernels/asm/$(ARCH)
CFLAGS_ALL = -std=gnu11 $(OPTFLAGS) $(WARNFLAGS) -pthread -MMD -MP $(CFLAGS)
ASFLAGS_ALL = -g -MMD -MP $(ASFLAGS)
BUILD_INFO = -DMESS_VERSION='"$(VERSION)"' -DMESS_GIT_REV='"$(GIT_REV)"' \
	-DMESS_CFLAGS='"$(strip $(OPTFLAGS) $(CFLAGS))"'
LDLIBS_LIB := -ljansson -lm
LDLIBS_HARNESS := -lhwloc -lnuma -lpfm -lpthread $(LDLIBS_LIB)
LDLIBS_TEST := -lcmocka -lm

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-6s %s\n'
endif

# Kernels: hand-written asm per ISA, plus the C kernels of the absorption
# tables (kernels/c/, with per-ISA inline-asm noise sites).
KERNEL_SRCS := $(wildcard kernels/asm/$(ARCH)/*.S)
KERNEL_C_SRCS := $(wildcard kernels/c/*.c)
KERNEL_OBJS := $(KERNEL_SRCS:%.S=$(BUILD)/%.o) $(KERNEL_C_SRCS:%.c=$(BUILD)/%.o)
# The GPU's kernels: PTX text the driver compiles at run time
# (harness/curves/gpu/), embedded as strings by one GNU as file on every
# ISA; as does not tell make what it .incbins.
PTX_SRCS := $(wildcard kernels/ptx/*.ptx)
PTX_OBJ := $(BUILD)/kernels/ptx/embed.o
KERNEL_OBJS += $(PTX_OBJ)
# Layers (tools/layering.sh checks them): main.c and its command table ->
# one folder per command (harness/<command>/) -> shared services
# (harness/core/) -> the maths and file formats (lib/, headers in
# include/mess/), which link neither hwloc nor pthread so that a simulator
# can link them alone.
LIB_SRCS := $(wildcard lib/*/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o)
LIB := $(BUILD)/libmess.a
SONAME := libmess.so.0
SHLIB := $(BUILD)/$(SONAME)
PUBLIC_HEADERS := $(wildcard include/mess/*.h)
HARNESS_SRCS := $(wildcard harness/core/*.c harness/core/*/*.c) $(filter-out harness/core/%,$(wildcard harness/*/*.c harness/*/*/*.c))
HARNESS_OBJS := $(HARNESS_SRCS:%.c=$(BUILD)/%.o)
HARNESS_LIB := $(BUILD)/libmess-harness.a
MAIN_OBJ := $(BUILD)/harness/main.o
MESS := $(BUILD)/mess
BENCH_OBJ := $(BUILD)/tests/bench/compare.o
BENCH := $(BUILD)/bench/compare
BENCH_MODEL_OBJ := $(BUILD)/tests/bench/model.o
BENCH_MODEL := $(BUILD)/bench/model
BENCH_PMU_OBJ := $(BUILD)/tests/bench/pmu_read.o
BENCH_PMU := $(BUILD)/bench/pmu_read
BENCH_SWEEP_OBJ := $(BUILD)/tests/bench/sweep_score.o
BENCH_SWEEP := $(BUILD)/bench/sweep-score

# What mess reads at run time, staged as `make install` lays it out under
# $(PREFIX)/share/mess, so that the binary finds it beside itself
# (mess_data_file), never in the source tree.
DATA := $(BUILD)/share/mess
PLOT_SCRIPTS := $(wildcard plots/*.gp)
DATA_FILES := $(PLOT_SCRIPTS:%=$(DATA)/%) $(DATA)/noise-loops.tsv
# The loop census for mess absorb's k1_rel, taken from the kernel objects
# here rather than from the binary at run time (which needed the source
# tree and objdump on the measured machine).  Every kernels/c object: one
# without noise sites adds no row.
CENSUS_OBJS := $(KERNEL_C_SRCS:%.c=$(BUILD)/%.o)
PREFIX ?= /usr/local

# Unit tests of the maths link the harness library; the kernel tests link
# only the kernels and cmocka, and run on every ISA (under qemu if foreign).
# They sit in tests/unit/<service>/ (tests/unit/README.md); each binary is
# named after its source alone (build/<arch>/tests/test_x).
UNIT_SRCS := $(wildcard tests/unit/*/test_*.c)
KERNEL_TEST_SRCS := $(wildcard tests/unit/kernels/test_*.c)
test_bin = $(addprefix $(BUILD)/tests/,$(basename $(notdir $(1))))
UNIT_TESTS := $(call test_bin,$(filter-out $(KERNEL_TEST_SRCS),$(UNIT_SRCS)))
KERNEL_TESTS := $(call test_bin,$(KERNEL_TEST_SRCS))
TEST_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)

# Every object the rules below build: their .d files name the headers.
OBJS := $(MAIN_OBJ) $(HARNESS_OBJS) $(LIB_OBJS) $(KERNEL_OBJS) $(TEST_OBJS) \
	$(BENCH_OBJ) $(BENCH_MODEL_OBJ) $(BENCH_PMU_OBJ) $(BENCH_SWEEP_OBJ) \
	$(BUILD)/tests/curves/synthetic.o

# Public curves for the metric tests; read in place, never copied.
MESS_REFERENCE ?= $(abspath ../shared/reference/mess-results)
export MESS_REFERENCE

.PHONY: all install uninstall print-mess bench check check-suites check-par check-serial check-ptx check-gpu check-example check-faults check-layering check-circles check-unit check-cli check-replay check-golden check-smoke check-report check-absorb check-kernels check-e2e check-numa clean \
	fuzz check-fuzz check-sanitize check-slurm check-deps-cache \
	$(addprefix check-,$(ISAS))
.DEFAULT_GOAL := all
# Keep test objects: they are intermediate files of pattern rules.
.SECONDARY:

# The man pages and shell completion, generated from the binary's own
# command and option tables (tools/gen-docs.sh); native builds only: the
# binary runs to print them.
DOCS := $(BUILD)/share/man/man1/mess.1
all: $(MESS) $(DATA_FILES) $(if $(FOREIGN),,$(SHLIB) $(DOCS))

# The pages name the documents where install puts them (DOCDIR).
DOCDIR = $(PREFIX)/share/doc/mess
$(DOCS): $(MESS) tools/gen-docs.sh
	$(quiet) GEN $(BUILD)/share/man
	$(Q)sh tools/gen-docs.sh ./$(MESS) $(BUILD)/share $(DOCDIR)

$(DATA)/plots/%.gp: plots/%.gp
	$(quiet) CP $@
	@mkdir -p $(@D)
	$(Q)cp $< $@

# Never fails the build: without objdump the file says why it is empty.
$(DATA)/noise-loops.tsv: tools/noise-census.sh $(CENSUS_OBJS)
	$(quiet) CENSUS $@
	@mkdir -p $(@D)
	$(Q)sh tools/noise-census.sh -o $@ $(CROSS_COMPILE)objdump $(CENSUS_OBJS)

$(BUILD)/%.o: %.c
	$(quiet) CC $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/%.o: %.S
	$(quiet) AS $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(ASFLAGS_ALL) -c $< -o $@

$(PTX_OBJ): $(PTX_SRCS)

# Build identity lives in one object so a new revision relinks, not rebuilds.
$(BUILD)/harness/core/buildinfo.o: CPPFLAGS += $(BUILD_INFO)
# The index a commit rewrites: .git/index, or a worktree's own under .git.
$(BUILD)/harness/core/buildinfo.o: $(wildcard $(shell git rev-parse --git-path index 2>/dev/null))

$(LIB): $(LIB_OBJS)
	$(quiet) AR $@
	$(Q)rm -f $@ && $(CROSS_COMPILE)ar rcs $@ $^

# The same objects as a shared library, for simulators that load the curve
# model (include/mess/model.h) at run time: position-independent, and
# linked against what lib/ may use (jansson, libm) only.  Native builds
# only: a foreign ISA links everything statically.
# (In their own directory, so that no object built without -fPIC is reused.)
$(BUILD)/pic/%.o: %.c
	$(quiet) CC $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS_ALL) -fPIC -c $< -o $@

$(SHLIB): $(LIB_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $^ $(LDLIBS_LIB)
	$(Q)ln -sf $(SONAME) $(BUILD)/libmess.so

# mess.pc for the PREFIX it is installed under (written by install).
define MESS_PC
prefix=$(PREFIX)
libdir=$${prefix}/lib
includedir=$${prefix}/include

Name: mess
Description: memory-system curve families, their readers and the curve model
Version: $(VERSION)
Requires.private: jansson
Libs: -L$${libdir} -lmess
Libs.private: -lm
Cflags: -I$${includedir}
endef
export MESS_PC

$(HARNESS_LIB): $(HARNESS_OBJS)
	$(quiet) AR $@
	$(Q)rm -f $@ && $(CROSS_COMPILE)ar rcs $@ $^

$(MESS): $(MAIN_OBJ) $(HARNESS_LIB) $(LIB) $(KERNEL_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)

# mess with the tests' synthetic backend (tests/curves/synthetic.c, a
# weak row of harness/curves/cmd.c's table): the driver against known
# answers, never installed.
MESS_SYNTHETIC := $(BUILD)/mess-synthetic
$(MESS_SYNTHETIC): $(MAIN_OBJ) $(BUILD)/tests/curves/synthetic.o $(HARNESS_LIB) $(LIB) $(KERNEL_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)

# A test binary from its one object (its first prerequisite, for the link
# order), the maths' tests with the harness, the kernels' with the kernels.
define unit_test
$(call test_bin,$(1)): $(1:%.c=$(BUILD)/%.o) $(2)
	$$(quiet) LD $$@
	$$(Q)$$(CC) $$(CFLAGS_ALL) $$(LDFLAGS) -o $$@ $$^ $(3)
endef
$(foreach t,$(filter-out $(KERNEL_TEST_SRCS),$(UNIT_SRCS)),$(eval $(call unit_test,$(t),$$(HARNESS_LIB) $$(LIB) $$(KERNEL_OBJS),$$(LDLIBS_TEST) $$(LDLIBS_HARNESS))))
$(foreach t,$(KERNEL_TEST_SRCS),$(eval $(call unit_test,$(t),$$(KERNEL_OBJS),$$(LDLIBS_TEST))))
# Their shared helpers (near.h, load_util.h) sit above the folders.
$(TEST_OBJS): CPPFLAGS += -Itests/unit

# MESS_EMU: the emulator, if any (test_tail_reference times a chase, which
# means nothing under qemu: it says SKIPPED).
check-unit: $(UNIT_TESTS) $(DATA_FILES)
	@set -e; for t in $(UNIT_TESTS); do echo "== $$t"; MESS_EMU="$(EMU)" $(EMU) ./$$t; done

# Kernel semantics of one ISA, built with that ISA's compiler; under
# qemu-user once per emulated CPU.
check-kernels: $(KERNEL_TESTS)
ifeq ($(FOREIGN),)
	$(Q)set -e; for t in $^; do echo "== $$t (native)"; ./$$t; done
else
	$(Q)set -e; for cpu in $(QEMU_CPUS_$(ARCH)); do \
		if [ $$cpu = default ]; then unset QEMU_CPU; else export QEMU_CPU=$$cpu; fi; \
		for t in $^; do echo "== $$t ($(EMU), cpu $$cpu)"; $(EMU) ./$$t; done; \
	done
endif
	@# Exactly k noise instructions per iteration, counted by valgrind
	@# natively and by single-stepping qemu for a foreign ISA.
	$(Q)rc=0; tests/noise-count.sh ./$(BUILD)/tests/test_noise $(EMU) >$(BUILD)/noise-count.log 2>&1 || rc=$$?; \
	tail -n1 $(BUILD)/noise-count.log; \
	if [ $$rc -eq 77 ]; then echo "SKIPPED noise count on $(ARCH) (see $(BUILD)/noise-count.log)"; \
	elif [ $$rc -ne 0 ]; then cat $(BUILD)/noise-count.log; exit $$rc; fi

# The whole harness end to end on a tiny sweep: under qemu the figures mean
# nothing, but every result file must be complete and well formed.
check-e2e: all
ifeq ($(FOREIGN),)
	$(Q)tests/e2e.sh "" ./$(MESS) $(BUILD)/e2e
else
	$(Q)set -e; for cpu in $(QEMU_CPUS_$(ARCH)); do \
		if [ $$cpu = default ]; then unset QEMU_CPU; else export QEMU_CPU=$$cpu; fi; \
		tests/e2e.sh "$(EMU)" ./$(MESS) $(BUILD)/e2e-$$(echo $$cpu | tr -c 'a-z0-9\n' _); \
	done
endif

# One ISA's kernel tests and, for a foreign ISA, the e2e sweep under qemu.
# What cannot run here (no cross compiler, no qemu, no Debian sources for
# the libraries) is reported as SKIPPED with the reason, never passed.
# The ISA built here is built by this make first: two makes would race on
# its objects when the checks run side by side.
check-$(ARCH): all
$(addprefix check-,$(ISAS)): check-%:
	$(Q)if [ "$(HOST_ARCH)" = "$*" ]; then \
		exec $(MAKE) --no-print-directory CROSS_COMPILE= check-kernels; fi; \
	skip() { echo "SKIPPED check-$*: $$1"; mkdir -p build; echo "check-$*: $$1" >>build/skipped.txt; exit 0; }; \
	command -v $(CROSS_$*)gcc >/dev/null || skip "no $(CROSS_$*)gcc (apt-get install gcc-$(CROSS_$*:-=))"; \
	command -v qemu-$* >/dev/null || skip "no qemu-$* (apt-get install qemu-user)"; \
	rc=0; tools/cross-deps.sh $* $(CROSS_$*) build/deps/$* || rc=$$?; \
	[ $$rc -ne 77 ] || skip "no static cmocka/hwloc/libnuma/jansson/libpfm4 for $* (see above)"; \
	[ $$rc -eq 0 ] || exit $$rc; \
	$(MAKE) --no-print-directory CROSS_COMPILE=$(CROSS_$*) check-kernels check-e2e

# The foreign ISAs' libraries from the cache outside the checkout, a
# stale entry never (tools/cross-deps.sh); seconds, nothing built.
check-deps-cache:
	$(Q)SKIPPED_FILE=build/skipped.txt tests/cross-deps-cache.sh

check-cli: all $(MESS_SYNTHETIC)
	$(Q)for t in tests/cli/cases*.txt; do tests/cli/run-cli-tests.sh ./$(MESS) $$t || exit 1; done
	$(Q)SKIPPED_FILE=build/skipped.txt tests/export.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/roundtrip.sh ./$(MESS)
	$(Q)tests/nodes.sh ./$(MESS)
	$(Q)tests/position.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/report-dirs.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/compare.sh ./$(MESS)
	$(Q)tests/interleave.sh ./$(MESS) ./$(MESS_SYNTHETIC)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/check.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/import.sh ./$(MESS)
	$(Q)tests/input.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/readers.sh ./$(MESS)
	$(Q)tests/fleet.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/counters.sh ./$(MESS)
	$(Q)tests/sample.sh ./$(MESS)
	$(Q)tests/docs.sh ./$(MESS) $(BUILD)/share

# Faults on demand (tests/faults.sh): a full disk for one file.
FAULT_SHIM := $(BUILD)/tests/enospc.so
$(FAULT_SHIM): tests/fault/enospc.c
	$(quiet) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) -shared -fPIC -O2 -Wall -o $@ $< -ldl

# Results that survive faults and hostile state: a full disk mid-run,
# damaged resume directories, another build, a complete run resumed.
check-faults: all $(FAULT_SHIM)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/faults.sh ./$(MESS) ./$(FAULT_SHIM)
	$(Q)tests/rundir.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/contract.sh ./$(MESS)

# The sweep against a replayed public set: its outputs, and the goal of
# issue 26 at 1 % noise (tests/replay.sh says which); seconds.
check-replay: all $(BENCH_SWEEP) $(MESS_SYNTHETIC)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/replay.sh ./$(MESS) ./$(BENCH_SWEEP)
	$(Q)tests/synthetic.sh ./$(MESS_SYNTHETIC)

# The GPU kernels without a GPU (issue 45): the PTX's text against what
# the host declares and passes (always), then NVIDIA's ptxas for sm_80,
# sm_90 and sm_100 where one is found (SKIPPED and why, else).
check-ptx:
	$(Q)python3 tests/gpu-ptx.py .
	$(Q)SKIPPED_FILE=build/skipped.txt tests/gpu-ptxas.sh

# mess curves --device gpu:N where there is no GPU: exit 3 in one line,
# nothing written; its bad input; the static check's self-test; and, on
# a native build, the backend's host side end to end on the tests' fake
# driver (tests/gpu/fakecuda.c: a libcuda.so.1 for the tests only).
FAKECUDA := $(BUILD)/fakecuda/libcuda.so.1
$(FAKECUDA): tests/gpu/fakecuda.c kernels/include/mess_ptx.h
	$(quiet) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) -shared -fPIC -O2 -Wall -Wextra -pthread -Ikernels/include -o $@ $<
check-gpu: all $(if $(FOREIGN),,$(FAKECUDA))
	$(Q)tests/gpu.sh ./$(MESS) $(if $(FOREIGN),,$(dir $(FAKECUDA)))

# The outputs of fixed-seed replays of the public sets, export, compare,
# import, fleet and report, normalised, against tests/golden/ (issue 33:
# a change of output is recorded on purpose, with GOLDEN=--record).  The
# recordings are x86_64's: under qemu another ISA's floating point may
# move the last digits, so a foreign build skips it.
check-golden: all
ifeq ($(FOREIGN),)
	$(Q)rc=0; SKIPPED_FILE=build/skipped.txt tests/golden.sh ./$(MESS) $(BUILD)/golden $(GOLDEN) || rc=$$?; \
	[ $$rc -eq 0 ] || [ $$rc -eq 77 ]
else
	@echo "SKIPPED check-golden: $(ARCH) runs under qemu-user"; mkdir -p build; echo "check-golden: foreign ISA" >>build/skipped.txt
endif

# report.html in a real browser (headless chromium): not blank, the
# expected text, no console message; SKIPPED (and why) without chromium.
check-report: all
	$(Q)rc=0; SKIPPED_FILE=build/skipped.txt tests/report.sh ./$(MESS) || rc=$$?; \
	[ $$rc -eq 0 ] || [ $$rc -eq 77 ]
	$(Q)rc=0; SKIPPED_FILE=build/skipped.txt tests/figures.sh ./$(MESS) || rc=$$?; \
	[ $$rc -eq 0 ] || [ $$rc -eq 77 ]

check-smoke: all
	$(Q)tests/smoke.sh
	$(Q)tests/matrix.sh ./$(MESS)
	$(Q)tests/interfere.sh ./$(MESS)
	$(Q)SKIPPED_FILE=build/skipped.txt tests/trust.sh ./$(MESS)

# tools/slurm/mess-fleet.sbatch on a real Slurm the test starts on this
# machine (munged, slurmctld and slurmd of the check set, on localhost, in
# a temporary directory), then mess fleet on what it wrote.  Where Slurm
# cannot start here the test says SKIPPED and why (exit 77), never passed.
check-slurm: all
	$(Q)rc=0; SKIPPED_FILE=build/skipped.txt tests/fleet-slurm.sh ./$(MESS) || rc=$$?; \
	[ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# mess absorb end to end: every kernel, two noise modes, short runs.
check-absorb: all
	$(Q)tests/absorb-smoke.sh

# examples/simulator.c built the way a simulator's build would do it:
# against a staged `make install`, found through pkg-config, run from the
# shared library, on a public curve set.
STAGE := $(BUILD)/stage
check-example: all
	$(Q)rm -rf $(STAGE) && $(MAKE) --no-print-directory install DESTDIR=$(abspath $(STAGE)) PREFIX=/usr >/dev/null
	$(Q)PKG_CONFIG_PATH=$(STAGE)/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$(STAGE) \
		$(CC) -Wall -Werror -o $(BUILD)/example-simulator examples/simulator.c \
		$$(PKG_CONFIG_PATH=$(STAGE)/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$(STAGE) pkg-config --cflags --libs mess)
	$(Q)set=$(MESS_REFERENCE)/MN5-HBM-XeonMax9480-HBM2; [ -d $$set ] || set=$(BUILD)/stage-run; \
	[ -d $$set ] || ./$(MESS) --quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5 --out $$set >/dev/null 2>&1; \
	LD_LIBRARY_PATH=$(STAGE)/usr/lib $(BUILD)/example-simulator $$set 70 >$(BUILD)/example.out
	$(Q)LD_LIBRARY_PATH=$(STAGE)/usr/lib ldd $(BUILD)/example-simulator | grep -q 'libmess.so.0 => .*$(STAGE)' && \
		[ $$(grep -c ' ns ' $(BUILD)/example.out) -eq 11 ] && \
		! grep -q -e nan -e inf $(BUILD)/example.out && echo "example: ok (linked $(SONAME) from a staged install)"

# make fuzz and check-fuzz: tests/fuzz/fuzz.mk.
include tests/fuzz/fuzz.mk

# The unit tests and the CLI tests under AddressSanitizer, LeakSanitizer
# and UBSan, built in a tree of their own (BUILD is overridden for the
# second make, so no object of the plain build is reused).  Any report
# fails the run: exit status 86, which no row of the CLI table expects.
# Leaks inside the libraries mess links are suppressed by name in
# tests/sanitize/lsan.supp (leak detection stays on).  Native builds only:
# qemu-user runs no sanitizer runtime.
SAN_BUILD := build/asan-$(ARCH)
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
SAN_ENV := MESS_SANITIZED=1 ASAN_OPTIONS=exitcode=86:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
	UBSAN_OPTIONS=exitcode=86:print_stacktrace=1:halt_on_error=1 \
	LSAN_OPTIONS=exitcode=86:suppressions=$(abspath tests/sanitize/lsan.supp):print_suppressions=0
check-sanitize:
ifeq ($(FOREIGN),)
	$(Q)export $(SAN_ENV); $(MAKE) --no-print-directory BUILD=$(SAN_BUILD) OPTFLAGS="$(SAN_FLAGS)" check-unit check-cli
else
	@echo "SKIPPED check-sanitize: $(ARCH) runs under qemu-user"; mkdir -p build; echo "check-sanitize: foreign ISA" >>build/skipped.txt
endif

# The multi-node paths on an emulated 2-socket, 5-node machine (QEMU, TCG;
# tests/numa/): SKIPPED where QEMU or the guest kernel cannot be had.
check-numa: all
	$(Q)SKIPPED_FILE=build/skipped.txt tests/numa/check.sh ./$(MESS)

# The include rules of the layers, after a self-test showing that the
# check catches a violation of each.
check-layering:
	$(Q)tests/layering.sh
	$(Q)tools/layering.sh && echo "layering: ok"

# No circle between files (issue 33), from the objects' symbols and the
# includes; the script's self-test first.
check-circles: all
	$(Q)tests/circles.sh
	$(Q)NM=$(CROSS_COMPILE)nm tools/circles.sh $(BUILD) && echo "circles: none"

# Everything make check runs, in one list.  First the check set of
# tools/debian-packages.txt (tools/deps.sh installs it as root, else names
# the apt-get line and fails); the suites then run in a second make, so
# that none starts before the packages are in, and it finds the compiler
# that this one may have lacked.
CHECKS := check-layering check-circles check-ptx check-gpu check-unit check-fuzz check-sanitize check-cli check-replay check-golden check-smoke check-report check-absorb check-faults check-example check-numa $(BENCH) $(BENCH_MODEL) $(BENCH_PMU) \
	check-slurm check-deps-cache \
	$(addprefix check-,$(ISAS))
check:
	$(Q)tools/deps.sh check
	$(Q)mkdir -p build && : >build/check-times.tsv
	$(Q)MESS_CHECK_TIMES=$(abspath build/check-times.tsv) $(MAKE) --no-print-directory check-suites
	@if [ -s build/skipped.txt ]; then echo "== skipped:"; sort -u build/skipped.txt; rm -f build/skipped.txt; fi
	@echo "== time per suite (build/check-times.tsv)"; tools/suite-times.sh build/check-times.tsv

# Every suite's recipe lines, and those of what it builds, through
# tools/suite-time.sh: make check prints each suite's time at the end
# (a plain /bin/sh where MESS_CHECK_TIMES is not set).
$(CHECKS): SHELL = tools/suite-time.sh
$(CHECKS): .SHELLFLAGS = $@ -c

# One after another they took 30 min on a 2-core guest.  The suites whose
# checks no load can fail run side by side, CHECK_JOBS at a time, the
# longest first, each one's output held until it ends (-Otarget); then
# the others (those that judge a measured figure or a run's time, and any
# suite not named here) one at a time, on a machine the first group no
# longer loads.  check-faults' few time bounds are wide (a signal obeyed
# in 3 s, a refusal in 5 s; 0.7 s at a load of 10).  check-numa's QEMU
# guests share the CPUs, so their limit is doubled (their timings mean
# nothing).  check-example runs later: its install rewrites the man pages
# that check-cli's docs.sh reads.  -j1: a -j given to make check must not
# reach the second group.
# The native build comes first, on its own, with what the suites run
# beside mess: while it ran beside the sanitizer's build and the foreign
# ISAs', check-numa (the longest, 650 s) could not start until 500 s in,
# and ended alone with one CPU idle for 170 s; and a suite whose own
# program was still to build started after every shorter one that was
# ready.  Then the longest first, so the shortest fill the end.
CHECK_JOBS ?= 2
CHECK_PAR := check-numa check-sanitize check-report check-cli check-faults check-ppc64le \
	check-riscv64 check-fuzz check-aarch64 check-x86_64 check-gpu check-unit check-replay \
	check-golden check-layering check-circles check-ptx check-deps-cache $(BENCH) $(BENCH_MODEL) $(BENCH_PMU)
check-suites:
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) all $(MESS_SYNTHETIC) $(FAULT_SHIM) $(BENCH_SWEEP)
	$(Q)MESS_NUMA_TIMEOUT=$${MESS_NUMA_TIMEOUT:-840} $(MAKE) --no-print-directory -j$(CHECK_JOBS) -Otarget check-par
	$(Q)$(MAKE) --no-print-directory -j1 check-serial
check-par: $(filter $(CHECKS),$(CHECK_PAR))
check-serial: $(filter-out $(CHECK_PAR),$(CHECKS))

# $(PREFIX)/bin/mess and its data in $(PREFIX)/share/mess; DESTDIR for
# staged installs (packages).
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/mess/plots
	install -m 755 $(MESS) $(DESTDIR)$(PREFIX)/bin/mess
	install -m 644 $(PLOT_SCRIPTS:%=$(DATA)/%) $(DESTDIR)$(PREFIX)/share/mess/plots/
	install -m 644 $(DATA)/noise-loops.tsv $(DESTDIR)$(PREFIX)/share/mess/
	install -d $(DESTDIR)$(PREFIX)/include/mess $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(PREFIX)/include/mess/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 results/README.md $(DESTDIR)$(DOCDIR)/results.md
	install -m 644 docs/reference.md $(DESTDIR)$(DOCDIR)/reference.md
ifeq ($(FOREIGN),)
	@# Made again for this PREFIX: the pages name DOCDIR.
	$(Q)sh tools/gen-docs.sh ./$(MESS) $(BUILD)/share $(DOCDIR)
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions
	install -m 644 $(BUILD)/share/man/man1/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(BUILD)/share/bash-completion/completions/mess $(DESTDIR)$(PREFIX)/share/bash-completion/completions/
	install -m 644 $(BUILD)/share/zsh/vendor-completions/_mess $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/
	install -m 755 $(SHLIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libmess.so
	printf '%s\n' "$$MESS_PC" >$(DESTDIR)$(PREFIX)/lib/pkgconfig/mess.pc
endif

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/mess $(DESTDIR)$(PREFIX)/lib/libmess.a \
		$(DESTDIR)$(PREFIX)/lib/$(SONAME) $(DESTDIR)$(PREFIX)/lib/libmess.so \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/mess.pc \
		$(addprefix $(DESTDIR)$(PREFIX)/,$(PUBLIC_HEADERS)) \
		$(addprefix $(DESTDIR)$(PREFIX)/share/mess/,$(PLOT_SCRIPTS) noise-loops.tsv) \
		$(DESTDIR)$(PREFIX)/share/man/man1/mess.1 $(DESTDIR)$(PREFIX)/share/man/man1/mess-*.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/mess \
		$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_mess \
		$(DESTDIR)$(DOCDIR)/results.md $(DESTDIR)$(DOCDIR)/reference.md
	rmdir $(DESTDIR)$(PREFIX)/share/mess/plots $(DESTDIR)$(PREFIX)/share/mess $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(PREFIX)/include/mess \
		2>/dev/null || true

clean:
	rm -rf build

-include $(OBJS:.o=.d)

# The harness binary for this compiler, for run.sh.
print-mess:
	@echo $(MESS)

# Peer comparisons (not tests): tests/bench/compare.sh prints the figures.
$(BENCH): $(BENCH_OBJ) $(HARNESS_LIB) $(LIB) $(KERNEL_OBJS)
	$(quiet) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)

# The curve model as a simulator calls it: ns per query.
$(BENCH_MODEL): $(BENCH_MODEL_OBJ) $(LIB)
	$(quiet) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_LIB)

# A swept family against the set it was replayed from (tools/sweep-bench.sh).
$(BENCH_SWEEP): $(BENCH_SWEEP_OBJ) $(LIB)
	$(quiet) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_LIB)

# The cost of one counter read (the figure README gives).
$(BENCH_PMU): $(BENCH_PMU_OBJ) $(HARNESS_LIB) $(LIB)
	$(quiet) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)

bench: $(BENCH) $(BENCH_MODEL) $(BENCH_PMU) $(MESS)
	$(Q)$(BENCH_PMU)
	$(Q)$(BENCH_MODEL) $(MESS_REFERENCE)/MN5-GPP-SPR8480-DDR5/memory_curves.csv
	$(Q)tests/bench/compare.sh ./$(BENCH)
