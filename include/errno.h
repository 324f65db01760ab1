/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ERRNO_H
#define _ERRNO_H

#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define E2BIG		7
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define EINVAL		22
#define EDEADLK		35
#define ENOSPC		28
#define ENOSYS		38
#define ETIMEDOUT	110
#define EALREADY	114
#define ERESTARTSYS	512

#endif
