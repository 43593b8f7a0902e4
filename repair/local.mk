# repair/local.mk: the repair tool (sbin_PROGRAMS += ..., dist_man_MANS += man/...).
