/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny in-memory file system: one directory of named files, enough for
 * the VFS benchmark (kernel/bench/vfs_bench.c). It mimics what a Unix VFS does
 * for open(O_CREAT|O_EXCL), close() and unlink(): a name lookup in the
 * directory, allocation of an inode and a directory entry, an open file
 * handle that keeps the inode alive after an unlink.
 *
 * The directory is protected by one sleeping lock, like the i_sem that the
 * 2006 patches' VFS conversion turned into i_mutex (or an rt-mutex). Which
 * one it is gets chosen when the directory is set up, so that one boot
 * can measure them all.
 */
#ifndef _RAMFS_H
#define _RAMFS_H

#include <types.h>
#include <list.h>
#include <atomic.h>
#include <mutex.h>
#include <semaphore.h>
#include <rtmutex.h>

#define RAMFS_NAME_LEN		32
#define RAMFS_HASH_SIZE		64

struct ramfs_inode {
	unsigned long ino;
	unsigned int nlink;	/* directory entries naming it (0 or 1) */
	atomic_t refs;		/* one per open handle, one per link */
	size_t size;
};

/* A name in the directory. */
struct ramfs_dentry {
	struct list_head hash;	/* on its bucket of ramfs_dir.hash */
	struct ramfs_inode *inode;
	char name[RAMFS_NAME_LEN];
};

/*
 * How the directory lock was used, to see where a benchmark's time goes.
 * Updated with the lock held, so the lock itself keeps the sums exact.
 */
struct ramfs_lock_stats {
	unsigned long acquired;
	unsigned long contended;	/* found held when we came */
	u64 wait_ns;			/* from asking to getting it */
	u64 hold_ns;			/* from getting it to giving it back */
	u64 max_wait_ns;		/* the longest wait for it */
};

enum ramfs_lock { RAMFS_SEM, RAMFS_MUTEX, RAMFS_RT_MUTEX };

struct ramfs_dir {
	enum ramfs_lock lock;	/* which one of the locks guards it */
	struct mutex i_mutex;
	struct semaphore i_sem;
	struct rt_mutex i_rt_mutex;
	struct ramfs_lock_stats stats;
	u64 locked_at;		/* when the holder got the lock */
	struct list_head hash[RAMFS_HASH_SIZE];
	unsigned int nr_entries;
	unsigned long next_ino;
	atomic_t nr_inodes;	/* inodes alive: to check that none leak */
};

/* An open file. */
struct ramfs_file {
	struct ramfs_dir *dir;	/* for the count of live inodes */
	struct ramfs_inode *inode;
};

void ramfs_dir_init(struct ramfs_dir *dir, enum ramfs_lock lock);
/* Unlinks whatever is left; open handles must be closed before. */
void ramfs_dir_destroy(struct ramfs_dir *dir);

/*
 * Creates name and opens it, as open(O_CREAT | O_EXCL) does. Returns the
 * handle, or NULL with *err set to -EEXIST, -EINVAL (name too long) or -ENOMEM.
 */
struct ramfs_file *ramfs_create(struct ramfs_dir *dir, const char *name,
				int *err);
/* Opens an existing file; NULL with *err = -ENOENT if there is none. */
struct ramfs_file *ramfs_open(struct ramfs_dir *dir, const char *name,
			      int *err);
/* Closes the handle; the inode goes when its last link and handle do. */
void ramfs_close(struct ramfs_file *file);
/* Removes name from the directory: 0, or -ENOENT. */
int ramfs_unlink(struct ramfs_dir *dir, const char *name);

#endif
