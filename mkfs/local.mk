# mkfs/local.mk: the mkfs tool (sbin_PROGRAMS += ..., dist_man_MANS += man/...).
