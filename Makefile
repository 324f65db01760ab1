# MutexOS: one entry point for building, booting, testing and measuring.
# "make help" lists the targets and variables.
#
# Make builds exactly one configuration: ARCH, MUTEX and any
# CONF="CONFIG_X=y ..." overrides, into build/<arch>-<mutex>[-<overrides>]/.
# The matrices (test, torture, bench, the GRUB check) live in the Python
# tooling, scripts/mutexos/, which calls make once per configuration.
#
# Each arch is described once, in arch/<arch>/arch.mk: its toolchain and
# packages, QEMU machine, boot image, gdb architecture and CPU counts.

ALL_ARCHES := $(patsubst arch/%/arch.mk,%,$(wildcard arch/*/arch.mk))
ALL_MUTEXES := native dec xchg null debug spin

ARCH ?= i386
MUTEX ?= native
CPUS ?= 2
CONF ?=
ACCEL ?= tcg
APPEND ?=
V ?= 0

empty :=
space := $(empty) $(empty)
comma := ,

# A variable given on the command line or in the environment selects; one
# left out means all of its values (make test, torture, bench). Those
# take lists (ARCH="i386 arm"); everything else builds one configuration.
given = $(filter command line environment,$(origin $(1)))
as_list = $(subst $(space),$(comma),$(strip $(1)))
SEL_ARCHES := $(if $(call given,ARCH),$(ARCH),$(ALL_ARCHES))
SEL_ARCH := $(if $(call given,ARCH),--arch $(call as_list,$(ARCH)))
SEL_MUTEX := $(if $(call given,MUTEX),--mutex $(call as_list,$(MUTEX)))
SEL_CPUS := $(if $(call given,CPUS),--cpus $(call as_list,$(CPUS)))
SELECT := $(SEL_ARCH) $(SEL_MUTEX) $(SEL_CPUS)
MATRIX_GOALS := test torture bench grade check-kgdb-fuzz

ifneq ($(filter-out $(ALL_ARCHES),$(ARCH))$(filter-out 1,$(words $(ARCH))),)
ifneq ($(filter-out $(ALL_ARCHES),$(ARCH)),)
$(error ARCH=$(ARCH): not one of: $(ALL_ARCHES))
endif
ifneq ($(filter-out $(MATRIX_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error ARCH takes one value here; lists are for $(MATRIX_GOALS))
endif
override ARCH := $(firstword $(ARCH))
endif
ifneq ($(filter-out $(ALL_MUTEXES),$(MUTEX)),)
$(error MUTEX=$(MUTEX): not one of: $(ALL_MUTEXES))
endif
ifneq ($(filter-out 1,$(words $(MUTEX))),)
ifneq ($(filter-out $(MATRIX_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error MUTEX takes one value here; lists are for $(MATRIX_GOALS))
endif
override MUTEX := $(firstword $(MUTEX))
endif
# No "=" in a folder name: make would read the .d files' lines of its
# objects as variable assignments, and a changed header would not rebuild.
conf_suffix := $(if $(strip $(CONF)),-$(subst =,-,$(subst $(space),-,$(subst CONFIG_,,$(strip $(CONF))))))
CFG := $(ARCH)-$(MUTEX)$(conf_suffix)
O ?= build/$(CFG)

ifeq ($(V),1)
Q :=
else
Q := @
endif

include arch/$(ARCH)/arch.mk

# The host tooling: a Python package run from the source tree.
MX := PYTHONPATH=$(CURDIR)/scripts python3 -m mutexos
CHECK_TOOLS := scripts/check-tools.sh

.DEFAULT_GOAL := all
.PHONY: all run gdb kgdb menuconfig sizes clean help tools print-builddir print-cc
# ARCH_EXTRA_IMAGES: what else an arch builds beside the kernel (arch.mk)
all: $(O)/kernel.elf $(ARCH_EXTRA_IMAGES)

# ---------------------------------------------------------------- tools
# Checked before anything is read from a tool: nothing below runs a tool
# while the Makefile is parsed (LIBGCC is expanded only when linking).
tools:
	$(Q)$(CHECK_TOOLS) $(ARCH)

# ---------------------------------------------------------------- config
# The MUTEX choice is a config fragment applied over the arch defconfig.
mutex_frag_native := CONFIG_MUTEX_NATIVE=y
mutex_frag_dec := CONFIG_MUTEX_DEC=y
mutex_frag_xchg := CONFIG_MUTEX_XCHG=y
mutex_frag_null := CONFIG_MUTEX_NULL=y
mutex_frag_debug := CONFIG_MUTEX_DEC=y CONFIG_DEBUG_MUTEXES=y CONFIG_DEBUG_SPINLOCK=y
# spin: the native fastpath with optimistic spinning and handoff
mutex_frag_spin := CONFIG_MUTEX_NATIVE=y CONFIG_MUTEX_SPIN_ON_OWNER=y

KCONFIG_ENV := srctree=$(CURDIR) SRCARCH=$(ARCH) \
	KCONFIG_CONFIG=$(abspath $(O))/.config \
	KCONFIG_AUTOHEADER=$(abspath $(O))/include/generated/autoconf.h \
	KCONFIG_AUTOCONFIG=$(abspath $(O))/include/config/auto.conf \
	KCONFIG_TRISTATE=$(abspath $(O))/include/config/tristate.conf

# The .config is written in a folder of its own first and checked there:
# a CONF override that kconfig would drop or change is an error before
# the build folder exists (scripts/check-conf.sh).
$(O)/.config: arch/$(ARCH)/defconfig Kconfig arch/$(ARCH)/Kconfig | tools
	$(Q)t=$$(mktemp -d) && trap 'rm -rf $$t' EXIT && \
	cp $< $$t/.config && \
	for o in $(mutex_frag_$(MUTEX)) $(CONF); do \
		sed -i "/^$${o%%=*}=/d; /^# $${o%%=*} is not set/d" $$t/.config; \
		echo "$$o" >> $$t/.config; \
	done && \
	(cd $$t && $(KCONFIG_ENV) KCONFIG_CONFIG=$$t/.config \
		kconfig-conf -s --olddefconfig $(CURDIR)/Kconfig) > $$t/log 2>&1 && \
	scripts/check-conf.sh $$t/.config $$t/log $(CONF) && \
	mkdir -p $(O)/include/config $(O)/include/generated && \
	cp $$t/.config $@
	@echo "  CONFIG  $@"

# auto.conf gives make the CONFIG_ symbols for the object lists, and
# autoconf.h gives them to C; kconfig-conf writes both at once.
$(O)/include/config/auto.conf: $(O)/.config
	$(Q)cd $(O) && $(KCONFIG_ENV) kconfig-conf -s --silentoldconfig $(CURDIR)/Kconfig
	$(Q)touch $@ $(O)/include/generated/autoconf.h
$(O)/include/generated/autoconf.h: $(O)/include/config/auto.conf

menuconfig: $(O)/.config
	cd $(O) && $(KCONFIG_ENV) kconfig-mconf $(CURDIR)/Kconfig

# ---------------------------------------------------------------- objects
# Goals that build this configuration read its options (make then builds
# the .config first and starts over); the others never need them.
NOCONFIG_GOALS := clean help tools print-builddir test torture bench \
	check-runner check-iso check-build check-verdicts check-det-bench verify sizes iso sdcard \
	sdcard-check lab student-repo grade check-labs check-debug-cost check-stuck
NOCONFIG_GOALS += grade-all trace autograder
CONFIG_GOALS := $(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all))
ifneq ($(CONFIG_GOALS),)
include $(O)/include/config/auto.conf
endif

# Kbuild-style object lists: each folder's Kbuild file adds its objects to
# obj-y, optional ones to obj-$(CONFIG_X), and its subfolders as "name/".
# As in Linux, KCSAN_SANITIZE := n keeps a folder's files out of the race
# detector's instrumentation, KCSAN_SANITIZE_file.o := n one file.
OBJS :=
KCSAN_OFF := $(ARCH_KCSAN_OFF)
define kbuild_dir
src := $(1)
obj-y :=
KCSAN_SANITIZE :=
include $(1)/Kbuild
objs_$(1) := $$(filter-out %/,$$(obj-y))
OBJS += $$(addprefix $(O)/$(1)/,$$(objs_$(1)))
KCSAN_OFF += $$(addprefix $(O)/$(1)/,$$(if $$(filter n,$$(KCSAN_SANITIZE)),\
	$$(objs_$(1)),$$(foreach o,$$(objs_$(1)),\
	$$(if $$(filter n,$$(KCSAN_SANITIZE_$$(o))),$$(o)))))
$$(foreach o,$$(objs_$(1)),$$(eval KCSAN_SANITIZE_$$(o) :=))
subdirs_$(1) := $$(addprefix $(1)/,$$(patsubst %/,%,$$(filter %/,$$(obj-y))))
$$(foreach d,$$(subdirs_$(1)),$$(eval $$(call kbuild_dir,$$(d))))
endef
$(foreach d,kernel lib drivers tests $(ARCH_DIRS),$(eval $(call kbuild_dir,$(d))))

# The kernel relinks when the set of objects changes, say a test file was
# deleted: the list is kept in a file that changes only when the set does.
# (Only for a goal that read the configuration: without it the lists are
# not complete. make test, run while other builds of this folder go on,
# once wrote its short list here, and the next build relinked the kernel
# under a running boot. And a bad CONF must not leave a build folder.)
OBJLIST := $(O)/.objects
ifneq ($(CONFIG_GOALS),)
ifneq ($(wildcard $(O)/include/config/auto.conf),)
ifneq ($(strip $(OBJS)),$(strip $(file < $(OBJLIST))))
$(file > $(OBJLIST),$(strip $(OBJS)))
endif
endif
endif

# ---------------------------------------------------------------- build
INCLUDES := -I$(O)/include -Iinclude -Iarch/$(ARCH)/include $(ARCH_INCLUDES)
CPPFLAGS := -include $(O)/include/generated/autoconf.h -include include/reproducible.h \
	$(INCLUDES) -D__KERNEL__ -MMD -MP
# The compiler options of Kconfig (menu "Compiler options"), and the arch's.
# Unwind tables go in .debug_frame, for gdb's backtraces: not .eh_frame
# (which would be loaded, and which linker.ld discards).
OPTIMIZE := $(if $(CONFIG_CC_OPTIMIZE_FOR_SIZE),-Os,-O2)
FRAME_POINTER := $(if $(CONFIG_FRAME_POINTER),-fno-omit-frame-pointer \
	-fno-optimize-sibling-calls,-fomit-frame-pointer)
CFLAGS := -std=gnu11 $(OPTIMIZE) -g -ffreestanding -fno-builtin -nostdlib \
	-fno-asynchronous-unwind-tables -fno-unwind-tables \
	-fno-pic -fno-pie -fno-stack-protector $(FRAME_POINTER) \
	-fno-strict-aliasing -fno-common \
	-Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-Wno-missing-field-initializers -Werror $(ARCH_CFLAGS) $(ARCH_CFLAGS_CONFIG)
ASFLAGS := -D__ASSEMBLY__ $(ARCH_ASFLAGS)
CC := $(ARCH_CROSS)gcc
LD := $(ARCH_CROSS)ld
NM := $(ARCH_CROSS)nm
OBJCOPY := $(ARCH_CROSS)objcopy
# Asked of the compiler when linking, never while parsing: on a fresh
# machine the compiler exists only once the tool check has installed it.
LIBGCC = $(shell $(CC) $(ARCH_CFLAGS) -print-libgcc-file-name)

# CONFIG_KCSAN: every load and store becomes a call into kernel/kcsan/
# (volatile ones apart, as marked accesses), but not function entry and
# exit, which the detector does not need.
KCSAN_CFLAGS := $(if $(CONFIG_KCSAN),-fsanitize=thread \
	--param=tsan-distinguish-volatile=1 \
	--param=tsan-instrument-func-entry-exit=0)

# An object depends on the options it reads (scripts/fixdep.py rewrites its
# .d at the link) and on the flags, not on autoconf.h, which every option
# changes: a build folder started as a copy of another configuration's
# recompiles only what differs (make test does that, build.py).
CFLAGS_FILE := $(O)/.cflags
ifneq ($(CONFIG_GOALS),)
ifneq ($(wildcard $(O)/include/config/auto.conf),)
cflags_now := $(subst $(O)/,@O@/,$(CPPFLAGS) $(CFLAGS) $(KCSAN_CFLAGS) $(ASFLAGS))
ifneq ($(cflags_now),$(file < $(CFLAGS_FILE)))
$(file > $(CFLAGS_FILE),$(cflags_now))
endif
endif
endif

$(O)/%.o: %.c $(CFLAGS_FILE) | $(O)/include/generated/autoconf.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(if $(filter $@,$(KCSAN_OFF)),,$(KCSAN_CFLAGS)) \
		-c $< -o $@

$(O)/%.o: %.S $(CFLAGS_FILE) | $(O)/include/generated/autoconf.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(ASFLAGS) -c $< -o $@

# The console's config command prints the .config, which this object
# holds (.incbin, which the compiler's dependency lists do not name).
$(O)/kernel/console/config_data.o: $(O)/.config
$(O)/kernel/console/config_data.o: ASFLAGS += -DKERNEL_CONFIG_FILE='"$(O)/.config"'

$(O)/linker.lds: linker.ld $(O)/include/generated/autoconf.h
	$(Q)$(CC) $(filter-out -MMD -MP,$(CPPFLAGS)) -DLOAD_ADDR=$(LOAD_ADDR) -P -E -x c $< \
		| grep -v '^#' > $@

# The symbol table takes a second link: the first image gives the
# addresses, the table goes in after all code, so code does not move. The
# intermediate files are this link's own, so two makes never share them.
KLINK = $(LD) $(ARCH_LDFLAGS) -nostdlib -z noexecstack -T $(O)/linker.lds
$(O)/kernel.elf: $(OBJS) $(OBJLIST) $(O)/linker.lds scripts/kallsyms.py
	$(Q)scripts/fixdep.py $(O)
	$(Q)t=$$(mktemp -d $(O)/.link.XXXXXX) && trap 'rm -rf $$t' EXIT && \
	$(KLINK) -o $$t/kernel1 $(OBJS) $(LIBGCC) && \
	$(NM) -n $$t/kernel1 | scripts/kallsyms.py > $$t/kallsyms1.S && \
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ASFLAGS) -MF $$t/kallsyms.d -c $$t/kallsyms1.S -o $$t/kallsyms.o && \
	$(KLINK) -o $$t/kernel2 $(OBJS) $$t/kallsyms.o $(LIBGCC) && \
	$(NM) -n $$t/kernel2 | scripts/kallsyms.py > $$t/kallsyms2.S && \
	{ cmp -s $$t/kallsyms1.S $$t/kallsyms2.S || \
		{ echo "kallsyms: symbol table did not settle"; exit 1; }; } && \
	mv $$t/kernel2 $@
	@echo "  LD      $@"
	$(ARCH_POSTLINK)

-include $(OBJS:.o=.d)

# ---------------------------------------------------------------- run, gdb
# IMAGE boots another file of the build folder (arm: kernel7.img).
IMAGE ?= $(ARCH_BOOT_IMAGE)
# TURNS=1: the CPUs take turns on one host thread, as in make test's boots
# whose table says "in turns" (docs/testing.md).
TURNS ?=
run: all
	$(Q)case "$(TURNS)" in ""|0|1) ;; *) echo "make run: TURNS=$(TURNS): 1 runs the" \
		"CPUs in turns on one host thread, 0 or nothing a thread each" >&2; exit 2 ;; esac
	$(Q)$(MX) run --arch $(ARCH) --image $(O)/$(IMAGE) --cpus $(CPUS) \
		--accel $(ACCEL) --append "$(APPEND)" $(if $(filter 1,$(TURNS)),--turns)

GDB_PORT ?=
GDB_BATCH ?=
gdb: all
	$(Q)$(CHECK_TOOLS) --with gdb $(ARCH)
	$(Q)$(MX) gdb --arch $(ARCH) --builddir $(O) --cpus $(CPUS) --append "$(APPEND)" \
		$(if $(GDB_PORT),--port $(GDB_PORT)) $(if $(filter 1,$(GDB_BATCH)),--batch)

# The kernel's own stub on a socket; GDB=1 also starts gdb (docs/gdb.md).
GDB ?=
kgdb: all
	$(Q)case "$(GDB)" in ""|0|1) ;; *) echo "make kgdb: GDB=$(GDB): 1 starts gdb," \
		"0 or nothing prints its command" >&2; exit 2 ;; esac
	$(Q)$(CHECK_TOOLS) --with gdb $(ARCH)
	$(Q)$(MX) kgdb --arch $(ARCH) --builddir $(O) --cpus $(CPUS) --append "$(APPEND)" \
		--accel $(ACCEL) $(if $(GDB_PORT),--port $(GDB_PORT)) $(if $(filter 1,$(GDB)),--gdb)

# ---------------------------------------------------------------- matrices
# make test, torture and bench check the tools of every arch they are
# about to build, once, before building anything; then the Python side
# builds each configuration with make and boots it.
# QEMUs at once; empty: the host's cores plus one
TEST_JOBS ?=
TEST_TIMEOUT ?= 1200
# make test LOAD=1: the same run with a CPU hog per host core meanwhile
LOAD ?= 0
TORTURE_FACTOR ?= 20
TORTURE_CPUS ?= 4
BENCH_SECS ?=
BENCH_TASKS ?= 16
# make bench BENCH=latency: one benchmark (all, synchro, vfs, overhead,
# latency, piwalk, ww); BENCH_LOOPS=n turns of the latency test per load
BENCH ?= all
BENCH_LOOPS ?=
# boots per configuration: make bench reports the median and the range
# (default 3; 1 with ACCEL=icount, where every boot gives the same figures)
BENCH_RUNS ?=

.PHONY: test torture bench check-runner check-iso check-build check-verdicts \
	check-det-bench check-debug-cost check-stuck check-kgdb-fuzz
test:
	$(Q)$(CHECK_TOOLS) --with media,verify,gdb,grade $(SEL_ARCHES)
	$(Q)$(MX) test $(SELECT) $(if $(TEST_JOBS),-j $(TEST_JOBS)) --timeout $(TEST_TIMEOUT) \
		--accel $(ACCEL) --load $(LOAD)

torture:
	$(Q)$(CHECK_TOOLS) $(SEL_ARCHES)
	$(Q)$(MX) torture $(SELECT) $(if $(TEST_JOBS),-j $(TEST_JOBS)) --factor $(TORTURE_FACTOR) \
		$(if $(call given,CPUS),,--cpus $(TORTURE_CPUS)) --accel $(ACCEL)

bench:
	$(Q)$(CHECK_TOOLS) --with bench $(SEL_ARCHES)
	$(Q)$(MX) bench $(SEL_ARCH) $(SEL_CPUS) --mutex $(MUTEX) \
		--accel $(ACCEL) --tasks $(BENCH_TASKS) $(if $(BENCH_RUNS),--runs $(BENCH_RUNS)) \
		$(if $(BENCH_SECS),--secs $(BENCH_SECS)) --which $(BENCH) \
		$(if $(BENCH_LOOPS),--loops $(BENCH_LOOPS))

check-runner:
	$(Q)$(CHECK_TOOLS) i386
	$(Q)$(MX) check-runner $(if $(TEST_JOBS),-j $(TEST_JOBS)) --accel $(ACCEL)

check-iso:
	$(Q)$(CHECK_TOOLS) --with media i386
	$(Q)$(MX) check-iso --accel $(ACCEL)

# No stuck verdict on correct kernels: BOOTS boots of each lane.
check-stuck:
	$(Q)$(CHECK_TOOLS) i386
	$(Q)$(MX) check-stuck $(if $(BOOTS),--boots $(BOOTS)) \
		$(if $(TEST_JOBS),-j $(TEST_JOBS)) --accel $(ACCEL)

# Two icount boots give the same rows, and the mutex passes its gate; no
# wake path of the native build takes a tenth of a tick (latency gate).
# gdb against the kernel's stub through random operations (docs/gdb.md):
# OPS per arch (default 200), REPLAY= the run number that replays a run.
check-kgdb-fuzz:
	$(Q)$(CHECK_TOOLS) --with gdb $(SEL_ARCHES)
	$(Q)$(MX) check-kgdb-fuzz $(SEL_ARCH) $(SEL_CPUS) $(if $(REPLAY),--replay $(REPLAY)) \
		$(if $(OPS),--ops $(OPS)) --accel $(ACCEL)

check-det-bench:
	$(Q)$(CHECK_TOOLS) i386
	$(Q)$(MX) check-det-bench

# The debug build and the validator within their price (icount, exact).
check-debug-cost:
	$(Q)$(CHECK_TOOLS) i386
	$(Q)$(MX) check-debug-cost

check-verdicts:
	$(Q)$(CHECK_TOOLS) i386
	$(Q)$(MX) check-verdicts --accel $(ACCEL)

# A scenario's timeline: build/trace/<scenario>.json for Perfetto, and PNGs.
SCENARIO ?=
.PHONY: trace
trace:
	$(Q)$(CHECK_TOOLS) --with bench $(ARCH)
	$(Q)$(MX) trace --arch $(ARCH) --scenario "$(SCENARIO)" \
		--mutex $(if $(call given,MUTEX),$(MUTEX),spin) --accel $(ACCEL)

# The Promela model of the mutex, checked with spin (docs/mutex-design.md).
.PHONY: verify
verify:
	$(Q)$(CHECK_TOOLS) --with verify
	$(Q)scripts/verify-model.sh

# The build itself is checked on a fresh machine's terms (make test runs
# it): see scripts/check-build.sh.
check-build:
	$(Q)scripts/check-build.sh

# ---------------------------------------------------------------- labs
# make lab LAB=n DEST=dir: lab n's student tree (docs/labs/instructor.md).
# make student-repo DEST=dir: the students' repository, lab n's student
# tree on its branch labn.
# make grade [LAB=n] [ARCH=a] [RESULTS=path]: grade a lab, a line per
# check and "Score: N/M"; exit 0 full marks, 1 partial, 2 nothing graded.
# A student tree knows its lab (the file LAB at its top) and grades
# itself, a convenience; the full tree asks for LAB=n, and grades a
# submission as a grade of record with TREE=dir: only the lab's files are
# taken from it, into the instructor's tree.
# make grade-all LAB=n SUBMISSIONS=dir: every folder of dir, so graded.
# make check-labs: every lab's trees build, skeletons fail, tampering
# changes nothing, the known-wrong solutions lose points, the student
# repository holds no answer; ENTRY="lab1-x lab3-y" grades only those bank
# entries.
# make autograder LAB=n [DEST=zip]: lab n's Gradescope zip, its starting
# tree and no more (default build/autograder-labn.zip).
LAB ?=
DEST ?=
RESULTS ?= results.json
TREE ?=
SUBMISSIONS ?=
ENTRY ?=
.PHONY: lab student-repo grade grade-all check-labs autograder
lab:
	$(Q)test -n "$(LAB)" -a -n "$(DEST)" || \
		{ echo "make lab: LAB=n DEST=dir (a new or empty folder)"; exit 2; }
	$(Q)$(MX) lab --lab "$(LAB)" --dest "$(DEST)"

student-repo:
	$(Q)test -n "$(DEST)" || \
		{ echo "make student-repo: DEST=dir (a new or empty folder)"; exit 2; }
	$(Q)$(MX) student-repo --dest "$(DEST)"

grade:
	$(Q)$(CHECK_TOOLS) --with grade $(SEL_ARCHES)
	$(Q)$(MX) grade $(if $(LAB),--lab "$(LAB)") $(if $(TREE),--tree "$(TREE)") \
		$(SEL_ARCH) --results "$(RESULTS)" \
		--accel $(ACCEL)

grade-all:
	$(Q)test -n "$(LAB)" -a -n "$(SUBMISSIONS)" || \
		{ echo "make grade-all: LAB=n SUBMISSIONS=dir (one folder each)"; exit 2; }
	$(Q)$(CHECK_TOOLS) --with grade $(SEL_ARCHES)
	$(Q)$(MX) grade-all --lab "$(LAB)" --submissions "$(SUBMISSIONS)" \
		$(SEL_ARCH) --accel $(ACCEL)

autograder:
	$(Q)test -n "$(LAB)" || { echo "make autograder: LAB=n [DEST=zip]"; exit 2; }
	$(Q)mkdir -p build
	$(Q)$(MX) autograder --lab "$(LAB)" --dest "$(or $(DEST),build/autograder-lab$(LAB).zip)"

check-labs:
	$(Q)$(CHECK_TOOLS) --with grade $(ALL_ARCHES)
	$(Q)$(MX) check-labs $(foreach e,$(ENTRY),--entry $(e)) --accel $(ACCEL)

# ---------------------------------------------------------------- sizes
# Every mutex build of ARCH (or the one MUTEX names), with CONF if given,
# built first. The builds as the 2006 kernels were compiled (docs/sizes.md):
# make sizes ARCH=i386 CONF="CONFIG_CC_OPTIMIZE_FOR_SIZE=y
#	CONFIG_X86_REGPARM=y CONFIG_FRAME_POINTER=n"
SIZES_MUTEXES := $(if $(call given,MUTEX),$(MUTEX),$(ALL_MUTEXES))
sizes:
	$(Q)$(CHECK_TOOLS) --with gdb $(ARCH)
	$(Q)for m in $(SIZES_MUTEXES); do \
		$(MAKE) --no-print-directory ARCH=$(ARCH) MUTEX=$$m CONF="$(CONF)" all || exit 1; \
	done
	$(Q)scripts/sizes.sh $(ARCH) $(ARCH_CROSS) \
		$(foreach m,$(SIZES_MUTEXES),build/$(ARCH)-$(m)$(conf_suffix))

# ---------------------------------------------------------------- boot media
# x86 boots from a GRUB CD image (make iso), the Raspberry Pi from an SD
# card image (make sdcard); arch.mk says which (ARCH_MEDIA).
media_name_iso := a GRUB ISO (make iso)
media_name_sdcard := an SD card image (make sdcard)
media_arches = $(patsubst arch/%/arch.mk,%,$(shell grep -l '^ARCH_MEDIA := $(1)$$' arch/*/arch.mk))
wrong_media = { echo "make $(1): $(media_name_$(2)) is for ARCH=$(subst $(space),/,$(call media_arches,$(2))); ARCH=$(ARCH) boots from $(media_name_$(ARCH_MEDIA))"; exit 2; }

# make iso [APPEND="..."] [ISO=path]: GRUB, then the kernel with APPEND.
ISO ?= $(O)/mutexos.iso
.PHONY: iso
iso:
	$(Q)[ "$(ARCH_MEDIA)" = iso ] || $(call wrong_media,iso,iso)
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(CHECK_TOOLS) --with media $(ARCH)
	$(Q)t=$$(mktemp -d $(O)/.iso.XXXXXX) && trap 'rm -rf $$t' EXIT && \
	mkdir -p $$t/boot/grub && \
	cp $(O)/$(ARCH_BOOT_IMAGE) $$t/boot/mutexos.elf && \
	sed 's|^\(\s*multiboot /boot/mutexos.elf\)$$|\1 $(APPEND)|' \
		boot/grub/grub.cfg > $$t/boot/grub/grub.cfg && \
	grub-mkrescue -o $(ISO) $$t 2>/dev/null
	@echo "  ISO     $(ISO)"

# make sdcard FIRMWARE=<dir> [CMDLINE="..."]: a FAT image with the Pi
# boot firmware from <dir>, kernel7.img, boot/rpi/config.txt and, given
# CMDLINE, a cmdline.txt, built with mtools (no root).
# make sdcard-check: the same with fake firmware files and a sample
# command line, then its file list, config.txt and cmdline.txt are checked.
FIRMWARE ?=
CMDLINE ?=
.PHONY: sdcard sdcard-check
sdcard:
	$(Q)[ "$(ARCH_MEDIA)" = sdcard ] || $(call wrong_media,sdcard,sdcard)
	$(Q)test -n "$(FIRMWARE)" || \
		{ echo "make sdcard: FIRMWARE=<dir> is the firmware's boot/ folder (see docs/arm.md)"; exit 2; }
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(CHECK_TOOLS) --with media $(ARCH)
	$(Q)scripts/mksdcard.sh $(O)/sdcard.img $(FIRMWARE) $(O)/$(ARCH_RAW_IMAGE) \
		boot/rpi/config.txt "$(CMDLINE)"
	@echo "  SDCARD  $(O)/sdcard.img"

sdcard-check:
	$(Q)[ "$(ARCH_MEDIA)" = sdcard ] || $(call wrong_media,sdcard-check,sdcard)
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(CHECK_TOOLS) --with media $(ARCH)
	$(Q)scripts/mksdcard.sh --check $(O)/sdcard-check $(O)/$(ARCH_RAW_IMAGE) boot/rpi/config.txt

# ---------------------------------------------------------------- misc
# The folder of this configuration, for the tools that call make.
print-builddir:
	@echo $(O)

# How this configuration compiles a C file, for the grader's check of a
# submission before it runs (scripts/mutexos/precheck.py): it compiles
# the lab's files again with other outputs (-M, -E, -S), as the build
# did. A line each: the command, the race detector's flags, and the
# objects compiled without them.
print-cc:
	@echo $(CC) $(filter-out -MMD -MP,$(CPPFLAGS)) $(CFLAGS)
	@echo $(KCSAN_CFLAGS)
	@echo $(patsubst $(O)/%,%,$(KCSAN_OFF))

clean:
	rm -rf build

help:
	@echo 'MutexOS: make [TARGET] [VARIABLE=value ...]'
	@echo
	@echo 'Targets:'
	@echo '  all (default)  build one configuration into build/<arch>-<mutex>[-<conf>]/'
	@echo '  run            build, boot in QEMU to the console prompt (Ctrl-A x quits)'
	@echo '  test           the test matrix (the part that ARCH, MUTEX, CPUS select)'
	@echo '  gdb            QEMU halted with its gdb stub, gdb-multiarch attached'
	@echo '  kgdb           boot with the kernel'"'"'s gdb stub on a socket; prints the gdb command'
	@echo '  menuconfig     change the Kconfig options of one configuration'
	@echo '  sizes          fastpath instructions, mutex.o size, sizeof'
	@echo '  bench          benchmarks, CSV and plots under build/bench'
	@echo '  torture        a long stress run of the lock suites'
	@echo '  iso            a GRUB boot CD (x86); check-iso boots one'
	@echo '  sdcard         a Raspberry Pi SD card image (arm; FIRMWARE=dir [CMDLINE=...])'
	@echo '  verify         check the Promela models of the mutex and of the stuck check with spin'
	@echo '  check-runner   the test runner checks itself'
	@echo '  check-stuck    no stuck verdict on correct kernels (BOOTS=n boots of each lane)'
	@echo '  check-kgdb-fuzz  gdb on the kernel'"'"'s stub through random operations (REPLAY=, OPS=)'
	@echo '  check-det-bench  two icount boots agree exactly; the mutex'"'"'s regression gate; the latency gate'
	@echo '  check-debug-cost  the debug build under 10x native, the validator under 25x (icount)'
	@echo '  trace          a scenario'"'"'s timeline: build/trace/SCENARIO.json (Perfetto) and PNGs'
	@echo '  lab            a lab'"'"'s student tree (LAB=n DEST=dir; docs/labs/)'
	@echo '  student-repo   the students'"'"' repository, a branch per lab (DEST=dir)'
	@echo '  grade          grade a lab: points per check, Score: N/M (LAB=n in the full tree)'
	@echo '  grade-all      grade each submission of SUBMISSIONS=dir (LAB=n, full tree)'
	@echo '  check-labs     every lab: trees build, skeletons fail, the reference passes'
	@echo '  autograder     lab LAB=n'"'"'s Gradescope zip (DEST=zip, default build/autograder-labn.zip)'
	@echo '  clean          remove build/'
	@echo
	@echo 'Variables:'
	@echo '  ARCH=$(subst $(space),|,$(ALL_ARCHES))   (default i386)'
	@echo '  MUTEX=$(subst $(space),|,$(ALL_MUTEXES))   (default native)'
	@echo '  CPUS=n         CPUs to boot with (default 2)'
	@echo '  CONF="CONFIG_X=v ..."   Kconfig options over the defconfig'
	@echo '  APPEND="..."   kernel command line (run, gdb, iso); test=mutex* runs tests and exits'
	@echo '  CMDLINE="..."  the SD card'"'"'s cmdline.txt (sdcard)'
	@echo '  IMAGE=file     run another image of the build folder (arm: kernel7.img)'
	@echo '  ACCEL=tcg|kvm|icount   QEMU accelerator: kvm where /dev/kvm works; icount:'
	@echo '                 deterministic, guest time counts instructions (bench: build/bench-icount)'
	@echo '  BENCH_SECS=s BENCH_RUNS=n BENCH_TASKS=n   bench: run time, boots per configuration, VFS tasks'
	@echo '  BOOTS=n        check-stuck: boots of each build and CPU count (default 3)'
	@echo '  BENCH=latency BENCH_LOOPS=n   bench: one benchmark (all, synchro, vfs, overhead, latency, piwalk, ww),'
	@echo '                 turns of the latency test per load'
	@echo '  GDB_PORT=n GDB_BATCH=1   gdb port (default: a free one); batch: stop at start_kernel, bt, quit'
	@echo '  SCENARIO=vfs|convoy|handoff|abba   make trace: what to trace (MUTEX default spin)'
	@echo '  GDB=1          make kgdb: boot with kgdbwait and start gdb (console to a log)'
	@echo '  LOAD=n         make test with n CPU hogs per host core (a loaded host)'
	@echo '  TURNS=1        make run: the CPUs take turns on one host thread (ACCEL=tcg)'
	@echo '  V=1            show the commands'
	@echo
	@echo 'For test, torture and bench a variable left out means all its values.'
