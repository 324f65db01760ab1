/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the console: the shell's commands (commands.c, demo.c). */
#ifndef _KERNEL_CONSOLE_SHELL_H
#define _KERNEL_CONSOLE_SHELL_H

/* The most words a command line is split into. */
#define SHELL_MAX_ARGS		8

struct shell_command {
	const char *name;
	const char *usage;	/* its arguments, for help */
	const char *help;	/* one line */
	void (*run)(int argc, char **argv);
};

/* The command named name, or NULL. */
const struct shell_command *shell_find_command(const char *name);

/* demo NAME [N] | demo stop */
void shell_demo(int argc, char **argv);

#endif
