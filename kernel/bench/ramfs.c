// SPDX-License-Identifier: GPL-2.0
/*
 * ramfs: one in-memory directory of files, for the VFS benchmark. See
 * include/ramfs.h.
 *
 * The directory lock covers the hash table and the entries in it, as a
 * directory's i_sem/i_mutex covers its dentries in a Unix VFS: create and
 * unlink take it, close does not. An inode is freed by whoever drops its
 * last reference, outside the lock, so that the lock is held only for the
 * work that really needs it.
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <string.h>
#include <time.h>
#include <ramfs.h>
#include <trace.h>

/*
 * The directory lock, with its use measured: a couple of clock reads per
 * operation, the same for both lock types.
 */
static void dir_lock(struct ramfs_dir *dir)
{
	u64 start = ktime_get_ns(), wait;
	bool held;

	switch (dir->lock) {
	case RAMFS_MUTEX:
		held = mutex_is_locked(&dir->i_mutex);
		mutex_lock(&dir->i_mutex);
		break;
	case RAMFS_RT_MUTEX:
		held = rt_mutex_is_locked(&dir->i_rt_mutex);
		rt_mutex_lock(&dir->i_rt_mutex);
		break;
	default:
		held = atomic_read(&dir->i_sem.count) <= 0;
		down(&dir->i_sem);
	}
	dir->locked_at = ktime_get_ns();
	dir->stats.acquired++;
	dir->stats.contended += held;
	wait = dir->locked_at - start;
	dir->stats.wait_ns += wait;
	dir->stats.max_wait_ns = max(dir->stats.max_wait_ns, wait);
}

static void dir_unlock(struct ramfs_dir *dir)
{
	dir->stats.hold_ns += ktime_get_ns() - dir->locked_at;
	switch (dir->lock) {
	case RAMFS_MUTEX:
		mutex_unlock(&dir->i_mutex);
		break;
	case RAMFS_RT_MUTEX:
		rt_mutex_unlock(&dir->i_rt_mutex);
		break;
	default:
		up(&dir->i_sem);
	}
}

void ramfs_dir_init(struct ramfs_dir *dir, enum ramfs_lock lock)
{
	dir->lock = lock;
	mutex_init(&dir->i_mutex);
	sema_init(&dir->i_sem, 1);
	rt_mutex_init(&dir->i_rt_mutex);
	/* On the heap: the symbol table cannot name them in a trace. */
	trace_name_lock(&dir->i_mutex, "i_mutex");
	trace_name_lock(&dir->i_sem, "i_sem");
	trace_name_lock(&dir->i_rt_mutex, "i_rt_mutex");
	for (int i = 0; i < RAMFS_HASH_SIZE; i++)
		INIT_LIST_HEAD(&dir->hash[i]);
	dir->nr_entries = 0;
	dir->next_ino = 1;
	memset(&dir->stats, 0, sizeof(dir->stats));
	atomic_set(&dir->nr_inodes, 0);
}

/* FNV-1a: cheap, and good enough to spread "t12-f" style names. */
static struct list_head *bucket(struct ramfs_dir *dir, const char *name)
{
	u32 h = 2166136261u;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return &dir->hash[h % RAMFS_HASH_SIZE];
}

/* Called with the directory locked. */
static struct ramfs_dentry *lookup(struct ramfs_dir *dir, const char *name)
{
	struct ramfs_dentry *d;

	list_for_each_entry(d, bucket(dir, name), hash)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static struct ramfs_file *new_handle(struct ramfs_dir *dir,
				     struct ramfs_inode *inode)
{
	struct ramfs_file *file = kmalloc(sizeof(*file));

	if (file) {
		file->dir = dir;
		file->inode = inode;
	}
	return file;
}

/* Drops one reference; the last one frees the inode. */
static void iput(struct ramfs_dir *dir, struct ramfs_inode *inode)
{
	if (atomic_dec_return(&inode->refs) == 0) {
		atomic_dec(&dir->nr_inodes);
		kfree(inode);
	}
}

struct ramfs_file *ramfs_create(struct ramfs_dir *dir, const char *name,
				int *err)
{
	struct ramfs_dentry *d;
	struct ramfs_inode *inode;
	struct ramfs_file *file;

	if (strlen(name) >= RAMFS_NAME_LEN) {
		*err = -EINVAL;
		return NULL;
	}
	dir_lock(dir);
	if (lookup(dir, name)) {
		dir_unlock(dir);
		*err = -EEXIST;
		return NULL;
	}
	d = kmalloc(sizeof(*d));
	inode = kmalloc(sizeof(*inode));
	file = inode ? new_handle(dir, inode) : NULL;
	if (!d || !file) {
		dir_unlock(dir);
		kfree(d);
		kfree(inode);
		*err = -ENOMEM;
		return NULL;
	}
	inode->ino = dir->next_ino++;
	inode->nlink = 1;
	inode->size = 0;
	atomic_set(&inode->refs, 2);	/* the link and the handle */
	atomic_inc(&dir->nr_inodes);
	d->inode = inode;
	strlcpy(d->name, name, sizeof(d->name));
	list_add(&d->hash, bucket(dir, name));
	dir->nr_entries++;
	dir_unlock(dir);
	return file;
}

struct ramfs_file *ramfs_open(struct ramfs_dir *dir, const char *name,
			      int *err)
{
	struct ramfs_dentry *d;
	struct ramfs_file *file = NULL;

	dir_lock(dir);
	d = lookup(dir, name);
	if (d) {
		file = new_handle(dir, d->inode);
		if (file)
			atomic_inc(&d->inode->refs);
	}
	dir_unlock(dir);
	if (!file)
		*err = d ? -ENOMEM : -ENOENT;
	return file;
}

void ramfs_close(struct ramfs_file *file)
{
	struct ramfs_inode *inode = file->inode;
	struct ramfs_dir *dir = file->dir;

	/* No directory lock: the handle holds its own inode reference. */
	kfree(file);
	iput(dir, inode);
}

int ramfs_unlink(struct ramfs_dir *dir, const char *name)
{
	struct ramfs_dentry *d;
	struct ramfs_inode *inode;

	dir_lock(dir);
	d = lookup(dir, name);
	if (!d) {
		dir_unlock(dir);
		return -ENOENT;
	}
	list_del(&d->hash);
	dir->nr_entries--;
	inode = d->inode;
	inode->nlink = 0;
	kfree(d);
	dir_unlock(dir);
	iput(dir, inode);
	return 0;
}

void ramfs_dir_destroy(struct ramfs_dir *dir)
{
	for (int i = 0; i < RAMFS_HASH_SIZE; i++) {
		while (!list_empty(&dir->hash[i])) {
			struct ramfs_dentry *d = list_first_entry(
				&dir->hash[i], struct ramfs_dentry, hash);

			ramfs_unlink(dir, d->name);
		}
	}
	mutex_destroy(&dir->i_mutex);
}
