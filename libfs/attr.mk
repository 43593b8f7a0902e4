# libfs/attr.mk: extended attributes (see libfs/attr.h).
libfs_libxfskit_a_SOURCES += \
	libfs/attr.h \
	libfs/attr_int.h \
	libfs/attr_entry.c \
	libfs/attr_sf.c \
	libfs/attr_leaf.c \
	libfs/attr_remote.c \
	libfs/attr.c
libfs_libxfskit_a_SOURCES += \
	libfs/attr_write.h \
	libfs/attr_write.c
