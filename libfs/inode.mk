# libfs/inode.mk: inodes, fork mappings, symlinks (inode.c, bmap.c, symlink.c).
libfs_libxfskit_a_SOURCES += \
	libfs/inode.h \
	libfs/inode.c \
	libfs/bmap.h \
	libfs/bmap.c
libfs_libxfskit_a_SOURCES += \
	libfs/symlink.h \
	libfs/symlink.c
