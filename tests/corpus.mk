# tests/corpus.mk: the test corpus (tests/lib/corpus.sh), its population
# script and the kernel-side lister (tests/tools/klist.py).  The images are
# cached under $(top_builddir)/tests/corpus-cache.
# (t0800 is in SLOW_TESTS: tests/local.mk)
SHELL_TESTS += \
	tests/t0801-corpus-klist-listing.sh \
	tests/t0802-corpus-cache.sh

EXTRA_DIST += tests/lib/corpus.sh tests/lib/corpus-populate.sh \
	tests/tools/klist.py tests/tools/README.md

clean-local: clean-corpus
clean-corpus:
	-for m in tests/corpus-cache/*.mnt; do \
		[ -d "$$m" ] && { umount "$$m" 2>/dev/null; rmdir "$$m"; }; \
	done; true
	rm -rf tests/corpus-cache
.PHONY: clean-corpus
