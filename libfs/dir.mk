# libfs/dir.mk: sources of this area (libfs_libxfskit_a_SOURCES += ...).
# The dabtree (shared by directories and attribute forks) and the
# directory code, split by form.
libfs_libxfskit_a_SOURCES += \
	libfs/dabtree.h \
	libfs/dabtree_node.c \
	libfs/dabtree.c
