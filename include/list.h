/* SPDX-License-Identifier: GPL-2.0 */
/* Circular doubly linked lists with a head node, named as in Linux. */
#ifndef _LIST_H
#define _LIST_H

#include <kernel.h>
#include <asm/barrier.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

/* Poison values: a use after list_del() faults at a recognisable address. */
#define LIST_POISON1	((struct list_head *)0x00100100)
#define LIST_POISON2	((struct list_head *)0x00200200)

/*
 * The stores of next are marked: list_empty() reads it without the
 * list's lock (the scheduler's idle check, a waiter looking at its own
 * entry), and the race detector rightly calls a plain store beside it a
 * data race. The other stores stay plain, so that a list changed outside
 * its lock is still reported.
 */
static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	WRITE_ONCE(list->prev, list);
}

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

/* Insert after head: a stack. */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* Insert before head: a queue. */
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void list_del(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

static inline void list_del_init(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
	INIT_LIST_HEAD(entry);
}

/*
 * For an entry whose owner checks list_empty_careful() without the lock
 * and then reuses the memory: prev goes back to the entry first, next
 * last, behind a write barrier, so a reader that sees next back at the
 * entry has seen every store this makes to it.
 */
static inline void list_del_init_careful(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
	WRITE_ONCE(entry->prev, entry);
	smp_wmb();
	WRITE_ONCE(entry->next, entry);
}

static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	__list_del(entry->prev, entry->next);
	list_add_tail(entry, head);
}

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

/*
 * Empty, and no longer being unlinked: both pointers are back at head.
 * Only a list_del_init_careful() in progress may race with it; next is
 * read first, as that writer stores it last.
 */
static inline int list_empty_careful(const struct list_head *head)
{
	struct list_head *next = READ_ONCE(head->next);

	smp_rmb();
	return next == head && READ_ONCE(head->prev) == head;
}

static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, typeof(*(pos)), member)

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, typeof(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_next_entry(pos, member))

#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, typeof(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (head);					\
	     pos = n, n = list_next_entry(n, member))

#endif
