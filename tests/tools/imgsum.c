/*
 * imgsum: a checksum of what a sparse image file holds, for the shell
 * tests' "this run did not change a byte" checks (rp_sum).
 *
 *   imgsum FILE...     one line per FILE: 24 hex digits
 *
 * Only the data regions are read (SEEK_DATA/SEEK_HOLE): test images of
 * many TiB are mostly holes.  Each aligned 64 KiB piece of a data region
 * that is not all zeroes counts, with its offset; all-zero pieces and
 * holes do not, so the sum does not depend on how the host filesystem
 * happens to allocate the file.  The file's size counts too.  Two
 * independent hashes (CRC32C and a 64-bit multiplicative one) make an
 * accidental match of a changed image out of reach; this is no defence
 * against a crafted collision, which the tests do not need.
 * Exit: 0, or 1 if a file could not be read (message on stderr).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "format/crc32c.h"

#define PIECE	(64u * 1024)

struct sum {
	uint32_t crc;
	uint64_t mix;
};

static void sum_add(struct sum *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	s->crc = crc32c_update(s->crc, buf, len);
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		s->mix = (s->mix ^ w) * 0x9e3779b97f4a7c15ull;
		s->mix ^= s->mix >> 29;
	}
	for (; i < len; i++)
		s->mix = (s->mix ^ p[i]) * 0x100000001b3ull;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

static int sum_file(const char *path)
{
	static uint8_t buf[PIECE];
	struct sum s = { ~0u, 0xcbf29ce484222325ull };
	struct stat st;
	off_t off = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "imgsum: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	while (off < st.st_size) {
		off_t d = lseek(fd, off, SEEK_DATA), e, p;

		if (d < 0)
			break;		/* ENXIO: only a hole is left */
		e = lseek(fd, d, SEEK_HOLE);
		if (e < 0)
			e = st.st_size;
		for (p = d - d % PIECE; p < e; p += PIECE) {
			ssize_t n = pread(fd, buf, PIECE, p);

			if (n < 0) {
				fprintf(stderr, "imgsum: %s: %s\n", path,
					strerror(errno));
				close(fd);
				return 1;
			}
			if (n == 0)
				break;
			if (!all_zero(buf, (size_t)n)) {
				uint64_t at = (uint64_t)p;

				sum_add(&s, &at, sizeof(at));
				sum_add(&s, buf, (size_t)n);
			}
		}
		off = p > e ? p : e;
	}
	close(fd);
	{
		uint64_t size = (uint64_t)st.st_size;

		sum_add(&s, &size, sizeof(size));
	}
	printf("%08" PRIx32 "%016" PRIx64 "\n", ~s.crc, s.mix);
	return 0;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: imgsum FILE...\n");
		return 1;
	}
	for (i = 1; i < argc; i++)
		rc |= sum_file(argv[i]);
	return rc;
}
