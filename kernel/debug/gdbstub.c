// SPDX-License-Identifier: GPL-2.0
/*
 * The GDB remote serial protocol, the stub's side: packets $body#cs with
 * a two-digit checksum, acknowledged with + or refused with - (then gdb
 * sends again). Garbage between packets is skipped; a bad checksum, a
 * bad hex digit in it or a packet too long for the buffer gets a '-'.
 * A packet's body is at most PACKET_SIZE characters either way, and a
 * request whose reply would not fit gets an error, never a cut reply.
 *
 * A break (0x03) that comes while the stub waits for the ack of a stop
 * reply is dropped: gdb sent it before it saw that reply, which answers
 * it. One that comes between two packets, after that ack, gdb sent
 * while it drove a next or a finish step by step: the next c or s
 * stops at once with SIGINT, without running the kernel.
 *
 * Tasks are gdb's threads, thread id = pid + 1 (gdb reserves 0). A task
 * running on a stopped CPU shows the registers that CPU's trap or IPI
 * saved; a sleeping task the ones its context switch saved, so that
 * "thread N" then "bt" shows where it sleeps.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <time.h>
#include <kgdb.h>
#include <asm/ptrace.h>
#include "kgdb.h"

#define PACKET_SIZE	2048	/* a body's length; told to gdb in qSupported */
#define THREADS_PER_PACKET	128
#define MAX_TASKS_WALKED	4096	/* a broken list must not hang us */

/* A body and its NUL; m and M move at most what fits in hex. */
static char in_buf[PACKET_SIZE + 1];
static char out_buf[PACKET_SIZE + 1];
static u8 mem_buf[PACKET_SIZE / 2];
static u8 reg_image[KGDB_REGS_BYTES];
/* The 'g' reply: the image in hex, in one packet. */
_Static_assert(2 * KGDB_REGS_BYTES <= PACKET_SIZE, "a 'g' reply outgrows a packet");
static const char hex_digits[] = "0123456789abcdef";

/* gdb sent c or s and waits for the stop reply: it is attached. */
static bool gdb_waiting;
/* A break between packets: the next resume is a stop. */
static bool break_pending;

struct session {
	unsigned int cpu;		/* the CPU in the stub */
	int signo;
	struct task_struct *gthread;	/* Hg: whose registers g reads */
	struct task_struct *cthread;	/* Hc: which thread s steps */
	int thread_pos;			/* q[fs]ThreadInfo: where we are */
};

/* ---- the line ---- */

/*
 * Between two looks at an empty port, a pause: under QEMU's TCG every
 * look at a device takes QEMU's global lock, and a loop of nothing else
 * starves the thread that accepts gdb's connection and hands over its
 * bytes. The receive FIFO (16 bytes on a 16550, 8 on the mini UART)
 * holds 0.7 ms or more at 115200 baud: no byte is lost meanwhile.
 */
#define POLL_PAUSE_US	100

static int getc_wait(void)
{
	int c;

	while ((c = arch_kgdb_io_getc()) < 0)
		udelay(POLL_PAUSE_US);
	return c;
}

static int hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The next packet with a good checksum, acknowledged; NUL-terminated. */
static char *get_packet(void)
{
	for (;;) {
		unsigned int len = 0;
		bool too_long = false;
		u8 sum = 0;
		int c, hi, lo;

		while ((c = getc_wait()) != '$')
			if (c == 0x03)	/* between packets: acks, garbage */
				break_pending = true;
		while ((c = getc_wait()) != '#') {
			if (c == '$') {	/* a new start: drop the old */
				len = sum = 0;
				too_long = false;
				continue;
			}
			sum += c;
			if (len < PACKET_SIZE)
				in_buf[len++] = c;
			else
				too_long = true;
		}
		in_buf[len] = '\0';
		hi = hex_val(getc_wait());
		lo = hex_val(getc_wait());
		if (hi < 0 || lo < 0 || (hi << 4 | lo) != sum || too_long) {
			arch_kgdb_io_putc('-');
			continue;
		}
		arch_kgdb_io_putc('+');
		return in_buf;
	}
}

/* Sent again until gdb acknowledges it with '+' (a break meanwhile: dropped). */
static void put_packet(const char *body)
{
	int c;

	do {
		const char *p;
		u8 sum = 0;

		arch_kgdb_io_putc('$');
		for (p = body; *p; p++) {
			arch_kgdb_io_putc(*p);
			sum += *p;
		}
		arch_kgdb_io_putc('#');
		arch_kgdb_io_putc(hex_digits[sum >> 4]);
		arch_kgdb_io_putc(hex_digits[sum & 15]);
		while ((c = getc_wait()) != '+' && c != '-')
			;
	} while (c != '+');
}

/* ---- hex ---- */

static char *mem_to_hex(char *out, const u8 *mem, size_t len)
{
	while (len--) {
		*out++ = hex_digits[*mem >> 4];
		*out++ = hex_digits[*mem++ & 15];
	}
	*out = '\0';
	return out;
}

/* len bytes from 2 * len hex digits; -EINVAL if one is no digit. */
static int hex_to_mem(u8 *mem, const char *hex, size_t len)
{
	while (len--) {
		int hi = hex_val(hex[0]), lo = hi < 0 ? -1 : hex_val(hex[1]);

		if (lo < 0)
			return -EINVAL;
		*mem++ = hi << 4 | lo;
		hex += 2;
	}
	return 0;
}

/* A hex number at *p, which moves past it; false if there is none. */
static bool parse_hex(const char **p, unsigned long *val)
{
	const char *start = *p;
	unsigned long v = 0;
	int d;

	while ((d = hex_val(**p)) >= 0) {
		v = v << 4 | d;
		(*p)++;
	}
	*val = v;
	return *p != start;
}

static bool parse_sep(const char **p, char sep)
{
	if (**p != sep)
		return false;
	(*p)++;
	return true;
}

static void reply_error(int err)
{
	snprintf(out_buf, sizeof(out_buf), "E%02x", -err & 0xff);
}

static void reply_ok(void)
{
	strcpy(out_buf, "OK");
}

/* ---- threads ---- */

static unsigned long task_tid(struct task_struct *p)
{
	return p->pid + 1;
}

static struct task_struct *find_tid(unsigned long tid)
{
	struct task_struct *p;
	int n = 0;

	list_for_each_entry(p, &task_list, tasks) {
		if (task_tid(p) == tid)
			return p;
		if (++n > MAX_TASKS_WALKED)
			break;
	}
	return NULL;
}

/* The stopped CPU p runs on, or -1 (asleep, or on a CPU that ran on). */
static int stopped_cpu_of(struct task_struct *p)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (kgdb_cpus[cpu].regs && kgdb_cpus[cpu].task == p)
			return cpu;
	return -1;
}

/* p's registers into reg_image; its live pt_regs if it is on a CPU. */
static int thread_regs(struct task_struct *p, struct pt_regs **live)
{
	int cpu = stopped_cpu_of(p);

	*live = NULL;
	memset(reg_image, 0, sizeof(reg_image));
	if (cpu >= 0) {
		*live = kgdb_cpus[cpu].regs;
		arch_kgdb_get_regs(reg_image, *live);
		return 0;
	}
	if (READ_ONCE(p->on_cpu))
		return -EAGAIN;	/* on a CPU that did not stop */
	arch_kgdb_sleeping_regs(reg_image, p);
	return 0;
}

static int regs_bytes(void)
{
	int i, n = 0;

	for (i = 0; i < arch_kgdb_nr_regs; i++)
		n += arch_kgdb_regs[i].size;
	return n;
}

static int reg_offset(int regno)
{
	int i, n = 0;

	for (i = 0; i < regno; i++)
		n += arch_kgdb_regs[i].size;
	return n;
}

/* How a stop reply names a data watchpoint's hit, by enum kgdb_hw_type. */
static const char *const watch_reasons[] = {
	[KGDB_HW_WRITE] = "watch",
	[KGDB_HW_READ] = "rwatch",
	[KGDB_HW_ACCESS] = "awatch",
};

/*
 * T, the signal, and for a data watchpoint's hit its kind and the address
 * it watches: gdb finds its watchpoint by that address and shows the old
 * and new value. A hardware breakpoint's hit is told by its pc alone.
 */
static void stop_reply(struct session *s)
{
	struct kgdb_cpu *stopped = &kgdb_cpus[s->cpu];
	char *out = out_buf;

	out += snprintf(out, sizeof(out_buf), "T%02x", s->signo);
	if (stopped->watch_type > KGDB_HW_EXEC)
		out += snprintf(out, out_buf + sizeof(out_buf) - out, "%s:%lx;",
				watch_reasons[stopped->watch_type],
				stopped->watch_addr);
	snprintf(out, out_buf + sizeof(out_buf) - out, "thread:%lx;",
		 task_tid(stopped->task));
}

/* One thread id in a list: its separator and up to a long in hex. */
#define TID_CHARS	(1 + 2 * (int)sizeof(long))

/* qfThreadInfo and qsThreadInfo: the tasks in chunks, then 'l'. */
static void thread_list(struct session *s, bool first)
{
	struct task_struct *p;
	char *out = out_buf;
	int i = 0, sent = 0;

	if (first)
		s->thread_pos = 0;
	list_for_each_entry(p, &task_list, tasks) {
		if (i++ < s->thread_pos)
			continue;
		if (sent == THREADS_PER_PACKET || i > MAX_TASKS_WALKED ||
		    out_buf + PACKET_SIZE - out < TID_CHARS)
			break;
		out += snprintf(out, TID_CHARS + 1, "%c%lx",
				sent++ ? ',' : 'm', task_tid(p));
	}
	s->thread_pos += sent;
	if (!sent)
		strcpy(out_buf, "l");
}

/* qThreadExtraInfo: what info threads shows after the thread's id. */
static void thread_extra_info(const char *args)
{
	struct task_struct *p;
	unsigned long tid;
	char text[64];
	int cpu;

	if (!parse_sep(&args, ',') || !parse_hex(&args, &tid) ||
	    !(p = find_tid(tid))) {
		reply_error(-ENOENT);
		return;
	}
	cpu = stopped_cpu_of(p);
	if (cpu >= 0)
		snprintf(text, sizeof(text), "%s %c on CPU %d", p->comm,
			 task_state_char(p), cpu);
	else if (READ_ONCE(p->on_cpu))
		snprintf(text, sizeof(text), "%s %c on CPU %d, not stopped",
			 p->comm, task_state_char(p), p->thread_info->cpu);
	else
		snprintf(text, sizeof(text), "%s %c", p->comm,
			 task_state_char(p));
	mem_to_hex(out_buf, (const u8 *)text, strlen(text));
}

/* Hg and Hc; 0 and -1 mean any thread: the one that trapped. */
static void set_thread(struct session *s, const char *args)
{
	char op = *args++;
	struct task_struct *p = kgdb_cpus[s->cpu].task;
	unsigned long tid;

	if (*args != '-' && (!parse_hex(&args, &tid) || *args)) {
		reply_error(-EINVAL);
		return;
	}
	if (*args != '-' && tid && !(p = find_tid(tid))) {
		reply_error(-ENOENT);
		return;
	}
	if (op == 'g')
		s->gthread = p;
	else
		s->cthread = p;
	reply_ok();
}

static void query(struct session *s, const char *q)
{
	if (!strncmp(q, "qSupported", 10))
		snprintf(out_buf, sizeof(out_buf), "PacketSize=%x;vContSupported+",
			 PACKET_SIZE);
	else if (!strcmp(q, "qfThreadInfo"))
		thread_list(s, true);
	else if (!strcmp(q, "qsThreadInfo"))
		thread_list(s, false);
	else if (!strncmp(q, "qThreadExtraInfo", 16))
		thread_extra_info(q + 16);
	else if (!strcmp(q, "qC"))
		snprintf(out_buf, sizeof(out_buf), "QC%lx",
			 task_tid(kgdb_cpus[s->cpu].task));
	else if (!strcmp(q, "qAttached"))
		strcpy(out_buf, "1");	/* detach, not kill, when gdb quits */
	/* anything else: the empty reply, "not supported" */
}

/* ---- registers and memory ---- */

/*
 * The registers of a task on a CPU that did not stop: none to show. Each
 * byte is "xx", gdb's mark for a value it cannot have; info threads and
 * bt then list every other thread, where an error reply ended the whole
 * command ("Could not read registers").
 */
static void reply_regs(int err, const u8 *regs, size_t len)
{
	if (err == -EAGAIN) {
		memset(out_buf, 'x', 2 * len);
		out_buf[2 * len] = '\0';
	} else if (err) {
		reply_error(err);
	} else {
		mem_to_hex(out_buf, regs, len);
	}
}

static void read_registers(struct session *s)
{
	struct pt_regs *live;
	int err = thread_regs(s->gthread, &live);

	reply_regs(err, reg_image, regs_bytes());
}

static void write_registers(struct session *s, const char *hex)
{
	struct pt_regs *live;
	int err = thread_regs(s->gthread, &live);

	if (!err && !live)
		err = -EPERM;	/* a sleeping task's are not its own */
	if (!err && strlen(hex) != 2 * (size_t)regs_bytes())
		err = -EINVAL;
	if (!err)
		err = hex_to_mem(reg_image, hex, regs_bytes());
	if (err) {
		reply_error(err);
		return;
	}
	arch_kgdb_set_regs(live, reg_image);
	reply_ok();
}

static void read_register(struct session *s, const char *args)
{
	struct pt_regs *live;
	unsigned long n;
	int err;

	if (!parse_hex(&args, &n) || *args || n >= (unsigned long)arch_kgdb_nr_regs) {
		reply_error(-EINVAL);
		return;
	}
	err = thread_regs(s->gthread, &live);
	reply_regs(err, reg_image + reg_offset(n), arch_kgdb_regs[n].size);
}

static void write_register(struct session *s, const char *args)
{
	struct pt_regs *live;
	unsigned long n;
	int err = 0;

	if (!parse_hex(&args, &n) || !parse_sep(&args, '=') ||
	    n >= (unsigned long)arch_kgdb_nr_regs ||
	    strlen(args) != 2 * (size_t)arch_kgdb_regs[n].size)
		err = -EINVAL;
	if (!err)
		err = thread_regs(s->gthread, &live);
	if (!err && !live)
		err = -EPERM;
	if (!err)
		err = hex_to_mem(reg_image + reg_offset(n), args,
				 arch_kgdb_regs[n].size);
	if (err) {
		reply_error(err);
		return;
	}
	arch_kgdb_set_regs(live, reg_image);
	reply_ok();
}

/*
 * m addr,len: a bad address is an error reply, never a fault. gdb asks
 * for at most PACKET_SIZE / 2 bytes, whose hex fills a packet; more is
 * refused rather than cut, so that no client takes a part for the whole.
 */
static void read_memory(const char *args)
{
	unsigned long addr, len;

	if (!parse_hex(&args, &addr) || !parse_sep(&args, ',') ||
	    !parse_hex(&args, &len) || *args) {
		reply_error(-EINVAL);
		return;
	}
	if (len > sizeof(mem_buf))
		reply_error(-E2BIG);
	else if (copy_from_kernel_nofault(mem_buf, (void *)addr, len))
		reply_error(-EFAULT);
	else
		mem_to_hex(out_buf, mem_buf, len);
}

static void write_memory(const char *args)
{
	unsigned long addr, len;

	if (!parse_hex(&args, &addr) || !parse_sep(&args, ',') ||
	    !parse_hex(&args, &len) || !parse_sep(&args, ':') ||
	    len > sizeof(mem_buf) || strlen(args) != 2 * len ||
	    hex_to_mem(mem_buf, args, len)) {
		reply_error(-EINVAL);
		return;
	}
	if (kgdb_patch_text(addr, mem_buf, len))
		reply_error(-EFAULT);
	else
		reply_ok();
}

/*
 * Ztype,addr,kind and ztype,addr,kind: software breakpoints (Z0), and
 * hardware breakpoints and watchpoints (Z1..Z4, kind their length) where
 * the arch has them; elsewhere, and for a type the arch cannot watch, the
 * empty reply, which tells gdb the kernel cannot.
 */
static void breakpoint(const char *args, bool set)
{
	unsigned long type, addr, len;
	int err;

	if (!parse_hex(&args, &type) || !parse_sep(&args, ',') ||
	    !parse_hex(&args, &addr) || !parse_sep(&args, ',') ||
	    !parse_hex(&args, &len)) {
		reply_error(-EINVAL);
		return;
	}
	if (type == 0)
		err = set ? kgdb_set_breakpoint(addr) : kgdb_remove_breakpoint(addr);
	else if (type <= KGDB_HW_ACCESS && set)
		err = kgdb_set_hw_breakpoint(type, addr, len);
	else if (type <= KGDB_HW_ACCESS)
		err = kgdb_remove_hw_breakpoint(type, addr, len);
	else
		err = -ENOSYS;
	if (err == -ENOSYS)
		return;
	if (err)
		reply_error(err);
	else
		reply_ok();
}

/* c [addr] and s [addr]: where to go on, if gdb says. */
static int resume_at(struct session *s, const char *args)
{
	unsigned long addr;

	if (!*args)
		return 0;
	if (!parse_hex(&args, &addr) || *args)
		return -EINVAL;
	regs_pc(kgdb_cpus[s->cpu].regs) = addr;
	return 0;
}

/*
 * Let the kernel go on, or stepping, the thread that stopped; false and
 * the reply to send when it does not: a break came meanwhile (its stop),
 * or it cannot step there, or another thread is to step (an error: the
 * stub steps only the CPU that trapped; the others stay parked).
 */
static bool resume(struct session *s, bool step, struct task_struct *stepped,
		   enum gdb_resume *how)
{
	if (break_pending) {
		break_pending = false;
		s->signo = KGDB_SIGINT;
		stop_reply(s);
		return false;
	}
	if (step && stepped != kgdb_cpus[s->cpu].task) {
		reply_error(-ESRCH);
		return false;
	}
	if (step) {
		/*
		 * gdb's hardware breakpoints go in before the step's own
		 * breakpoints do: the tick loads them too (kgdb_poll_break),
		 * so a step can lead into that code, and the stop must not
		 * run into the step's breakpoint there (ARM hung).
		 */
		kgdb_sync_hw_breakpoints();
		if (arch_kgdb_prepare_step(kgdb_cpus[s->cpu].regs)) {
			reply_error(-EINVAL);	/* cannot step this one */
			return false;
		}
	}
	*how = step ? GDB_RESUME_STEP : GDB_RESUME_CONTINUE;
	gdb_waiting = true;
	return true;
}

/*
 * vCont;action[:thread];...: whether an s or S action steps, and the
 * thread it steps (gdb sends "s:N;c"): the stopped one if it names none,
 * NULL for one that does not exist. Advertising vCont's s is what makes
 * gdb step with it on ARM, rather than plant its own breakpoint at the
 * next instruction. A signal (C, S) is not delivered: the kernel has none.
 */
static bool vcont_steps(struct session *s, const char *p,
			struct task_struct **stepped)
{
	unsigned long tid;

	*stepped = kgdb_cpus[s->cpu].task;
	for (; p; p = strchr(p, ';')) {
		if (*p == ';')
			p++;
		if (*p != 's' && *p != 'S')
			continue;
		if (*p++ == 'S')
			parse_hex(&p, &tid);	/* its signal: not delivered */
		if (*p == ':' && p[1] != '-') {
			p++;
			if (parse_hex(&p, &tid) && tid)
				*stepped = find_tid(tid);
		}
		return true;
	}
	return false;
}

static bool vcont(struct session *s, const char *p, enum gdb_resume *how)
{
	struct task_struct *stepped;
	bool step = vcont_steps(s, p, &stepped);

	return resume(s, step, stepped, how);
}

static bool command(struct session *s, const char *p, enum gdb_resume *how)
{
	out_buf[0] = '\0';
	switch (*p) {
	case '?':
		stop_reply(s);
		break;
	case 'g':
		read_registers(s);
		break;
	case 'G':
		write_registers(s, p + 1);
		break;
	case 'p':
		read_register(s, p + 1);
		break;
	case 'P':
		write_register(s, p + 1);
		break;
	case 'm':
		read_memory(p + 1);
		break;
	case 'M':
		write_memory(p + 1);
		break;
	case 'Z':
	case 'z':
		breakpoint(p + 1, *p == 'Z');
		break;
	case 'H':
		set_thread(s, p + 1);
		break;
	case 'T':
		if (!find_tid(simple_strtoul(p + 1, NULL, 16)))
			reply_error(-ENOENT);
		else
			reply_ok();
		break;
	case 'q':
		query(s, p);
		break;
	case 'c':
	case 's':
		if (resume_at(s, p + 1)) {
			reply_error(-EINVAL);
			break;
		}
		if (resume(s, *p == 's', s->cthread ?: kgdb_cpus[s->cpu].task,
			   how))
			return true;
		break;
	case 'v':
		if (!strcmp(p, "vCont?"))
			strcpy(out_buf, "vCont;c;C;s;S");
		else if (!strncmp(p, "vCont;", 6) && vcont(s, p + 6, how))
			return true;
		break;
	case 'D':
		kgdb_remove_all_breakpoints();
		kgdb_remove_all_hw_breakpoints();
		gdb_waiting = break_pending = false;
		reply_ok();
		put_packet(out_buf);
		*how = GDB_RESUME_CONTINUE;
		return true;
	case 'k':
		kgdb_remove_all_breakpoints();
		printk("kgdb: gdb killed the kernel\n");
		machine_exit(EXIT_HALTED);
	}
	put_packet(out_buf);
	return false;
}

enum gdb_resume gdbstub_session(unsigned int cpu, int signo, bool ate_dollar)
{
	struct session s = { .cpu = cpu, .signo = signo };
	enum gdb_resume how = GDB_RESUME_CONTINUE;

	s.gthread = kgdb_cpus[cpu].task;
	if (ate_dollar)
		arch_kgdb_io_putc('-');	/* send that packet again */
	if (gdb_waiting) {
		stop_reply(&s);
		put_packet(out_buf);
		gdb_waiting = false;
	}
	while (!command(&s, get_packet(), &how))
		;
	return how;
}
