// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up the exception table (include/extable.h). The linker gathers
 * every __ex_table entry between __start___ex_table and __stop___ex_table
 * (linker.ld). The table is short, a few entries per nofault routine, so
 * a linear scan is fast enough and needs no sorting at build time.
 */
#include <kernel.h>
#include <extable.h>

extern const struct exception_table_entry __start___ex_table[];
extern const struct exception_table_entry __stop___ex_table[];

unsigned long __kgdb_nobreak search_exception_table(unsigned long pc)
{
	const struct exception_table_entry *e;

	for (e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == pc)
			return e->fixup;
	return 0;
}
