// SPDX-License-Identifier: GPL-2.0
/*
 * The console's shell. It reads a line, with a little editing, splits it
 * into words and runs the command the first word names (commands.c), in
 * this task. While a command runs, Ctrl-C is a SIGINT to this task
 * (input.c): the command's interruptible waits end early and it returns.
 *
 * Editing: Backspace (or Delete) erases a character, Ctrl-U the line,
 * Ctrl-C drops the line, the up and down arrows step through the last
 * lines run. Other control bytes and bytes outside ASCII are dropped. A
 * line too long for the buffer, or one that lost characters to a full
 * input ring, is refused whole with a message: running what is left of
 * it could do something nobody typed.
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <console.h>
#include "shell.h"

#define PROMPT		"mutexos> "
#define LINE_MAX	256		/* 255 characters and the NUL */
#define HISTORY_LEN	8

#define CTRL_C		0x03
#define BELL		0x07
#define BACKSPACE	0x08
#define CTRL_U		0x15
#define ESC		0x1b
#define DELETE		0x7f

struct line {
	char text[LINE_MAX];
	unsigned int len;
	bool too_long;			/* characters were refused */
	unsigned long dropped_before;	/* console_rx_dropped() at its start */
	unsigned int back;		/* history entries stepped back */
};

static char history[HISTORY_LEN][LINE_MAX];
static unsigned int history_count;	/* lines ever added */

static void erase_chars(unsigned int n)
{
	while (n--)
		printk("\b \b");
}

static void line_replace(struct line *l, const char *text)
{
	erase_chars(l->len);
	strlcpy(l->text, text, sizeof(l->text));
	l->len = strlen(l->text);
	l->too_long = false;
	printk("%s", l->text);
}

static void line_add_char(struct line *l, char c)
{
	if (l->len < LINE_MAX - 1) {
		l->text[l->len++] = c;
		printk("%c", c);
	} else if (!l->too_long) {
		l->too_long = true;
		printk("%c", BELL);	/* once: a flood must not flood back */
	}
}

static void history_add(const char *text)
{
	const char *newest = history[(history_count - 1) % HISTORY_LEN];

	if (history_count && !strcmp(newest, text))
		return;
	strlcpy(history[history_count++ % HISTORY_LEN], text, LINE_MAX);
}

/* Up: one line further back; down: one nearer, to an empty line. */
static void history_step(struct line *l, bool up)
{
	unsigned int kept = min(history_count, (unsigned int)HISTORY_LEN);

	if (up && l->back < kept)
		l->back++;
	else if (!up && l->back > 0)
		l->back--;
	else
		return;
	line_replace(l, l->back ?
		     history[(history_count - l->back) % HISTORY_LEN] : "");
}

/*
 * After ESC: the arrows are ESC [ A (up) and ESC [ B (down), or ESC O A
 * and ESC O B. Any other sequence is read up to its final byte and
 * ignored, so that its letters do not land in the line.
 */
static void read_escape(struct line *l)
{
	int c = console_getc();

	if (c != '[' && c != 'O')
		return;
	do {
		c = console_getc();
	} while (c >= 0x30 && c <= 0x3f);	/* parameter bytes */
	if (c == 'A' || c == 'B')
		history_step(l, c == 'A');
}

/* True on Enter, false when Ctrl-C dropped the line. */
static bool read_line(struct line *l)
{
	static bool after_cr;
	int c;

	memset(l, 0, sizeof(*l));
	l->dropped_before = console_rx_dropped();
	for (;;) {
		c = console_getc();
		if (c < 0) {		/* a stray signal: nothing runs */
			flush_signals(current);
			continue;
		}
		if (c == '\n' && after_cr) {	/* CR LF is one Enter */
			after_cr = false;
			continue;
		}
		after_cr = c == '\r';
		switch (c) {
		case '\r':
		case '\n':
			printk("\n");
			return true;
		case CTRL_C:
			printk("^C\n");
			return false;
		case BACKSPACE:
		case DELETE:
			if (l->len) {
				l->len--;
				erase_chars(1);
			}
			break;
		case CTRL_U:
			erase_chars(l->len);
			l->len = 0;
			l->too_long = false;
			break;
		case ESC:
			read_escape(l);
			break;
		default:
			if (c >= 0x20 && c < 0x7f)
				line_add_char(l, c);
		}
	}
}

static bool line_usable(const struct line *l)
{
	unsigned long dropped = console_rx_dropped() - l->dropped_before;

	if (l->too_long) {
		printk("console: line longer than %d characters: ignored\n",
		       LINE_MAX - 1);
		return false;
	}
	if (dropped) {
		printk("console: %lu characters dropped (typed faster than "
		       "they were read): line ignored\n", dropped);
		return false;
	}
	return true;
}

static const char *skip_blanks(const char *text)
{
	while (*text == ' ')
		text++;
	return text;
}

/* Splits text at spaces, in place; the number of words, or -1. */
static int split_words(char *text, char **argv)
{
	int argc = 0;
	char *p = text;

	for (;;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			return argc;
		if (argc == SHELL_MAX_ARGS)
			return -1;
		argv[argc++] = p;
		while (*p && *p != ' ')
			p++;
	}
}

static void run_command(const struct shell_command *cmd, int argc,
			char **argv)
{
	console_set_foreground(current);
	cmd->run(argc, argv);
	console_set_foreground(NULL);
	if (signal_pending(current)) {
		printk("(interrupted)\n");
		flush_signals(current);
	}
}

static void run_line(struct line *l)
{
	const struct shell_command *cmd;
	char *argv[SHELL_MAX_ARGS];
	int argc;

	l->text[l->len] = '\0';
	if (!*skip_blanks(l->text))
		return;		/* nothing to run or to remember */
	history_add(l->text);
	argc = split_words(l->text, argv);
	if (argc < 0) {
		printk("console: more than %d words: ignored\n",
		       SHELL_MAX_ARGS);
		return;
	}
	cmd = shell_find_command(argv[0]);
	if (!cmd) {
		printk("%s: unknown command ('help' lists them)\n", argv[0]);
		return;
	}
	run_command(cmd, argc, argv);
}

void __noreturn console_run(void)
{
	static struct line line;

	printk("MutexOS console: 'help' lists the commands, "
	       "Ctrl-\\ then h the SysRq keys.\n");
	for (;;) {
		printk(PROMPT);
		if (read_line(&line) && line.len && line_usable(&line))
			run_line(&line);
	}
}
