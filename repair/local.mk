# repair/local.mk: xfs_repair (the checking half: -n), its man page.
sbin_PROGRAMS += repair/xfs_repair
repair_xfs_repair_SOURCES = \
	repair/repair.h \
	repair/xfs_repair.c \
	repair/opts.h \
	repair/opts.c \
	repair/report.h \
	repair/report.c \
	repair/messages.def \
	repair/progress.h \
	repair/progress.c \
	repair/workers.h \
	repair/workers.c \
	repair/sbcheck.h \
	repair/sbcheck.c \
	repair/heap.h \
	repair/spacemap.h \
	repair/spacemap.c \
	repair/phase1.c \
	repair/phase2.c \
	repair/upgrade.c \
	repair/agscan.c \
	repair/freescan.c \
	repair/logcheck.c \
	repair/phase3.h \
	repair/phase3int.h \
	repair/phase3.c \
	repair/claims.c \
	repair/firstlook.c \
	repair/dircheck.c \
	repair/dirtree.c \
	repair/attrwords.c \
	repair/discover.c \
	repair/dirdata.c \
	repair/sfdir.c \
	repair/rt.c \
	repair/inomap.h \
	repair/inomap.c \
	repair/phase4.c \
	repair/phase5.c \
	repair/phase6.c \
	repair/phase7.c
repair_xfs_repair_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/repair
repair_xfs_repair_LDADD = $(LIBFS_LIBS)
dist_man_MANS += man/xfs_repair.8
