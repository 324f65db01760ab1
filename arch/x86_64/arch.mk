# x86_64: everything the build and the tools know about this arch.
#
# The ARCH_* facts at the top are read by make, by scripts/check-tools.sh
# and by the Python tooling (scripts/mutexos/arches.py): keep each one a
# plain "NAME := value" line, without make functions.

# ---------------------------------------------------------------- facts
ARCH_CROSS := x86_64-linux-gnu-
ARCH_TOOLS := x86_64-linux-gnu-gcc:gcc x86_64-linux-gnu-ld:binutils \
	qemu-system-x86_64:qemu-system-x86
ARCH_QEMU := qemu-system-x86_64
ARCH_QEMU_OPTS := -m 256M -device isa-debug-exit,iobase=0xf4,iosize=0x04
ARCH_QEMU_CPUS := smp
ARCH_MAX_CPUS := 8
ARCH_EXIT := isa-debug-exit
# where the test runner's results go besides the console, for the grader:
# QEMU's isa-debugcon at port 0xe9 (qemu.py)
ARCH_RESULTS := debugcon
ARCH_KVM := y
# cpu_relax() (pause) ends a vCPU's turn in QEMU's one-thread TCG: make
# test's boots may run their CPUs in turns on one host thread
ARCH_TCG_TURNS := y
# QEMU's multiboot loader refuses ELF64 images: it boots a 32-bit ELF copy
# of the same code (the entry is 32-bit code anyway); kernel.elf keeps the
# 64-bit symbols and debug information for gdb.
ARCH_BOOT_IMAGE := kernel.elf32
ARCH_SYMBOLS := kernel.elf
# boot media: a GRUB CD image (make iso) and the tools that build it
ARCH_MEDIA := iso
ARCH_MEDIA_TOOLS := grub-mkrescue:grub-common /usr/lib/grub/i386-pc:grub-pc-bin \
	xorriso:xorriso mformat:mtools
ARCH_GDB := i386:x86-64
# the kernel's gdb stub: on QEMU's second -serial (COM2); gdb's number
# and bytes of the pc, and the kind of its Z0 breakpoints
ARCH_KGDB_PORT := second-serial
ARCH_KGDB_PC := 16:8
ARCH_KGDB_BREAK_KIND := 1
# whether the stub gives gdb hardware watchpoints and breakpoints (Z1-Z4)
ARCH_KGDB_WATCHPOINTS := y
ARCH_TEST_CPUS_NATIVE := 1 2 4
ARCH_TEST_CPUS := 1 4
ARCH_BENCH_CPUS := 1 2 4 8

# ---------------------------------------------------------------- build
# Entered in 32-bit mode by multiboot 1, switches itself to long mode,
# linked and run at its load address 1 MiB (no higher half). All code and
# data sit below 2 GiB, so the small code model fits: absolute addresses
# are 32-bit immediates (see docs/x86.md).
LOAD_ADDR := 0x100000
ARCH_CFLAGS := -m64 -mcmodel=small -mno-red-zone -mno-mmx -mno-sse -mno-sse2 \
	-mno-80387 -mgeneral-regs-only
ARCH_ASFLAGS :=
ARCH_LDFLAGS := -m elf_x86_64 -z max-page-size=0x1000
ARCH_INCLUDES := -Iarch/x86/include
ARCH_DIRS := arch/x86_64 arch/x86
ARCH_POSTLINK = $(Q)$(OBJCOPY) -O elf32-i386 --strip-debug $@ $(O)/kernel.elf32
