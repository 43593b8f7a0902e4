# libfs/log.mk: sources of this area (libfs_libxfskit_a_SOURCES += ...).
