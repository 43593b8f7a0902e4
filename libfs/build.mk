# libfs/build.mk: sources of this area (libfs_libxfskit_a_SOURCES += ...).
# Builders of fresh on-disk objects, shared by mkfs and repair.
libfs_libxfskit_a_SOURCES += libfs/build.h libfs/build.c
# Transaction log reservations and the minimum log size (mkfs, repair).
libfs_libxfskit_a_SOURCES += libfs/resv.h libfs/resv.c
