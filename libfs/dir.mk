# libfs/dir.mk: sources of this area (libfs_libxfskit_a_SOURCES += ...).
# The dabtree (shared by directories and attribute forks) and the
# directory code: the block layer (pure checks of one block or a short
# form fork) and the fork layer (reading blocks, cross-block checks).
libfs_libxfskit_a_SOURCES += \
	libfs/dabtree.h \
	libfs/dabtree_node.c \
	libfs/dabtree.c \
	libfs/dir.h \
	libfs/dir2_priv.h \
	libfs/dir2_common.c \
	libfs/dir2_data.c \
	libfs/dir2_block.c \
	libfs/dir2_leaf.c \
	libfs/dir2_free.c \
	libfs/dir2_sf.c \
	libfs/dir2.c \
	libfs/dir2_node.c \
	libfs/dir2_lookup.c
