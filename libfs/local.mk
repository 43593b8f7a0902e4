# libfs: the shared format library (see each file's header comment).
noinst_LIBRARIES += libfs/libxfskit.a
libfs_libxfskit_a_CPPFLAGS = $(AM_CPPFLAGS) $(UUID_CFLAGS) $(BLKID_CFLAGS) $(URCU_CFLAGS)
libfs_libxfskit_a_SOURCES = \
	libfs/format/endian.h \
	libfs/format/types.h \
	libfs/format/sb.h \
	libfs/format/ag.h \
	libfs/format/btree.h \
	libfs/format/inode.h \
	libfs/format/dir.h \
	libfs/format/attr.h \
	libfs/format/log.h \
	libfs/format/dquot.h \
	libfs/format/ondisk.h \
	libfs/format/crc32c.h \
	libfs/format/crc32c.c \
	libfs/findings.h \
	libfs/findings.c \
	libfs/array.h \
	libfs/array.c \
	libfs/device.h \
	libfs/device.c \
	libfs/bcache.h \
	libfs/bcache.c \
	libfs/geom.h \
	libfs/geom.c \
	libfs/sb.h \
	libfs/sb.c \
	libfs/fs.h \
	libfs/fs.c

EXTRA_DIST += libfs/problems

# Each area adds its sources in its own fragment.
include libfs/ag.mk
include libfs/inode.mk
include libfs/dir.mk
include libfs/attr.mk
include libfs/log.mk
include libfs/fields.mk
include libfs/build.mk
include libfs/alloc.mk
