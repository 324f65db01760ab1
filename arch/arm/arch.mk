# arm: ARMv7-A (Cortex-A7), Raspberry Pi 2 Model B and QEMU raspi2b;
# everything the build and the tools know about this arch.
#
# The ARCH_* facts at the top are read by make, by scripts/check-tools.sh
# and by the Python tooling (scripts/mutexos/arches.py): keep each one a
# plain "NAME := value" line, without make functions.

# ---------------------------------------------------------------- facts
ARCH_CROSS := arm-none-eabi-
ARCH_TOOLS := arm-none-eabi-gcc:gcc-arm-none-eabi \
	arm-none-eabi-ld:binutils-arm-none-eabi \
	qemu-system-arm:qemu-system-arm
ARCH_QEMU := qemu-system-arm
ARCH_QEMU_OPTS := -M raspi2b -semihosting-config enable=on,target=native
# raspi2b always has four cores: the kernel gets maxcpus=N instead
ARCH_QEMU_CPUS := maxcpus
ARCH_MAX_CPUS := 4
ARCH_EXIT := semihosting
# where the test runner's results go besides the console, for the grader:
# semihosting's SYS_WRITE0 to the chardev of -semihosting-config (qemu.py)
ARCH_RESULTS := semihosting
ARCH_KVM := n
# cpu_relax() (yield) ends a vCPU's turn in QEMU's one-thread TCG: make
# test's boots may run their CPUs in turns on one host thread
ARCH_TCG_TURNS := y
ARCH_BOOT_IMAGE := kernel.elf
ARCH_SYMBOLS := kernel.elf
# the flat image the Pi firmware loads; make test boots it too
ARCH_RAW_IMAGE := kernel7.img
# make test also boots it through a stand-in for the firmware, which QEMU
# starts in its place and which finds kernel7.img loaded where the
# firmware loads it; it enters it as the board does (arch/arm/fwshim/)
ARCH_FIRMWARE_SHIM := fwshim.elf
ARCH_FIRMWARE_LOAD := 0x8000
# boot media: an SD card image (make sdcard) and the tools that build it
ARCH_MEDIA := sdcard
ARCH_MEDIA_TOOLS := mcopy:mtools mformat:mtools
ARCH_GDB := arm
# the kernel's gdb stub: on QEMU's second -serial (the mini UART); gdb's number
# and bytes of the pc, and the kind of its Z0 breakpoints
ARCH_KGDB_PORT := second-serial
ARCH_KGDB_PC := 15:4
ARCH_KGDB_BREAK_KIND := 4
# whether the stub gives gdb hardware watchpoints and breakpoints (Z1-Z4)
ARCH_KGDB_WATCHPOINTS := y
ARCH_TEST_CPUS_NATIVE := 1 2 4
ARCH_TEST_CPUS := 1 4
ARCH_BENCH_CPUS := 1 2 4

# ---------------------------------------------------------------- build
# Linked at 0x8000, where the Pi firmware loads kernel7.img; the entry code
# moves the image there when a loader put it elsewhere (QEMU: 0x10000).
LOAD_ADDR := 0x8000
# ARM state only, and APCS frames: every function, leaves included, keeps
# {fp, sp, lr, pc} in a fixed layout, so the backtrace can walk fp alone.
ARCH_CFLAGS := -march=armv7-a -mtune=cortex-a7 -marm -mfloat-abi=soft \
	-mno-unaligned-access -mapcs-frame -mabi=aapcs
ARCH_ASFLAGS :=
ARCH_LDFLAGS :=
ARCH_INCLUDES :=
ARCH_DIRS := arch/arm
# The firmware boots a flat binary; QEMU takes either.
ARCH_POSTLINK = $(Q)$(OBJCOPY) -O binary $@ $(O)/kernel7.img && \
	echo "  OBJCOPY $(O)/kernel7.img"

# The firmware stand-in, linked on its own below the kernel.
FWSHIM_OBJS := $(O)/arch/arm/fwshim/entry.o $(O)/arch/arm/fwshim/fdt.o
# A program of its own, without the kernel's race detector runtime.
ARCH_KCSAN_OFF := $(FWSHIM_OBJS)
ARCH_EXTRA_IMAGES := $(O)/fwshim.elf
$(O)/fwshim.elf: $(FWSHIM_OBJS) arch/arm/fwshim/fwshim.lds
	$(Q)$(LD) $(ARCH_LDFLAGS) -nostdlib -T arch/arm/fwshim/fwshim.lds \
		-o $@ $(FWSHIM_OBJS)
	@echo "  LD      $@"
-include $(FWSHIM_OBJS:.o=.d)
