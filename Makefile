# SPDX-License-Identifier: MIT
# One non-recursive Makefile.  The target ISA comes from the compiler
# (`$(CC) -dumpmachine`), never from the build host, so
#   make CROSS_COMPILE=aarch64-linux-gnu-
# builds build/aarch64/ on any machine.  `make check` runs everything;
# `make check-<isa>` runs one ISA's kernel tests (under qemu-user if foreign).

CROSS_COMPILE ?=
CC := $(CROSS_COMPILE)gcc
ARCH := $(shell $(CC) -dumpmachine 2>/dev/null | cut -d- -f1)
ifeq ($(ARCH),)
$(error cannot run '$(CC) -dumpmachine': is the (cross) compiler installed?)
endif
BUILD := build/$(ARCH)

# The ISAs whose kernels we ship, and the compiler prefix for each.
ISAS := x86_64 aarch64
CROSS_x86_64 := x86_64-linux-gnu-
CROSS_aarch64 := aarch64-linux-gnu-

# Only to pick the runner of test binaries (native or qemu-user): build
# flags never depend on it.
HOST_ARCH := $(shell uname -m)
EMU = $(if $(filter $(ARCH),$(HOST_ARCH)),,qemu-$(ARCH))
# Where qemu-user finds a foreign ISA's loader when no multiarch libc is
# installed (Debian's cross toolchains put one here).
export QEMU_LD_PREFIX ?= $(wildcard /usr/$(ARCH)-linux-gnu)

VERSION := 0.1.0
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)

OPTFLAGS ?= -O2 -g
WARNFLAGS := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wno-format-truncation
CPPFLAGS += -Iharness -Ikernels/include -D_GNU_SOURCE
CFLAGS_ALL = -std=gnu11 $(OPTFLAGS) $(WARNFLAGS) -pthread -MMD -MP $(CFLAGS)
ASFLAGS_ALL = -g -MMD -MP $(ASFLAGS)
BUILD_INFO = -DMESS_VERSION='"$(VERSION)"' -DMESS_GIT_REV='"$(GIT_REV)"' \
	-DMESS_CFLAGS='"$(strip $(OPTFLAGS) $(CFLAGS))"'
LDLIBS_HARNESS := -lhwloc -lnuma -lpthread -lm
LDLIBS_TEST := -lcmocka -lm

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-6s %s\n'
endif

KERNEL_SRCS := $(wildcard kernels/asm/$(ARCH)/*.S)
KERNEL_OBJS := $(KERNEL_SRCS:%.S=$(BUILD)/%.o)
LIB_SRCS := $(filter-out harness/main.c,$(wildcard harness/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libmess.a
MESS := $(BUILD)/mess
BENCH := $(BUILD)/bench/compare

# Unit tests of the maths link the harness library; the kernel test links
# only the kernels and cmocka, so it cross-builds without hwloc.
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(filter-out tests/unit/test_kernels.c,$(wildcard tests/unit/test_*.c)))
KERNEL_TEST := $(BUILD)/tests/test_kernels

# Public curves for the metric tests; read in place, never copied.
MESS_REFERENCE ?= $(abspath ../shared/reference/mess-results)
export MESS_REFERENCE

.PHONY: all print-mess bench check check-unit check-cli check-smoke check-kernels clean \
	$(addprefix check-,$(ISAS))
.DEFAULT_GOAL := all
# Keep test objects: they are intermediate files of pattern rules.
.SECONDARY:

all: $(MESS)

$(BUILD)/%.o: %.c
	$(quiet) CC $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/%.o: %.S
	$(quiet) AS $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(ASFLAGS_ALL) -c $< -o $@

# Build identity lives in one object so a new revision relinks, not rebuilds.
$(BUILD)/harness/buildinfo.o: CPPFLAGS += $(BUILD_INFO)
$(BUILD)/harness/buildinfo.o: .git/index

$(LIB): $(LIB_OBJS)
	$(quiet) AR $@
	$(Q)rm -f $@ && $(CROSS_COMPILE)ar rcs $@ $^

$(MESS): $(BUILD)/harness/main.o $(LIB) $(KERNEL_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIB) $(KERNEL_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_TEST) $(LDLIBS_HARNESS)

$(KERNEL_TEST): $(BUILD)/tests/unit/test_kernels.o $(KERNEL_OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_TEST)

check: check-unit check-cli check-smoke $(BENCH)

check-unit: $(UNIT_TESTS)
	@set -e; for t in $^; do echo "== $$t"; $(EMU) ./$$t; done

# Kernel semantics of one ISA, built with that ISA's compiler.
check-kernels: $(KERNEL_TEST)
	@echo "== $(KERNEL_TEST) ($(if $(EMU),$(EMU),native))"
	$(Q)$(EMU) ./$(KERNEL_TEST)

$(addprefix check-,$(ISAS)): check-%:
	$(Q)$(MAKE) --no-print-directory CROSS_COMPILE=$(CROSS_$*) check-kernels

check-cli: $(MESS)
	$(Q)tests/cli/run-cli-tests.sh ./$(MESS) tests/cli/cases.txt

check-smoke: $(MESS)
	$(Q)tests/smoke.sh

check: $(addprefix check-,$(ISAS))

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# The harness binary for this compiler, for run.sh.
print-mess:
	@echo $(MESS)

# Peer comparisons (not tests): tests/bench/compare.sh prints the figures.
$(BENCH): $(BUILD)/tests/bench/compare.o $(LIB) $(KERNEL_OBJS)
	$(quiet) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS_HARNESS)

bench: $(BENCH) $(MESS)
	$(Q)tests/bench/compare.sh ./$(BENCH)
