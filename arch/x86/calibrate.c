// SPDX-License-Identifier: GPL-2.0
/*
 * Measuring a counter of known (or unknown) rate against the TSC, in a way
 * that a stalled CPU cannot skew. Under an emulator each virtual CPU is a
 * host thread, and a busy host stops it for milliseconds at any point: say
 * between starting a one-shot reference timer and the first TSC read. So
 * nothing here starts or stops a clock. Both run freely, and each reading
 * of the counter sits between two TSC reads. A stall inside that bracket
 * widens it, so of a few readings the narrowest is kept, and a window whose
 * endpoints are still wide is thrown away. Between the two endpoints, tens
 * of milliseconds apart, a stall does no harm: both clocks count through
 * it, and only their ratio is wanted.
 */
#include <kernel.h>
#include <sort.h>
#include <asm/io.h>
#include <asm/x86.h>

/* Readings per endpoint; the narrowest bracket wins. */
#define ENDPOINT_READS		16
/* A window good to no better than this (parts per million) is loose. */
#define MAX_ERR_PPM		500
/*
 * A window longer than this many TSC ticks (1-2 s on today's CPUs) met a
 * stall of seconds or a counter that does not count; also keeps the
 * products below within 64 bits.
 */
#define WINDOW_MAX_TSC		(1ULL << 32)

/* One reading: the counter was read within tsc +- width / 2. */
struct reading {
	u64 tsc;
	u64 width;
	u64 count;		/* counts since the window began, unwrapped */
};

/* The state of one window: the counter's wraps and the longest gap. */
struct tracker {
	const struct x86_counter *c;
	u32 last;		/* the last raw value */
	u64 count;
	u64 last_t0;		/* the TSC just before the last read */
	u64 max_gap;		/* the most TSC ticks between two reads */
};

static void tracker_start(struct tracker *t, const struct x86_counter *c)
{
	t->c = c;
	t->count = 0;
	t->max_gap = 0;
	t->last_t0 = rdtsc();
	t->last = c->read();
}

static void read_counter(struct tracker *t, struct reading *r)
{
	u64 t0, t1;
	u32 raw, delta;

	t0 = rdtsc();
	raw = t->c->read();
	t1 = rdtsc();
	delta = t->c->counts_down ? t->last - raw : raw - t->last;
	t->count += delta & t->c->mask;
	t->last = raw;
	/* This read and the last were at most t1 - last_t0 apart. */
	t->max_gap = max(t->max_gap, t1 - t->last_t0);
	t->last_t0 = t0;
	r->tsc = t0 + (t1 - t0) / 2;
	r->width = t1 - t0;
	r->count = t->count;
}

static void read_endpoint(struct tracker *t, struct reading *best)
{
	struct reading r;

	read_counter(t, best);
	for (int i = 1; i < ENDPOINT_READS; i++) {
		read_counter(t, &r);
		if (r.width < best->width)
			*best = r;
	}
}

/*
 * Whether a window can be trusted at all (loose or not). The counter's
 * value is masked, so one wrap between two reads is harmless, but a gap of
 * a whole period loses counts. When the caller knows the period in TSC
 * ticks, no gap may reach 3/4 of it. Otherwise, judged by the window's own
 * rate, no gap may reach a quarter of it: a lost period makes that rate
 * too low, but not by enough to hide the gap as long as the window holds
 * more than a third of a period of counts (the PIT's 65536 last 55 ms).
 */
static bool window_sane(const struct tracker *t, const struct x86_window *w)
{
	u64 period = (u64)t->c->mask + 1;

	if (!w->counts || w->tsc >= WINDOW_MAX_TSC ||
	    w->counts >= WINDOW_MAX_TSC || t->max_gap >= WINDOW_MAX_TSC)
		return false;
	if (t->c->period_tsc)
		return t->max_gap < t->c->period_tsc / 4 * 3;
	return t->max_gap * w->counts / w->tsc < period / 4;
}

/*
 * One window: at least min_counts of the counter and min_tsc TSC ticks
 * between its endpoints. Its error bound is half of each endpoint's
 * bracket, plus one count of the counter.
 */
static bool measure_window(const struct x86_counter *c, u64 min_counts,
			   u64 min_tsc, struct x86_window *w)
{
	struct tracker t;
	struct reading start, end, r;

	if (c->restart)
		c->restart();
	tracker_start(&t, c);
	read_endpoint(&t, &start);
	do {
		read_counter(&t, &r);
		w->counts = r.count - start.count;
		if (r.tsc - start.tsc >= WINDOW_MAX_TSC)
			return false;
	} while (w->counts < min_counts || r.tsc - start.tsc < min_tsc);
	read_endpoint(&t, &end);
	w->tsc = end.tsc - start.tsc;
	w->counts = end.count - start.count;
	if (!window_sane(&t, w))
		return false;
	w->err_ppm = (start.width + end.width) / 2 * 1000000 / w->tsc +
		     1000000 / w->counts + 1;
	return true;
}

int x86_measure(const struct x86_counter *c, u64 min_counts, u64 min_tsc,
		struct x86_window *w, int n)
{
	struct x86_window win, spare = { .err_ppm = ~0U };
	int good = 0;

	for (int tries = 0; tries < 4 * n && good < n; tries++) {
		if (!measure_window(c, min_counts, min_tsc, &win)) {
			if (!win.counts) {
				printk("calibration: the %s does not count\n",
				       c->name);
				return 0;
			}
			continue;
		}
		if (win.err_ppm <= MAX_ERR_PPM)
			w[good++] = win;
		else if (win.err_ppm < spare.err_ppm)
			spare = win;
	}
	if (good)
		return good;
	if (spare.err_ppm == ~0U) {
		printk("calibration: host stalls spoilt every window against the %s\n",
		       c->name);
		return 0;
	}
	/* A host this busy deserves a word; the loose window still beats none. */
	printk("calibration: no clean window against the %s; the best is good to %u ppm\n",
	       c->name, spare.err_ppm);
	w[0] = spare;
	return 1;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The middle value (of an even number, the lower middle): a window spoilt
 * in a way the checks above missed is an outlier, and falls to the side.
 */
u64 x86_median(u64 *v, int n)
{
	sort(v, n, sizeof(*v), cmp_u64, NULL);
	return v[(n - 1) / 2];
}
