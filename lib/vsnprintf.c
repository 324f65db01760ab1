// SPDX-License-Identifier: GPL-2.0
/*
 * Formatted output into a buffer: the engine under printk(), panic() and
 * every snprintf() in the kernel.
 *
 * It understands the C99 conversions a kernel needs: %d %i %u %x %X %o %c
 * %s %p %%, the length modifiers hh h l ll z t, the flags - 0 + space #,
 * and a field width and precision, either of which may be '*'. There is no
 * floating point and no %n.
 *
 * %p differs from C in the ways Linux's does: it always prints "0x" and as
 * many hex digits as a pointer has, so that addresses line up in columns,
 * and letters right after it select an extension. %pS prints a code address
 * as sprint_symbol() does ("function+0xoff/0xsize"), %ps as the bare
 * function name, or as plain %p when the address is in no function. Letters
 * that name no extension are eaten and the pointer printed as plain %p, so
 * a typo in a format never leaks into the output. An unknown conversion is
 * printed as written, where it is easy to spot.
 */
#include <kernel.h>
#include <string.h>
#include <kallsyms.h>

/*
 * Where the output goes. len counts every character the format produces,
 * also those that did not fit, since vsnprintf() has to return that count.
 */
struct outbuf {
	char *buf;
	size_t size;
	size_t len;
};

/* The flags of a conversion, as bits in format_spec.flags. */
#define FL_LEFT		0x01	/* '-': pad on the right */
#define FL_ZERO		0x02	/* '0': pad numbers with zeros */
#define FL_PLUS		0x04	/* '+': a sign even for positive numbers */
#define FL_SPACE	0x08	/* ' ': a space where a '+' would go */
#define FL_ALT		0x10	/* '#': 0x before hex, a leading 0 in octal */

enum length_mod {
	LEN_NONE,
	LEN_HH,
	LEN_H,
	LEN_L,
	LEN_LL,
	LEN_Z,
	LEN_T,
};

struct format_spec {
	unsigned int flags;
	int width;		/* 0: no minimum */
	int precision;		/* negative: none given */
	enum length_mod length;
	char conv;		/* the conversion letter */
};

/* Enough for a symbol name with its "+0xoff/0xsize" behind it. */
#define SYMBOL_BUF_LEN	128

static void put_char(struct outbuf *out, char c)
{
	if (out->len < out->size)
		out->buf[out->len] = c;
	out->len++;
}

static void put_chars(struct outbuf *out, const char *s, size_t n)
{
	while (n--)
		put_char(out, *s++);
}

static void put_repeated(struct outbuf *out, char c, int count)
{
	while (count-- > 0)
		put_char(out, c);
}

/* A string of n bytes, padded with spaces to the field width. */
static void put_field(struct outbuf *out, const struct format_spec *spec,
		      const char *s, size_t n)
{
	int pad = spec->width > (int)n ? spec->width - (int)n : 0;

	if (!(spec->flags & FL_LEFT))
		put_repeated(out, ' ', pad);
	put_chars(out, s, n);
	if (spec->flags & FL_LEFT)
		put_repeated(out, ' ', pad);
}

static void put_string(struct outbuf *out, const struct format_spec *spec,
		       const char *s)
{
	size_t n;

	/* A NULL string is a bug worth seeing, not worth a fault. */
	if (!s)
		s = "(null)";
	/* With a precision, s need not be terminated within it. */
	if (spec->precision >= 0)
		n = strnlen(s, spec->precision);
	else
		n = strlen(s);
	put_field(out, spec, s, n);
}

/*
 * Prints val in the given base: the sign character (or 0 for none), then the
 * prefix, then the digits, padded as the spec asks. The order of what gets
 * padded where follows C: spaces go outside the sign and prefix, zeros from
 * the '0' flag or from a precision go between them and the digits.
 */
static void put_number(struct outbuf *out, const struct format_spec *spec,
		       unsigned long long val, unsigned int base,
		       char sign, const char *prefix)
{
	/* 64 bits in octal are 22 digits. */
	char digits[24];
	const char *set = spec->conv == 'X' ? "0123456789ABCDEF"
					    : "0123456789abcdef";
	int ndigits = 0, zeros, len, pad;
	int precision = spec->precision;
	int prefix_len = strlen(prefix);

	for (; val; val /= base)
		digits[ndigits++] = set[val % base];

	/* Without a precision, at least one digit is printed, even for 0. */
	if (precision < 0)
		precision = 1;
	/* '#' in octal: raise the precision until the first digit is 0. */
	if ((spec->flags & FL_ALT) && base == 8 && precision <= ndigits)
		precision = ndigits + 1;

	zeros = precision > ndigits ? precision - ndigits : 0;
	len = (sign != 0) + prefix_len + zeros + ndigits;
	pad = spec->width > len ? spec->width - len : 0;

	/* The '0' flag is ignored when a precision was given, as in C. */
	if ((spec->flags & (FL_ZERO | FL_LEFT)) == FL_ZERO &&
	    spec->precision < 0) {
		zeros += pad;
		pad = 0;
	}

	if (!(spec->flags & FL_LEFT))
		put_repeated(out, ' ', pad);
	if (sign)
		put_char(out, sign);
	put_chars(out, prefix, prefix_len);
	put_repeated(out, '0', zeros);
	while (ndigits)
		put_char(out, digits[--ndigits]);
	if (spec->flags & FL_LEFT)
		put_repeated(out, ' ', pad);
}

/*
 * Small arguments were promoted to int when passed, so they are fetched as
 * int and narrowed back to the type the length modifier names.
 */
static long long fetch_signed(enum length_mod length, va_list *ap)
{
	switch (length) {
	case LEN_HH:
		return (signed char)va_arg(*ap, int);
	case LEN_H:
		return (short)va_arg(*ap, int);
	case LEN_L:
		return va_arg(*ap, long);
	case LEN_LL:
		return va_arg(*ap, long long);
	case LEN_Z:
		return (ssize_t)va_arg(*ap, size_t);
	case LEN_T:
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

static unsigned long long fetch_unsigned(enum length_mod length, va_list *ap)
{
	switch (length) {
	case LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:
		return va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
		return va_arg(*ap, size_t);
	case LEN_T:
		return (size_t)va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static void put_signed(struct outbuf *out, const struct format_spec *spec,
		       va_list *ap)
{
	long long val = fetch_signed(spec->length, ap);
	/* Computed in unsigned so that LLONG_MIN does not overflow. */
	unsigned long long mag = val < 0 ? 0ULL - (unsigned long long)val
					 : (unsigned long long)val;
	char sign = 0;

	if (val < 0)
		sign = '-';
	else if (spec->flags & FL_PLUS)
		sign = '+';
	else if (spec->flags & FL_SPACE)
		sign = ' ';
	put_number(out, spec, mag, 10, sign, "");
}

static void put_unsigned(struct outbuf *out, const struct format_spec *spec,
			 va_list *ap)
{
	unsigned long long val = fetch_unsigned(spec->length, ap);
	const char *prefix = "";
	unsigned int base = 10;

	if (spec->conv == 'o') {
		base = 8;
	} else if (spec->conv == 'x' || spec->conv == 'X') {
		base = 16;
		/* C prints no 0x before a zero, even with '#'. */
		if ((spec->flags & FL_ALT) && val)
			prefix = spec->conv == 'X' ? "0X" : "0x";
	}
	put_number(out, spec, val, base, 0, prefix);
}

/* Plain %p: "0x" and every hex digit of the pointer, leading zeros too. */
static void put_pointer(struct outbuf *out, const struct format_spec *spec,
			unsigned long addr)
{
	struct format_spec hex = *spec;

	hex.conv = 'x';
	hex.flags &= FL_LEFT;
	/* LAB 0 BEGIN: %p prints every hex digit of a pointer */
	hex.precision = 2 * sizeof(void *);
	put_number(out, &hex, addr, 16, 0, "0x");
	/* LAB 0 STUB: Print "0x" and every hex digit of the pointer,
	 * leading zeros too (16 on x86_64, 8 on i386 and arm). put_number()
	 * takes a prefix; the precision of a number is its minimum digit count.
	 *|	put_number(out, &hex, addr, 16, 0, "");
	 * LAB 0 END */
}

/*
 * %p and its extensions. Returns the format just past the letters that
 * followed the 'p'.
 */
static const char *put_pointer_ext(struct outbuf *out,
				   const struct format_spec *spec,
				   const char *fmt, unsigned long addr)
{
	char sym[SYMBOL_BUF_LEN];
	const char *name;

	switch (*fmt) {
	case 'S':
		sprint_symbol(sym, sizeof(sym), addr);
		put_string(out, spec, sym);
		break;
	case 's':
		name = kallsyms_lookup(addr, NULL, NULL);
		if (name)
			put_string(out, spec, name);
		else
			put_pointer(out, spec, addr);
		break;
	default:
		put_pointer(out, spec, addr);
		break;
	}

	while ((*fmt >= 'a' && *fmt <= 'z') || (*fmt >= 'A' && *fmt <= 'Z') ||
	       (*fmt >= '0' && *fmt <= '9'))
		fmt++;
	return fmt;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A width or precision: digits, or '*' to take it from the arguments. */
static const char *parse_count(const char *fmt, int *count, va_list *ap)
{
	if (*fmt == '*') {
		*count = va_arg(*ap, int);
		return fmt + 1;
	}
	*count = 0;
	while (is_digit(*fmt))
		*count = *count * 10 + (*fmt++ - '0');
	return fmt;
}

static const char *parse_flags(const char *fmt, unsigned int *flags)
{
	for (;; fmt++) {
		switch (*fmt) {
		case '-':
			*flags |= FL_LEFT;
			break;
		case '0':
			*flags |= FL_ZERO;
			break;
		case '+':
			*flags |= FL_PLUS;
			break;
		case ' ':
			*flags |= FL_SPACE;
			break;
		case '#':
			*flags |= FL_ALT;
			break;
		default:
			return fmt;
		}
	}
}

static const char *parse_length(const char *fmt, enum length_mod *length)
{
	switch (*fmt) {
	case 'h':
		if (fmt[1] == 'h') {
			*length = LEN_HH;
			return fmt + 2;
		}
		*length = LEN_H;
		return fmt + 1;
	case 'l':
		if (fmt[1] == 'l') {
			*length = LEN_LL;
			return fmt + 2;
		}
		*length = LEN_L;
		return fmt + 1;
	case 'z':
		*length = LEN_Z;
		return fmt + 1;
	case 't':
		*length = LEN_T;
		return fmt + 1;
	default:
		*length = LEN_NONE;
		return fmt;
	}
}

/*
 * Reads one conversion specification; fmt points just past its '%'.
 * Returns the position of the conversion letter, also stored in spec->conv.
 */
static const char *parse_spec(const char *fmt, struct format_spec *spec,
			      va_list *ap)
{
	spec->flags = 0;
	fmt = parse_flags(fmt, &spec->flags);

	fmt = parse_count(fmt, &spec->width, ap);
	/* A negative width from '*' means a '-' flag, as C says. */
	if (spec->width < 0) {
		spec->flags |= FL_LEFT;
		spec->width = spec->width < -__INT_MAX__ ? __INT_MAX__
							 : -spec->width;
	}

	/*
	 * Any negative precision means none was given, so one that '*'
	 * took from the arguments needs no special case.
	 */
	spec->precision = -1;
	if (*fmt == '.')
		fmt = parse_count(fmt + 1, &spec->precision, ap);

	fmt = parse_length(fmt, &spec->length);
	spec->conv = *fmt;
	return fmt;
}

/*
 * Does one conversion. start is its '%', fmt its conversion letter. Returns
 * where the rest of the format begins.
 */
static const char *convert(struct outbuf *out, const struct format_spec *spec,
			   const char *start, const char *fmt, va_list *ap)
{
	char c;

	switch (spec->conv) {
	case 'd':
	case 'i':
		put_signed(out, spec, ap);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		put_unsigned(out, spec, ap);
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_field(out, spec, &c, 1);
		break;
	case 's':
		put_string(out, spec, va_arg(*ap, const char *));
		break;
	case 'p':
		return put_pointer_ext(out, spec, fmt + 1,
				       (unsigned long)va_arg(*ap, void *));
	case '%':
		put_char(out, '%');
		break;
	case '\0':
		/* The format ended inside a conversion: show what was there. */
		put_chars(out, start, fmt - start);
		return fmt;
	default:
		/* Unknown: print it as written, so the mistake can be seen. */
		put_chars(out, start, fmt + 1 - start);
		break;
	}
	return fmt + 1;
}

/*
 * Formats into buf, writing at most size bytes including the terminating
 * NUL, which is always there when size > 0. Returns the length the whole
 * output would have had, so a result >= size means it was cut short.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct outbuf out = { .buf = buf, .size = size, .len = 0 };
	struct format_spec spec;
	const char *start;
	va_list ap;

	/* A copy of our own, so that the helpers can take its address. */
	va_copy(ap, args);
	while (*fmt) {
		if (*fmt != '%') {
			put_char(&out, *fmt++);
			continue;
		}
		start = fmt;
		fmt = parse_spec(fmt + 1, &spec, &ap);
		fmt = convert(&out, &spec, start, fmt, &ap);
	}
	va_end(ap);

	if (size)
		buf[out.len < size ? out.len : size - 1] = '\0';
	return out.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return len;
}

/*
 * Like vsnprintf(), but returns what was actually stored in buf (without
 * the NUL), so that callers can append with buf + len safely.
 */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int len = vsnprintf(buf, size, fmt, args);

	if (!size)
		return 0;
	return (size_t)len < size ? len : (int)(size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return len;
}

/* The value of c as a digit in bases up to 36, or 36 if it is none. */
static unsigned int digit_value(char c)
{
	if (is_digit(c))
		return c - '0';
	c |= 0x20;	/* ASCII lower case */
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	return 36;
}

/*
 * Reads an unsigned number. Base 0 picks it from the prefix as C source
 * does: 0x for hex, a leading 0 for octal, decimal otherwise. Base 16 also
 * accepts the 0x. "0x" with no hex digit behind it reads as a lone 0, with
 * *end left on the 'x'. Overflow is not detected.
 */
unsigned long simple_strtoul(const char *s, char **end, unsigned int base)
{
	unsigned long val = 0;
	unsigned int d;

	if ((base == 0 || base == 16) && s[0] == '0' &&
	    (s[1] | 0x20) == 'x' && digit_value(s[2]) < 16) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}

	for (; (d = digit_value(*s)) < base; s++)
		val = val * base + d;
	if (end)
		*end = (char *)s;
	return val;
}
