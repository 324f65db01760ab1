// SPDX-License-Identifier: GPL-2.0
/* CPUs: all of them online, IPIs reach them, bound threads stay on them. */
#include <kernel.h>
#include <smp.h>
#include "helpers.h"

static void cpus_online(struct kunit *test)
{
	if (!expected_cpus)
		kunit_skip(test, "no expect_cpus= on the command line");
	KUNIT_EXPECT_EQ(test, num_online_cpus(), expected_cpus);
	KUNIT_EXPECT_EQ(test, nr_cpu_ids, expected_cpus);
}

static void record_cpu(void *info)
{
	*(volatile int *)info = smp_processor_id();
}

static void call_function_reaches_each_cpu(struct kunit *test)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		volatile int where = -1;

		if (!cpu_online(cpu))
			continue;
		KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, record_cpu,
						(void *)&where, 1), 0);
		KUNIT_EXPECT_EQ(test, where, (int)cpu);
	}
}

struct bound_arg {
	int want;
	int wrong;
};

static int stay_on_cpu(void *data)
{
	struct bound_arg *a = data;

	for (int i = 0; i < 100; i++) {
		if ((int)smp_processor_id() != a->want)
			a->wrong++;
		if (i % 20 == 0)
			msleep(1);
		else
			yield();
	}
	return 0;
}

static void bound_threads_stay(struct kunit *test)
{
	struct bound_arg args[NR_CPUS] = { };
	struct workers w;
	int n = num_online_cpus();

	for (int i = 0; i < n; i++)
		args[i].want = i;
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, stay_on_cpu, args,
					    sizeof(args[0]), true, "bound"), n);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	for (int i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, args[i].wrong, 0);
}

static struct kunit_case smp_cases[] = {
	KUNIT_CASE(cpus_online),
	KUNIT_CASE(call_function_reaches_each_cpu),
	KUNIT_CASE(bound_threads_stay),
	{}
};

static struct kunit_suite smp_suite = {
	.name = "smp",
	.test_cases = smp_cases,
};
kunit_test_suite(smp_suite);
