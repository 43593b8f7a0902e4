# libfs/ag.mk: the btree engine, the AG headers, the AG btrees and the
# whole-AG cross-checks.
libfs_libxfskit_a_SOURCES += \
	libfs/btree.h \
	libfs/btree.c \
	libfs/ag.h \
	libfs/ag.c \
	libfs/ag_btree.c \
	libfs/ag_check.h \
	libfs/ag_check.c
