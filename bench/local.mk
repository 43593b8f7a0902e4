# Benchmarks: run by hand or by bench/run; never part of "make check".
noinst_PROGRAMS += bench/crc32c_bench
bench_crc32c_bench_SOURCES = bench/crc32c_bench.c
bench_crc32c_bench_LDADD = $(LIBFS_LIBS)
EXTRA_DIST += bench
