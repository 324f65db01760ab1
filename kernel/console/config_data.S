/*
 * The .config this kernel was built from, for the console's config
 * command. The Makefile names the file (KERNEL_CONFIG_FILE) and rebuilds
 * this object when it changes.
 */
	.section .rodata
	.globl kernel_config, kernel_config_end
kernel_config:
	.incbin KERNEL_CONFIG_FILE
kernel_config_end:
