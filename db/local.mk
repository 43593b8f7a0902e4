# db/local.mk: the db tool (sbin_PROGRAMS += ..., dist_man_MANS += man/...).
