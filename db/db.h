/*
 * xfs_db: shared state of the tool.
 *
 * The tool keeps a stack of positions ("cursors"): each is a buffer read
 * from the data device (a sector, a block, an inode cluster, a directory
 * block assembled from its extents), the object inside it (an inode is
 * one inode of its cluster) and the object's type, whose field table
 * (libfs/fields.h) drives print, write and fuzz.  Commands move the top
 * of the stack; push/pop save and restore it; the ring remembers the last
 * positions visited.
 *
 * Every message goes to stdout, as the reference prints them, so scripts
 * that parse its output see the same text.
 */
#ifndef XK_DB_H
#define XK_DB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "fs.h"
#include "fields.h"

struct cursor {
	const struct fld_objtype *typ;	/* NULL: no type */
	xfs_daddr_t	bb;		/* first sector of the buffer */
	uint32_t	blen;		/* buffer length, sectors */
	uint32_t	boff;		/* object offset in the buffer, bytes */
	uint32_t	len;		/* object length, bytes */
	uint8_t		*buf;		/* copy of the buffer (blen * 512) */
	struct buf_seg	*segs;		/* discontiguous buffer pieces */
	unsigned	nsegs;
	xfs_ino_t	ino;		/* current inode, or NULLFSINO */
	xfs_ino_t	dirino;		/* current directory, or NULLFSINO */
	uint16_t	mode;		/* of the current inode */
	bool		valid;		/* buffer was read */
};

struct db {
	struct fs	*fs;
	const char	*progname;
	const char	*fsdevice;
	const char	*logname;	/* -l: the external log device */
	bool		expert;		/* -x */
	bool		readonly;	/* -r */
	bool		force;		/* -F */
	bool		interactive;
	struct cursor	*stack;
	int		nstack;		/* entries in use; top = nstack - 1 */
	int		capstack;
	int		exitcode;
	bool		quit;
};

extern struct db db;

/* output */
void dbprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Is the log where the superblock says (-l given for an external log and
 * only then)?  If not, prints "WHAT - ..." as the reference does.
 */
bool db_log_placed(const char *what);

/* commands (cmd.c) */
typedef int (*cmd_fn)(int argc, char **argv);
struct db_cmd {
	const char	*name;
	const char	*alias;
	cmd_fn		fn;
	int		minargs, maxargs;	/* -1: any */
	bool		expert_only;
	bool		needs_fs;
	const char	*args;
	const char	*oneline;
};
const struct db_cmd *cmd_find(const char *name);
void cmd_table_iter(void (*fn)(const struct db_cmd *c));
int run_command_line(const char *line);
int run_argv(int argc, char **argv);
void register_cmds(const struct db_cmd *cmds, unsigned n);
void help_text(const char *name);

/* cursor (cursor.c) */
struct cursor *cur_top(void);
void cur_push(void);
int cur_pop(void);
void cur_free(struct cursor *c);
void cur_copy(struct cursor *dst, const struct cursor *src);
/* Read a buffer and make it the top position with the given type. */
int set_cur(const struct fld_objtype *typ, xfs_daddr_t bb, uint32_t blen,
	    xfs_ino_t ino);
int set_cur_segs(const struct fld_objtype *typ, const struct buf_seg *segs,
		 unsigned nsegs, xfs_ino_t ino);
void set_cur_inode(xfs_ino_t ino);
void set_cur_type(const struct fld_objtype *typ);
void cur_ctx(const struct cursor *c, struct fld_ctx *ctx);
uint8_t *cur_obj(const struct cursor *c);
/* Write the top buffer back (CRC recomputed unless nocrc). */
int cur_write(bool recrc);
/* Forget changes to the top buffer: read it again from the disk. */
int cur_reread(void);
bool cur_crc_ok(const struct cursor *c);
void cur_recalc_crc(struct cursor *c);
void cur_crc_recheck(void);
void print_cursor(const char *tag, const struct cursor *c);
void ring_add(void);
void ring_suspend(bool on);
void cursor_cmds_init(void);

/* print (print.c) */
void print_all(void);
int print_cmd(int argc, char **argv);
void print_cmds_init(void);

/* field expressions (print.c) */
struct fexpr {
	const struct fld	*f;
	uint64_t		pbit;	/* parent start */
	int			low, high;
	bool			indexed;
	bool			struct_whole;	/* name resolves to a struct */
	char			name[256];
};
int fexpr_parse(const char *s, struct fexpr *out, bool quiet);

/* write, fuzz, crc (write.c) */
void write_cmds_init(void);

/* navigation, conversions, info (nav.c, misc.c) */
void nav_cmds_init(void);
void misc_cmds_init(void);
void fs_cmds_init(void);
extern int (*fileblock_hook)(int argc, char **argv, int whichfork);
extern xfs_agnumber_t cur_agno;
void bt_cmds_init(void);
void blockmap_cmds_init(void);
bool blockmap_have_names(void);
/* Is the log where the sb says and clean?  Says why not (blockget, uuid). */
bool db_log_clean(void);
/* Every allocated inode, AG by AG, in inode number order (blockmap.c). */
typedef void (*inode_fn)(xfs_ino_t ino, const uint8_t *raw, void *priv);
void scan_all_inodes(inode_fn fn, void *priv);
/* The name table of blockget -n (dircmds.c). */
void blockget_names(void);
char *inode_path(xfs_ino_t ino);
void names_free(void);
void dir_cmds_init(void);
void attr_cmds_init(void);

/* numbers */
bool parse_u64(const char *s, uint64_t *v);
bool parse_s64(const char *s, int64_t *v);
uint64_t db_expr_value(const char *s, bool *ok);

extern const struct fld_objtype *typ_sb, *typ_agf, *typ_agi, *typ_agfl,
	*typ_inode, *typ_data, *typ_dir3, *typ_attr3, *typ_symlink,
	*typ_bmapbtd, *typ_bmapbta, *typ_text, *typ_log;

#endif
