/*
 * attrdump: the attributes of some inodes of an unmounted image, read
 * through libfs, printed the way `getfattr -d -m - -e hex` prints them,
 * so tests can diff the two; and any finding met on the way.
 *
 * Usage: attrdump IMAGE INO...            every attribute of each inode
 *        attrdump -g NS.NAME IMAGE INO    one value, through attr_get()
 * Output: "# ino N" then one "NS.NAME=0xHEX" line per attribute, in
 * on-disk order (names' bytes outside 0x21..0x7e and '\' as \ooo, as
 * getfattr writes them); findings on stderr.
 * Exit: 0 no finding, 1 findings (or -g: no such attribute), 2 could not
 * open or read.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "inode.h"

static void put_name(FILE *out, unsigned ns, const uint8_t *name,
		     unsigned len)
{
	fprintf(out, "%s.", attr_ns_name(ns));
	for (unsigned i = 0; i < len; i++) {
		if (name[i] < 0x21 || name[i] > 0x7e || name[i] == '\\')
			fprintf(out, "\\%03o", name[i]);
		else
			fputc(name[i], out);
	}
}

static void put_value(FILE *out, const uint8_t *v, uint32_t len)
{
	fputs("=0x", out);
	for (uint32_t i = 0; i < len; i++)
		fprintf(out, "%02x", v[i]);
	fputc('\n', out);
}

static int print_attr(void *priv, const struct attr_rec *r)
{
	FILE *out = priv;

	put_name(out, attr_rec_ns(r), r->name, r->namelen);
	put_value(out, r->value, r->valuelen);
	return 0;
}

static int parse_ns(const char *arg, unsigned *ns, const char **name)
{
	static const struct { const char *p; unsigned ns; } tab[] = {
		{ "user.", 0 },
		{ "trusted.", XFS_ATTR_ROOT },
		{ "security.", XFS_ATTR_SECURE },
	};

	for (unsigned i = 0; i < 3; i++)
		if (!strncmp(arg, tab[i].p, strlen(tab[i].p))) {
			*ns = tab[i].ns;
			*name = arg + strlen(tab[i].p);
			return 0;
		}
	return -1;
}

int main(int argc, char **argv)
{
	const char *get = NULL, *gname = NULL;
	struct fs_findings fl;
	struct fs *fs;
	unsigned gns = 0;
	int c, err, rc = 0;

	while ((c = getopt(argc, argv, "g:")) != -1) {
		if (c != 'g')
			goto usage;
		get = optarg;
		if (parse_ns(get, &gns, &gname))
			goto usage;
	}
	if (optind + 2 > argc || (get && optind + 2 != argc))
		goto usage;
	findings_init(&fl);
	err = fs_open(argv[optind], FS_OPEN_RDONLY, &fs, &fl);
	if (err) {
		findings_print(stderr, &fl);
		fprintf(stderr, "attrdump: %s: %s\n", argv[optind],
			strerror(-err));
		return 2;
	}
	for (int i = optind + 1; i < argc; i++) {
		xfs_ino_t ino = strtoull(argv[i], NULL, 0);
		struct fs_inode ip;

		err = inode_read(fs, ino, &ip, &fl);
		if (err) {
			fprintf(stderr, "attrdump: inode %llu: %s\n",
				(unsigned long long)ino, strerror(-err));
			rc = 2;
			continue;
		}
		if (get) {
			uint8_t *v;
			uint32_t vlen;

			err = attr_get(fs, &ip, NULL, gns,
				       (const uint8_t *)gname,
				       (unsigned)strlen(gname), &v, &vlen, &fl);
			if (err) {
				fprintf(stderr, "attrdump: %s: %s\n", get,
					strerror(-err));
				rc = err == -ENODATA ? 1 : 2;
			} else {
				fputs(get, stdout);
				put_value(stdout, v, vlen);
				free(v);
			}
		} else {
			printf("# ino %llu\n", (unsigned long long)ino);
			err = attr_iterate(fs, &ip, NULL, print_attr, stdout,
					   &fl);
			if (err) {
				fprintf(stderr, "attrdump: inode %llu: %s\n",
					(unsigned long long)ino,
					strerror(-err));
				rc = 2;
			}
		}
		inode_release(&ip);
	}
	findings_print(stderr, &fl);
	if (!rc && (fl.n || fl.dropped))
		rc = 1;
	fs_close(fs);
	findings_free(&fl);
	return rc;
usage:
	fprintf(stderr, "usage: attrdump IMAGE INO...\n"
			"       attrdump -g NS.NAME IMAGE INO\n");
	return 2;
}
