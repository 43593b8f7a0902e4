/*
 * Image files and block devices.  Everything goes through pread/pwrite on
 * one descriptor, so the cache above decides what is read and when.
 */
#include "config.h"
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/falloc.h>
#include "device.h"

static void dev_probe_geometry(struct fs_dev *dev)
{
	blkid_probe pr = blkid_new_probe();

	dev->lsectsize = dev->psectsize = 512;
	if (!pr)
		return;
	if (blkid_probe_set_device(pr, dev->fd, 0, 0) == 0) {
		blkid_topology tp;

		if (dev->is_blockdev) {
			blkid_loff_t sz = blkid_probe_get_size(pr);

			if (sz > 0)
				dev->size = (uint64_t)sz;
		}
		tp = blkid_probe_get_topology(pr);
		if (tp) {
			unsigned long l = blkid_topology_get_logical_sector_size(tp);
			unsigned long p = blkid_topology_get_physical_sector_size(tp);

			if (dev->is_blockdev && l >= 512)
				dev->lsectsize = l;
			if (dev->is_blockdev && p >= 512)
				dev->psectsize = p;
			dev->min_io = blkid_topology_get_minimum_io_size(tp);
			dev->opt_io = blkid_topology_get_optimal_io_size(tp);
			dev->align_offset = blkid_topology_get_alignment_offset(tp);
		}
	}
	blkid_free_probe(pr);
	if (dev->psectsize < dev->lsectsize)
		dev->psectsize = dev->lsectsize;
}

int dev_open(const char *path, unsigned flags, struct fs_dev **devp)
{
	struct fs_dev *dev;
	struct stat st;
	int oflags;

	*devp = NULL;
	oflags = (flags & DEV_RDONLY) ? O_RDONLY : O_RDWR;
	if (flags & DEV_CREATE)
		oflags |= O_CREAT;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->path = strdup(path);
	if (!dev->path) {
		free(dev);
		return -ENOMEM;
	}
	dev->fd = open(path, oflags | O_CLOEXEC, 0644);
	if (dev->fd < 0)
		goto fail;
	if (fstat(dev->fd, &st) < 0)
		goto fail;
	if (S_ISBLK(st.st_mode)) {
		dev->is_blockdev = true;
		if ((flags & DEV_EXCL) && !(flags & DEV_RDONLY)) {
			/* reopen exclusively: refuses a mounted device */
			int fd = open(path, oflags | O_EXCL | O_CLOEXEC);

			if (fd < 0)
				goto fail;
			close(dev->fd);
			dev->fd = fd;
		}
	} else if (S_ISREG(st.st_mode)) {
		dev->is_file = true;
		dev->size = st.st_size;
	} else {
		errno = ENODEV;
		goto fail;
	}
	dev->readonly = flags & DEV_RDONLY;
	dev_probe_geometry(dev);
	if (dev->is_blockdev && !dev->size) {
		uint64_t sz;

		if (ioctl(dev->fd, BLKGETSIZE64, &sz) == 0)
			dev->size = sz;
	}
	*devp = dev;
	return 0;
fail:
	{
		int err = -errno;

		if (dev->fd >= 0)
			close(dev->fd);
		free(dev->path);
		free(dev);
		return err ? err : -EIO;
	}
}

void dev_close(struct fs_dev *dev)
{
	if (!dev)
		return;
	if (dev->fd >= 0)
		close(dev->fd);
	free(dev->path);
	free(dev);
}

int dev_pread(struct fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	if (off > dev->size || len > dev->size - off)
		return -EIO;
	dev->nreads++;
	while (len) {
		ssize_t r = pread(dev->fd, p, len, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		p += r;
		off += r;
		len -= r;
		dev->bytes_read += r;
	}
	return 0;
}

int dev_pwrite(struct fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	if (dev->readonly)
		return -EROFS;
	if (off > dev->size || len > dev->size - off)
		return -ENOSPC;
	dev->nwrites++;
	while (len) {
		ssize_t r = pwrite(dev->fd, p, len, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		off += r;
		len -= r;
		dev->bytes_written += r;
	}
	return 0;
}

int dev_sync(struct fs_dev *dev)
{
	if (dev->readonly)
		return 0;
	return fsync(dev->fd) < 0 ? -errno : 0;
}

int dev_discard(struct fs_dev *dev, uint64_t off, uint64_t len)
{
	if (dev->readonly)
		return -EROFS;
	if (dev->is_blockdev) {
		uint64_t range[2] = { off, len };

		return ioctl(dev->fd, BLKDISCARD, range) < 0 ? -errno : 0;
	}
	if (fallocate(dev->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)off, (off_t)len) < 0)
		return -errno;
	return 0;
}

int dev_set_file_size(struct fs_dev *dev, uint64_t size)
{
	if (dev->readonly)
		return -EROFS;
	if (!dev->is_file)
		return -ENOTTY;
	if (ftruncate(dev->fd, (off_t)size) < 0)
		return -errno;
	dev->size = size;
	return 0;
}
