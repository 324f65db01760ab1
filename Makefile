# MutexOS: one entry point for building, booting, testing and measuring.
#
#   make [ARCH=i386|x86_64|arm] [MUTEX=native|dec|xchg|null|debug]
#   make run  [ARCH=..] [CPUS=n]       boot in QEMU, serial console here
#   make test [ARCH=..] [CPUS=..] [MUTEX=..]   the test matrix, or a part
#   make gdb  [ARCH=..]                QEMU halted, gdb-multiarch attached
#   make menuconfig [ARCH=..] [MUTEX=..]
#   make sizes [ARCH=..]               static figures of the mutex code
#   make bench [ARCH=..] [CPUS=..]     benchmarks, CSV and plots (scripts/bench.mk)
#
# A configuration is ARCH, MUTEX and any CONF="CONFIG_X=y ..." overrides;
# each one builds into build/<arch>-<mutex>[-<overrides>]/.

ALL_ARCHES := $(notdir $(patsubst %/Kconfig,%,$(wildcard arch/*/Kconfig)))
ALL_MUTEXES := native dec xchg null debug

ARCH ?= i386
MUTEX ?= native
CPUS ?= 2
CONF ?=
ACCEL ?= tcg
V ?= 0

ifeq ($(filter $(ARCH),$(ALL_ARCHES)),)
$(error ARCH=$(ARCH) is not one of: $(ALL_ARCHES))
endif
ifeq ($(filter $(MUTEX),$(ALL_MUTEXES)),)
$(error MUTEX=$(MUTEX) is not one of: $(ALL_MUTEXES))
endif

empty :=
space := $(empty) $(empty)
conf_suffix := $(if $(strip $(CONF)),-$(subst $(space),-,$(subst CONFIG_,,$(strip $(CONF)))))
CFG := $(ARCH)-$(MUTEX)$(conf_suffix)
O := build/$(CFG)

ifeq ($(V),1)
Q :=
else
Q := @
endif

include arch/$(ARCH)/Makefile.arch
# An arch may add targets of its own (arm: sdcard); make alone still builds.
.DEFAULT_GOAL := all

.PHONY: all run test gdb sizes menuconfig clean tools check-runner
all: $(O)/kernel.elf

# ---------------------------------------------------------------- tools
tools:
	$(Q)scripts/check-tools.sh $(ARCH)

# ---------------------------------------------------------------- config
# The MUTEX choice is a config fragment applied over the arch defconfig.
mutex_frag_native := CONFIG_MUTEX_NATIVE=y
mutex_frag_dec := CONFIG_MUTEX_DEC=y
mutex_frag_xchg := CONFIG_MUTEX_XCHG=y
mutex_frag_null := CONFIG_MUTEX_NULL=y
mutex_frag_debug := CONFIG_MUTEX_NULL=y CONFIG_DEBUG_MUTEXES=y CONFIG_DEBUG_SPINLOCK=y

KCONFIG_ENV := srctree=$(CURDIR) SRCARCH=$(ARCH) \
	KCONFIG_CONFIG=$(CURDIR)/$(O)/.config \
	KCONFIG_AUTOHEADER=$(CURDIR)/$(O)/include/generated/autoconf.h \
	KCONFIG_AUTOCONFIG=$(CURDIR)/$(O)/include/config/auto.conf \
	KCONFIG_TRISTATE=$(CURDIR)/$(O)/include/config/tristate.conf

$(O)/.config: configs/$(ARCH)_defconfig Kconfig arch/$(ARCH)/Kconfig | tools
	$(Q)mkdir -p $(O)/include/config $(O)/include/generated
	$(Q)cp $< $@
	$(Q)for o in $(mutex_frag_$(MUTEX)) $(CONF); do \
		sed -i "/^$${o%%=*}=/d; /^# $${o%%=*} is not set/d" $@; \
		echo "$$o" >> $@; \
	done
	$(Q)cd $(O) && $(KCONFIG_ENV) kconfig-conf -s --olddefconfig $(CURDIR)/Kconfig
	@echo "  CONFIG  $(O)/.config"

$(O)/include/generated/autoconf.h: $(O)/.config
	$(Q)cd $(O) && $(KCONFIG_ENV) kconfig-conf -s --silentoldconfig $(CURDIR)/Kconfig
	$(Q)touch $@

menuconfig: $(O)/.config
	cd $(O) && $(KCONFIG_ENV) kconfig-mconf $(CURDIR)/Kconfig

# ---------------------------------------------------------------- build
SRCS := $(wildcard kernel/*.c lib/*.c tests/*.c) $(ARCH_SRCS)
OBJS := $(patsubst %,$(O)/%.o,$(basename $(SRCS)))

INCLUDES := -I$(O)/include -Iinclude -Iarch/$(ARCH)/include $(ARCH_INCLUDES)
CPPFLAGS := -include $(O)/include/generated/autoconf.h $(INCLUDES) \
	-D__KERNEL__ -MMD -MP
CFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-builtin -nostdlib \
	-fno-pic -fno-pie -fno-stack-protector -fno-omit-frame-pointer \
	-fno-optimize-sibling-calls -fno-strict-aliasing -fno-common \
	-Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-Wno-missing-field-initializers -Werror $(ARCH_CFLAGS)
ASFLAGS := -D__ASSEMBLY__ $(ARCH_ASFLAGS)
LIBGCC := $(shell $(CC_$(ARCH)) $(ARCH_CFLAGS) -print-libgcc-file-name 2>/dev/null)
CC := $(CC_$(ARCH))
LD := $(CROSS_$(ARCH))ld
NM := $(CROSS_$(ARCH))nm
OBJCOPY := $(CROSS_$(ARCH))objcopy
OBJDUMP := $(CROSS_$(ARCH))objdump
SIZE := $(CROSS_$(ARCH))size

$(O)/%.o: %.c $(O)/include/generated/autoconf.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(O)/%.o: %.S $(O)/include/generated/autoconf.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(ASFLAGS) -c $< -o $@

$(O)/linker.lds: linker.ld $(O)/include/generated/autoconf.h
	$(Q)$(CC) $(filter-out -MMD -MP,$(CPPFLAGS)) -DLOAD_ADDR=$(LOAD_ADDR) -P -E -x c $< \
		| grep -v '^#' > $@

# The symbol table takes a second link: the first image gives the
# addresses, the table goes in after all code, so code does not move.
KLINK = $(LD) $(ARCH_LDFLAGS) -nostdlib -z noexecstack -T $(O)/linker.lds
$(O)/kernel.elf: $(OBJS) $(O)/linker.lds scripts/kallsyms.py
	$(Q)$(KLINK) -o $(O)/.tmp_kernel1 $(OBJS) $(LIBGCC)
	$(Q)$(NM) -n $(O)/.tmp_kernel1 | scripts/kallsyms.py > $(O)/.tmp_kallsyms.S
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(ASFLAGS) -c $(O)/.tmp_kallsyms.S -o $(O)/.tmp_kallsyms.o
	$(Q)$(KLINK) -o $(O)/.tmp_kernel2 $(OBJS) $(O)/.tmp_kallsyms.o $(LIBGCC)
	$(Q)$(NM) -n $(O)/.tmp_kernel2 | scripts/kallsyms.py > $(O)/.tmp_kallsyms2.S
	$(Q)cmp -s $(O)/.tmp_kallsyms.S $(O)/.tmp_kallsyms2.S || \
		{ echo "kallsyms: symbol table did not settle"; exit 1; }
	$(Q)mv $(O)/.tmp_kernel2 $@
	@echo "  LD      $@"
	$(ARCH_POSTLINK)

-include $(OBJS:.o=.d)

# ---------------------------------------------------------------- run
RUNNER := scripts/run-tests.py
RUN_IMAGE ?= $(O)/kernel.elf
APPEND ?=

run: all
	$(RUNNER) --interactive --accel $(ACCEL) \
		"name=$(CFG),arch=$(ARCH),kernel=$(RUN_IMAGE),cpus=$(CPUS),append=$(APPEND)"

gdb: all
	scripts/gdb.sh $(ARCH) $(O)/kernel.elf $(RUN_IMAGE) $(CPUS)

# ---------------------------------------------------------------- test
include scripts/test.mk

# ---------------------------------------------------------------- bench
include scripts/bench.mk

# Every mutex build of ARCH (or the one MUTEX names), built first.
SIZES_MUTEXES := $(if $(filter command line,$(origin MUTEX)),$(MUTEX),$(ALL_MUTEXES))
sizes:
	$(Q)WITH_GDB=1 scripts/check-tools.sh $(ARCH)
	$(Q)for m in $(SIZES_MUTEXES); do \
		$(MAKE) --no-print-directory ARCH=$(ARCH) MUTEX=$$m CONF= all || exit 1; \
	done
	$(Q)scripts/sizes.sh $(ARCH) $(CROSS_$(ARCH)) \
		$(foreach m,$(SIZES_MUTEXES),build/$(ARCH)-$(m))

clean:
	rm -rf build

# The folder of this configuration, for the tools that call make.
.PHONY: print-builddir
print-builddir:
	@echo $(O)

# ---------------------------------------------------------------- GRUB ISO
# A bootable CD image with GRUB, for x86 machines and QEMU's -cdrom.
.PHONY: iso check-iso
iso: all
	$(Q)WITH_ISO=1 scripts/check-tools.sh $(ARCH)
	$(Q)rm -rf $(O)/iso && mkdir -p $(O)/iso/boot/grub
	$(Q)cp $(RUN_IMAGE) $(O)/iso/boot/mutexos.elf
	$(Q)cp boot/grub/grub.cfg $(O)/iso/boot/grub/
	$(Q)grub-mkrescue -o $(O)/mutexos.iso $(O)/iso 2>/dev/null
	@echo "  ISO     $(O)/mutexos.iso"

# Boots an ISO (GRUB, then the kernel) that runs a few suites, and checks
# that they passed.
check-iso: iso
	$(Q)rm -rf $(O)/iso-check && cp -r $(O)/iso $(O)/iso-check
	$(Q)sed -i 's|multiboot /boot/mutexos.elf$$|& test=smp*,kernel*,mutex.*|' \
		$(O)/iso-check/boot/grub/grub.cfg
	$(Q)grub-mkrescue -o $(O)/mutexos-check.iso $(O)/iso-check 2>/dev/null
	$(Q)timeout 600 $(QEMU_$(ARCH)) -cdrom $(O)/mutexos-check.iso -smp 2 -m 256M \
		-display none -serial file:$(O)/iso-boot.log -monitor none \
		-no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04; \
		[ $$? -eq 1 ] || { echo "GRUB boot failed: see $(O)/iso-boot.log"; exit 1; }
	$(Q)grep -q 'Subtest: mutex\b' $(O)/iso-boot.log || \
		{ echo "GRUB boot: no test results in $(O)/iso-boot.log"; exit 1; }
	@echo "GRUB boot: the kernel booted from the ISO and passed its tests ($(O)/iso-boot.log)"
