# mkfs/local.mk: the mkfs tool (sbin_PROGRAMS += ..., dist_man_MANS += man/...).
sbin_PROGRAMS += mkfs/mkfs.xfs
mkfs_mkfs_xfs_SOURCES = mkfs/mkfs.h mkfs/mkfs.c mkfs/opts.c \
	mkfs/geometry.c mkfs/report.c mkfs/write.c
mkfs_mkfs_xfs_CPPFLAGS = $(AM_CPPFLAGS) $(UUID_CFLAGS) $(BLKID_CFLAGS) \
	$(INIH_CFLAGS)
mkfs_mkfs_xfs_LDADD = $(LIBFS_LIBS) $(INIH_LIBS)
dist_man_MANS += man/mkfs.xfs.8
