/*
 * CRC32C throughput: hardware (SSE4.2) and portable paths over a 64 MiB
 * buffer, in GB/s.  Usage: crc32c_bench [MiB]
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "format/crc32c.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double run(const uint8_t *buf, size_t len, int reps, uint32_t *out)
{
	double t0 = now();
	uint32_t c = 0;

	for (int i = 0; i < reps; i++)
		c ^= crc32c(buf, len);
	*out = c;
	return (double)len * reps / (now() - t0) / 1e9;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
	size_t len = mib << 20;
	uint8_t *buf = malloc(len);
	uint32_t c1, c2;
	double hw, sw;

	if (!buf)
		return 1;
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 2654435761u >> 13);
	crc32c_force_portable(false);
	hw = run(buf, len, 4, &c1);
	crc32c_force_portable(true);
	sw = run(buf, len, 2, &c2);
	printf("crc32c %s: %.2f GB/s\n",
	       crc32c_hw_available() ? "sse4.2" : "(no sse4.2, portable)", hw);
	printf("crc32c portable: %.2f GB/s\n", sw);
	printf("ratio hw/portable: %.1f\n", hw / sw);
	/* both paths must agree on the checksum of the whole buffer */
	crc32c_force_portable(false);
	c1 = crc32c(buf, len);
	crc32c_force_portable(true);
	c2 = crc32c(buf, len);
	free(buf);
	if (c1 != c2) {
		fprintf(stderr, "crc32c paths disagree: %08x vs %08x\n", c1, c2);
		return 1;
	}
	return 0;
}
