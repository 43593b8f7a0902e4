/*
 * The device layer: an image file or a block device.
 *
 * A device opened read-only is opened O_RDONLY, so nothing above can write
 * to it even by mistake; dev_pwrite() on it fails with -EROFS.  Sizes and
 * sector sizes come from libblkid (which knows block devices, partitions
 * and plain files); topology (stripe hints) is there for mkfs.
 */
#ifndef XK_DEVICE_H
#define XK_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define DEV_RDONLY	(1u << 0)
#define DEV_EXCL	(1u << 1)	/* O_EXCL on block devices */
#define DEV_CREATE	(1u << 2)	/* create a missing image file */

struct fs_dev {
	int		fd;
	char		*path;
	bool		readonly;
	bool		is_blockdev;
	bool		is_file;
	uint64_t	size;		/* bytes */
	unsigned	lsectsize;	/* logical sector size */
	unsigned	psectsize;	/* physical sector size */
	/* topology hints in bytes (0 if unknown) */
	unsigned long	min_io;
	unsigned long	opt_io;
	unsigned long	align_offset;
	/* statistics, for benchmarks and tests */
	uint64_t	nreads, nwrites, bytes_read, bytes_written;
};

int dev_open(const char *path, unsigned flags, struct fs_dev **devp);
void dev_close(struct fs_dev *dev);
/* Whole-length I/O; short transfers are retried, EOF is -EIO. */
int dev_pread(struct fs_dev *dev, void *buf, size_t len, uint64_t off);
int dev_pwrite(struct fs_dev *dev, const void *buf, size_t len, uint64_t off);
int dev_sync(struct fs_dev *dev);
/* Drop a byte range: discard on block devices, punch holes in files. */
int dev_discard(struct fs_dev *dev, uint64_t off, uint64_t len);
/* Grow or set the size of an image file (mkfs -d size=, growfs). */
int dev_set_file_size(struct fs_dev *dev, uint64_t size);

#endif
