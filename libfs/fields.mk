# libfs/fields.mk: the field tables xfs_db prints, writes and fuzzes with.
libfs_libxfskit_a_SOURCES += \
	libfs/fields.h \
	libfs/fields_int.h \
	libfs/fields.c \
	libfs/fields_inode.c \
	libfs/fields_dir.c
