# db/local.mk: xfs_db, the filesystem debugger (see db/db.h).
sbin_PROGRAMS += db/xfs_db
db_xfs_db_SOURCES = \
	db/db.h \
	db/main.c \
	db/cmd.c \
	db/cursor.c \
	db/print.c \
	db/write.c \
	db/nav.c \
	db/misc.c \
	db/fsops.c \
	db/btcmds.c \
	db/blockmap.c \
	db/blockmap.h \
	db/check.c \
	db/dircmds.c \
	db/attrcmds.c \
	db/help.c
db_xfs_db_CPPFLAGS = $(AM_CPPFLAGS) $(LIBEDIT_CFLAGS) $(UUID_CFLAGS)
db_xfs_db_LDADD = $(LIBFS_LIBS) $(LIBEDIT_LIBS)
dist_man_MANS += man/xfs_db.8
EXTRA_DIST += db/DIFFERENCES.md
