# libfs allocator (alloc.h): bnobt/cntbt/rmapbt/AGF/AGFL updates for new and freed extents.
libfs_libxfskit_a_SOURCES += libfs/alloc.h libfs/alloc_int.h libfs/alloc.c \
	libfs/alloc_btree.c
