/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included first by every C file the build compiles (the Makefile's
 * CPPFLAGS): the names whose value depends on when, where or from which
 * file a line is compiled are poisoned, so that a file compiles to the
 * same code wherever it is included and whenever it is built. The check
 * a grade makes before running a lab's files (docs/labs/instructor.md,
 * "What the grader trusts") compiles them again after the build, and a
 * header inside its own probe: a lab file that asked whether the
 * reference or the kernel's image exists (__has_include), how deep it
 * is included, or the time, could show that check other code than the
 * build compiled. The pragma applies to names a macro pastes too.
 */
#ifndef _REPRODUCIBLE_H
#define _REPRODUCIBLE_H
#ifndef __ASSEMBLY__
/* A system header: poisoning the compiler's own macros warns otherwise
 * (the linker script's preprocessing drops the lines that start with #). */
#pragma GCC system_header
#pragma GCC poison __has_include __has_include_next __INCLUDE_LEVEL__ __COUNTER__
#pragma GCC poison __TIME__ __DATE__ __TIMESTAMP__ __BASE_FILE__ __FILE_NAME__
#endif
#endif /* _REPRODUCIBLE_H */
