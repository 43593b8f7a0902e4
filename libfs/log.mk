# libfs/log.mk: the journal -- head/tail, verification, record walking
# (log.c) and writing a clean log (log_format.c).
libfs_libxfskit_a_SOURCES += \
	libfs/log.h \
	libfs/log.c \
	libfs/log_format.c
