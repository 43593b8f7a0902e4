/*
 * The extended help of "help COMMAND": the text the reference shows
 * after the one-line summary, command by command.
 */
#include "config.h"
#include <string.h>
#include "db.h"

/* attr_set and attr_remove share one text, as in the reference. */
#define ATTR_HELP \
	  "\n" \
	  " The 'attr_set' and 'attr_remove' commands provide interfaces for debugging\n" \
	  " the extended attribute allocation and removal code.\n" \
	  " Both commands require an attribute name to be specified, and the attr_set\n" \
	  " command allows an optional value length (-v) to be provided as well.\n" \
	  " There are 4 namespace flags:\n" \
	  "  -r -- 'root'\n" \
	  "  -u -- 'user'		(default)\n" \
	  "  -s -- 'secure'\n" \
	  "\n" \
	  " For attr_set, these options further define the type of set operation:\n" \
	  "  -C -- 'create'    - create attribute, fail if it already exists\n" \
	  "  -R -- 'replace'   - replace attribute, fail if it does not exist\n" \
	  " The backward compatibility mode 'noattr2' can be emulated (-n) also.\n" \
	  "\n"

static const struct {
	const char	*name;
	const char	*text;
} help_texts[] = {
	{ "ablock",
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'ablock 23' - sets the file position to the 23rd filesystem block in\n"
	  " the inode's attribute fork.  The filesystem block size is specified in\n"
	  " the superblock.\n"
	  "\n" },
	{ "addr",
	  "\n"
	  " 'addr' uses the given field to set the filesystem address and type\n"
	  "\n"
	  " Examples:\n"
	  "\n"
	  " sb\n"
	  " a rootino - set the type to inode and set position to the root inode\n"
	  " a u.bmx[0].startblock (for inode with blockmap)\n"
	  "\n" },
	{ "agf",
	  "\n"
	  " set allocation group free block list\n"
	  "\n"
	  " Example:\n"
	  "\n"
	  " agf 2 - move location to AGF in 2nd filesystem allocation group\n"
	  "\n"
	  " Located in the second sector of each allocation group, the AGF\n"
	  " contains the root of two different freespace btrees:\n"
	  " The 'cnt' btree keeps track freespace indexed on section size.\n"
	  " The 'bno' btree tracks sections of freespace indexed on block number.\n" },
	{ "agfl",
	  "\n"
	  " set allocation group freelist\n"
	  "\n"
	  " Example:\n"
	  "\n"
	  " agfl 5\n"
	  " Located in the fourth sector of each allocation group,\n"
	  " the agfl freelist for internal btree space allocation is maintained\n"
	  " for each allocation group.  This acts as a reserved pool of space\n"
	  " separate from the general filesystem freespace (not used for user data).\n"
	  "\n" },
	{ "agi",
	  "\n"
	  " set allocation group inode btree\n"
	  "\n"
	  " Example:\n"
	  "\n"
	  " agi 3 (set location to 3rd allocation group inode btree and type to 'agi')\n"
	  "\n"
	  " Located in the 3rd 512 byte block of each allocation group,\n"
	  " the agi inode btree tracks all used/free inodes in the allocation group.\n"
	  " Inodes are allocated in 16k 'chunks', each btree entry tracks a 'chunk'.\n"
	  "\n" },
	{ "attr_remove",
	  ATTR_HELP },
	{ "attr_set",
	  ATTR_HELP },
	{ "back",
	  "\n"
	  " The 'back' ('b') command moves to the previous location in the position\n"
	  " ring, updating the current position and data type.  If the current location\n"
	  " is the last entry in the ring, then the 'back' command will have no effect.\n"
	  "\n" },
	{ "btdump",
	  "\n"
	  " If the cursor points to a btree block, 'btdump' dumps the btree\n"
	  " downward from that block.  If the cursor points to an inode,\n"
	  " the data fork btree root is selected by default.  If the cursor\n"
	  " points to a directory or extended attribute btree node, the tree\n"
	  " will be printed downward from that block.\n"
	  "\n"
	  " Options:\n"
	  "   -a -- Display an inode's extended attribute fork btree.\n"
	  "   -i -- Print internal btree nodes.\n"
	  "\n" },
	{ "btheight",
	  "\n"
	  " For a given number of btree records and a btree type, report the number of\n"
	  " records and blocks for each level of the btree, and the total btree size.\n"
	  " The btree type must be given after the options.  A raw btree geometry can\n"
	  " be provided in the format \"record_bytes:key_bytes:ptr_bytes:header_type\"\n"
	  " where header_type is one of \"short\", \"long\", \"shortcrc\", or \"longcrc\".\n"
	  "\n"
	  " Options:\n"
	  "   -b -- Override the btree block size.\n"
	  "   -n -- Number of records we want to store.\n"
	  "   -w max -- Show only the best case scenario.\n"
	  "   -w min -- Show only the worst case scenario.\n"
	  "   -w absmax -- Print the maximum possible btree height for all filesystems.\n"
	  "\n"
	  " Supported btree types:\n"
	  "   all bnobt cntbt inobt finobt bmapbt refcountbt rmapbt \n" },
	{ "crc",
	  "\n"
	  " 'crc' validates, invalidates, or recalculates the crc value for\n"
	  " the current on-disk metadata structures in Version 5 filesystems.\n"
	  "\n"
	  " Usage:  \"crc [-i|-r|-v]\"\n"
	  "\n" },
	{ "daddr",
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'daddr 102' - sets position to the 102nd absolute disk block\n"
	  " (512 byte block).\n" },
	{ "dblock",
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'dblock 23' - sets the file position to the 23rd filesystem block in\n"
	  " the inode's data fork.  The filesystem block size is specified in the\n"
	  " superblock.\n"
	  "\n" },
	{ "forward",
	  "\n"
	  " The 'forward' ('f') command moves to the next location in the position\n"
	  " ring, updating the current position and data type.  If the current location\n"
	  " is the top entry in the ring, then the 'forward' command will have\n"
	  " no effect.\n"
	  "\n" },
	{ "fsblock",
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'fsblock 1023' - sets the file position to the 1023rd filesystem block.\n"
	  " The filesystem block size is specified in the superblock and set during\n"
	  " mkfs time.  Offset is absolute (not AG relative).\n"
	  "\n" },
	{ "fuzz",
	  "\n"
	  " The 'fuzz' command fuzzes fields in any on-disk data structure.  For\n"
	  " block fuzzing, see the 'blocktrash' or 'write' commands.\n"
	  " Examples:\n"
	  "  Struct mode: 'fuzz core.uid zeroes'    - set an inode uid field to 0.\n"
	  "               'fuzz crc ones'           - set a crc filed to all ones.\n"
	  "               'fuzz bno[11] firstbit'   - set the high bit of a block array.\n"
	  "               'fuzz keys[5].startblock add'    - increase a btree key value.\n"
	  "               'fuzz uuid random'        - randomize the superblock uuid.\n"
	  "\n"
	  " Type 'fuzz' by itself for a list of specific commands.\n"
	  "\n"
	  " Specifying the -c option will allow writes of invalid (corrupt) data with\n"
	  " an invalid CRC. Specifying the -d option will allow writes of invalid data,\n"
	  " but still recalculate the CRC so we are forced to check and detect the\n"
	  " invalid data appropriately.\n"
	  "\n" },
	{ "hash",
	  "\n"
	  " 'hash' prints out the calculated hash value for a string using the\n"
	  "directory/attribute code hash function.\n"
	  "\n"
	  " Usage:  \"hash <string>\"\n"
	  "\n" },
	{ "info",
	  "\n"
	  " Pretty-prints the filesystem geometry as derived from the superblock.\n"
	  " The output has the same format as mkfs.xfs, xfs_info, and other utilities.\n"
	  "\n" },
	{ "label",
	  "\n"
	  " write/print FS label\n"
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'label'              - print label\n"
	  " 'label 123456789012' - write label\n"
	  " 'label --'           - write an empty label\n"
	  "\n"
	  "The print function checks the label in each SB and will warn if the labels\n"
	  "differ between AGs. The write commands will set the label in all AGs to the\n"
	  "specified value.  The maximum length of a label is 12 characters - use of a\n"
	  "longer label will result in truncation and a warning will be issued.\n"
	  "\n" },
	{ "logformat",
	  "\n"
	  " The 'logformat' command reformats (clears) the log to the specified log\n"
	  " cycle and log stripe unit. If the log cycle is not specified, the log is\n"
	  " reformatted to the current cycle. If the log stripe unit is not specified,\n"
	  " the stripe unit from the filesystem superblock is used.\n"
	  "\n" },
	{ "ls",
	  "\n"
	  " List the contents of the currently selected directory inode.\n"
	  "\n"
	  " Options:\n"
	  "   -i -- Resolve the given paths to their corresponding inode numbers.\n"
	  "         If no paths are given, display the current inode number.\n"
	  "\n"
	  " Directory contents will be listed in the format:\n"
	  " dir_cookie	inode_number	type	hash	name_length	name\n" },
	{ "path",
	  "\n"
	  " Navigate to an inode via directory path.\n" },
	{ "pop",
	  "\n"
	  " Changes the address and data type to the first entry on the stack.\n"
	  "\n" },
	{ "push",
	  "\n"
	  " Allows you to push the current address and data type on the stack for\n"
	  " later return.  'push' also accepts an additional command to execute after\n"
	  " storing the current address (ex: 'push a rootino' from the superblock).\n"
	  "\n" },
	{ "ring",
	  "\n"
	  " The position ring automatically keeps track of each disk location and\n"
	  " structure type for each change of position you make during your xfs_db\n"
	  " session.  The last 20 most recent entries are kept in the ring.\n"
	  "\n"
	  " To display the current list of ring entries type 'ring' by itself on\n"
	  " the command line.  The entry highlighted by an asterisk ('*') is the\n"
	  " current entry.\n"
	  "\n"
	  " To move to another entry in the ring type 'ring <num>' where <num> is\n"
	  " your desired entry from the ring position list.\n"
	  "\n"
	  " You may also use the 'forward' ('f') or 'back' ('b') commands to move\n"
	  " to the previous or next entry in the ring, respectively.\n"
	  "\n"
	  " Note: Unlike the 'stack', 'push' and 'pop' commands, the ring tracks your\n"
	  " location implicitly.  Use the 'push' and 'pop' commands if you wish to\n"
	  " store a specific location explicitly for later return.\n"
	  "\n" },
	{ "sb",
	  "\n"
	  " set allocation group superblock\n"
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'sb 7' - set location to 7th allocation group superblock, set type to 'sb'\n"
	  "\n"
	  " Located in the first sector of each allocation group, the superblock\n"
	  " contains the base information for the filesystem.\n"
	  " The superblock in allocation group 0 is the primary.  The copies in the\n"
	  " remaining allocation groups only serve as backup for filesystem recovery.\n"
	  " The icount/ifree/fdblocks/frextents are only updated in superblock 0.\n"
	  "\n" },
	{ "stack",
	  "\n"
	  " The stack is used to explicitly store your location and data type\n"
	  " for later return.  The 'push' operation stores the current address\n"
	  " and type on the stack, the 'pop' operation returns you to the\n"
	  " position and datatype of the top entry on the stack.\n"
	  "\n"
	  " The 'stack' allows explicit location saves, see 'ring' for implicit\n"
	  " position tracking.\n"
	  "\n" },
	{ "timelimit",
	  "\n"
	  " Print the minimum and maximum supported values for inode timestamps,\n"
	  " disk quota expiration timers, and disk quota grace periods supported\n"
	  " by this filesystem.\n"
	  "\n"
	  " Options:\n"
	  "   --classic -- Force printing of the classic time limits.\n"
	  "   --bigtime -- Force printing of the bigtime limits.\n"
	  "   --pretty  -- Pretty-print the time limits.\n"
	  "   --compact -- Print the limits in a single line.\n"
	  "\n" },
	{ "uuid",
	  "\n"
	  " write/print FS uuid\n"
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'uuid'                                      - print UUID\n"
	  " 'uuid 01234567-0123-0123-0123-0123456789ab' - write UUID\n"
	  " 'uuid generate'                             - generate and write\n"
	  " 'uuid rewrite'                              - copy UUID from SB 0\n"
	  "\n"
	  "The print function checks the UUID in each SB and will warn if the UUIDs\n"
	  "differ between AGs (the log is not checked). The write commands will\n"
	  "set the uuid in all AGs to either a specified value, a newly generated\n"
	  "value or the value found in the first superblock (SB 0) respectively.\n"
	  "As a side effect of writing the UUID, the log is cleared (which is fine\n"
	  "on a CLEANLY unmounted FS).\n"
	  "\n" },
	{ "version",
	  "\n"
	  " set/print feature bits in sb version\n"
	  "\n"
	  " Example:\n"
	  "\n"
	  " 'version'          - print current feature bits\n"
	  " 'version extflg'   - enable unwritten extents\n"
	  " 'version attr1'    - enable v1 inline extended attributes\n"
	  " 'version attr2'    - enable v2 inline extended attributes\n"
	  " 'version log2'     - enable v2 log format\n"
	  "\n"
	  "The version function prints currently enabled features for a filesystem\n"
	  "according to the version field of its primary superblock.\n"
	  "It can also be used to enable selected features, such as support for\n"
	  "unwritten extents.  The updated version is written into all AGs.\n"
	  "\n" },
	{ "write",
	  "\n"
	  " The 'write' command takes on different personalities depending on the\n"
	  " type of object being worked with.\n"
	  "\n"
	  " Write has 3 modes:\n"
	  "  'struct mode' - is active anytime you're looking at a filesystem object\n"
	  "                  which contains individual fields (ex: an inode).\n"
	  "  'data mode'   - is active anytime you set a disk address directly or set\n"
	  "                  the type to 'data'.\n"
	  "  'string mode' - only used for writing symlink blocks.\n"
	  "\n"
	  " Examples:\n"
	  "  Struct mode: 'write core.uid 23'          - set an inode uid field to 23.\n"
	  "               'write fname \"hello\\000\"'    - write superblock fname.\n"
	  "               (note: in struct mode strings are not null terminated)\n"
	  "               'write fname #6669736800'    - write superblock fname with hex.\n"
	  "               'write uuid 00112233-4455-6677-8899-aabbccddeeff'\n"
	  "                                            - write superblock uuid.\n"
	  "  Data mode:   'write fill 0xff' - fill the entire block with 0xff's\n"
	  "               'write lshift 3' - shift the block 3 bytes to the left\n"
	  "               'write sequence 1 5' - write a cycle of number [1-5] through\n"
	  "                                      the entire block.\n"
	  "  String mode: 'write \"This_is_a_filename\" - write null terminated string.\n"
	  "\n"
	  " In data mode type 'write' by itself for a list of specific commands.\n"
	  "\n"
	  " Specifying the -c option will allow writes of invalid (corrupt) data with\n"
	  " an invalid CRC. Specifying the -d option will allow writes of invalid data,\n"
	  " but still recalculate the CRC so we are forced to check and detect the\n"
	  " invalid data appropriately.\n"
	  "\n" },
};

/* Print the extended help of a command, if it has one. */
void help_text(const char *name)
{
	unsigned i;

	for (i = 0; i < sizeof(help_texts) / sizeof(help_texts[0]); i++)
		if (!strcmp(help_texts[i].name, name)) {
			dbprintf("%s", help_texts[i].text);
			return;
		}
}
