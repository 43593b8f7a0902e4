#!/bin/sh
# For each damage below (made by the reference xfs_db), every distinct
# line the reference xfs_repair -n prints is among ours, word for word
# (order aside: the reference's phase 4 lists AGs in thread order, and
# it repeats phase 3's words in phase 4 -- repair/DIFFERENCES.md).  Left
# out: its notes about the host, and its verifier and buffer cache
# notices, which print code addresses.  Covered:
#   - inode chunks no inobt record lists: an AG whose headers would be
#     reset is skipped and its chunks are found through the entries
#     pointing into them; the root inode's chunk, when no record lists
#     it, is read with the root, realtime bitmap and summary inodes used
#     and the others free; a chunk found by discovery has only the inode
#     that led to it in use ("imap claims in-use inode N is free, would
#     correct imap" for the others) and "found inodes not in the inode
#     allocation tree" follows each AG where one was found; a record only
#     the finobt has is read as the finobt has it ("undiscovered finobt
#     record"), also when the inobt root is unusable; inobt records that
#     start out of line ("badly aligned", "bad starting inode #");
#   - AG btree blocks the read verifier refuses ("btree block A/B is
#     suspect, error -N", -74 for a bad checksum before a bad magic), and
#     bmbt blocks it refuses for the checksum (a bmbt pointer to a data
#     block: "suspect, error -74", then "bad magic #");
#   - the free space, rmap and refcount btrees' records and the AGF (see
#     the cases below: records not taken, out of order, claimed twice;
#     trees the reference would rebuild rather than compare);
#   - the inode btrees and the AGI: an inobt leaf the verifier refuses
#     holds uncertain inodes, not chunks ("root inode chunk not found",
#     "found inodes not in the inode allocation tree"), a root of another
#     kind nothing ("agi_count N, counted 0"), a root read at an AGI
#     height out of range ("expected level -1", "bad btree pointer");
#     records' counts against their masks ("ir_freecount/free mismatch",
#     "invalid inode count", "ir_holemask/ir_free mismatch", "finobt
#     record with no free inodes", "sparse inode chunk claims inode
#     block"); the AGI's UUID, version and sequence number as it prints
#     them; the primary superblock's old quota bits; its root and
#     realtime inode numbers against where mkfs puts them, the computed
#     ones used from then on, and a root elsewhere that is a plausible
#     root directory ("valid but in unaligned location", the stripe unit
#     looked for: "Could not estimate a plausible sb_unit value");
#   - bmap btree sibling pointers ("bad back (left) sibling pointer ...
#     in inode N (data fork) bmap btree block B");
#   - a signed attribute fork format ("illegal attribute format -126");
#     with no fork, any format but extents, 0 included ("bad attribute
#     format 0 in inode N, would reset value");
#   - inodes the reference "would have cleared" but under -n keeps for
#     phases 6 and 7 (bad magic number, attribute fork format): a file's
#     entry stays, a directory cannot be read ("couldn't map inode N, err
#     = 117", its entries' inodes disconnected, "can't compare link
#     counts"); the root, rt bitmap and summary inodes ("would clear root
#     inode N", "root inode would be lost" in phase 4, "would reinitialize
#     root directory" in phase 6); a next_unlinked naming no inode; the
#     reference's first look at a chunk ("bad magic number 0x0 on inode
#     N", "bad CRC for inode N") before its verdict; a version byte above
#     0x7f, which it prints sign-extended ("0xffffff83"); a file type out
#     of range ("bad inode type 0110000", but for a file with the reflink
#     flag: "reflink flag set on non-file inode N", checked first), a
#     mode of 0 on an inode in use (then free on its second look, and
#     refused by the verifier for its reflink flag: "free inode N
#     contains errors"), a size below zero ("bad
#     (negative) size"), a device's extent counter ("bad nextents");
#   - a free inode (the inobt says so; on std 149 to 191 are): its
#     core's checksum, magic number, version, next_unlinked, then its
#     number and UUID ("would have cleared inode N"), the flags its first
#     look says, and the kernel's verifier ("free inode N contains
#     errors, would correct");
#   - a directory entry's file type past the last one, which the reference
#     reads as unknown ("would fix ftype mismatch (0/1)") in every form;
#   - a short-form directory the reference keeps and its library cannot
#     load: its phase 3 walk of the entries ("entry \"N\" in shortform
#     directory N references invalid inode N", "entry #N is zero length
#     ...", "extends past end of dir", "entry contains illegal character
#     ...", "offset out of order", "would have corrected entry count /
#     i8 count / directory N size / entry offsets", "offsets too high",
#     "bogus .. inode number"), a size of 0 or an extent count ("bad
#     nextents N for inode N, would reset to 0"), then in phases 6 and 7
#     "couldn't map inode N" (after "Invalid inode number 0xN" where the
#     verifier stopped at one) and its entries' inodes disconnected; a
#     size past the fork ("local inode N data fork is too large"); a name
#     with NUL or '/' ("entry contains illegal character", "would have
#     junked entry"), whose inode the directory still reaches;
#   - the attribute fork's first block refused by the verifier it is read
#     with ("corrupt block 0 of inode N attribute fork"), but a leaf of
#     another owner, which the verifier takes ("expected owner inode N,
#     got N, attr block D"); a leaf block's entries up to the first flaw, the root's siblings, block 0 unmapped,
#     short-form forks (see the attribute cases below);
#   - a superblock copy with a bad magic number (the verifier's "Not an
#     XFS filesystem?" line);
#   - extent records out of order or overlapping within one list (a bmbt
#     leaf's, the inode's: "bmap rec out of order, inode N entry E [o s
#     c] [...], E-1 [...]"), a leaf starting before the one before it
#     ("out-of-order bmap key"), a bad key in the inode's bmbt root, and
#     a bmbt leaf's header (magic, level, owner, block, UUID);
#   - a leaf or node directory's leaf, node and free blocks: the single
#     leaf block ("leaf block D for directory inode I bad CRC" -- also
#     for an address past its bests --, "bad header", "bad tail",
#     "expected owner inode ..."), the dabtree root
#     ("corrupt directory tree block", "unknown magic number", a node hash
#     corrected either way, a count past the children), leafn blocks
#     ("corrupt directory leafn block", "bad directory leaf magic #",
#     hashes out of order, which the verifier leaves to repair: "bad hash
#     ordering in block N", the header's owner, block and UUID) and free
#     blocks ("bad header",
#     "entry I ... bad", "bad nused"); of two damaged blocks the lowest;
#     the root's pointers and siblings as its walk meets them ("can't map
#     block N", "bad directory forward block pointer", "bad hash path in
#     directory N" for its last pointer, a middle one passed by); the
#     leaf's bests held to the data blocks' headers ("bad tail");
#   - directory data blocks the reference looks at again: one its phase 3
#     verifier refused, read whole in phase 4 ("bad bestfree table ...
#     would repair table", "corrupt block N in directory inode N" /
#     "would junk block"); a block-form directory phase 3 would clear and
#     phase 4 keeps, free until then ("entry \"dir_block\" ... references
#     free inode N", its own "entry \".\" ... references free inode N",
#     "imap claims in-use inode N is free, would correct imap"); in phase
#     6 a leaf directory's block junked ("corrupt block N in directory
#     inode N: would junk block"), a magic number fixed ("would fix magic
#     # to ..."), one whose header names another owner, block or
#     filesystem skipped ("expected owner inode N, got N, directory block
#     N", its entries' inodes disconnected, "would create missing \".\""),
#     and the leaf matched with the data ("bad hash table for directory
#     inode N (hash value mismatch|bad stale count|no data entry)");
#     such a block read item by item in phase 4 ("entry \"..\" at block
#     0 offset 80 in directory inode N references invalid inode 65" --
#     the realtime bitmap, which fails the verifier --, "bad .. entry
#     ... was N: would correct", "points to self"), and its ".." in phase
#     6 (its file type, junked when it names no inode);
#   - a leaf directory's data block junked in phase 6 is not read there:
#     the inodes only its entries name are disconnected ("disconnected
#     inode N, would move to lost+found");
#   - "." and ".." as the reference knows them: in phase 3 by their names
#     ("no . entry for directory N", "no .. entry ...", an entry of
#     another name naming the directory "points to self"), in phase 6 by
#     the inode and place ("entry \"N\" in dir N is not the first entry,
#     would junk entry", counted as a link; the first entry naming the
#     directory, whatever its name, has its file type checked, "would fix
#     ftype mismatch (0/2)");
#   - a data fork's extent count past the format's largest, walked as no
#     extent at all ("bad nextents N ..., would reset to 0"; a directory
#     then has no "." or ".."), also for a flag of large extent counts
#     the filesystem lacks; an extent over AG metadata, said in phase 3
#     ("data fork in inode N claims metadata block B", the inode cleared);
#     each bmbt block and extent held in phase 3 to the block states
#     phase 2 left and to the claims of the inodes read before it: free
#     ("data fork in ino N claims free block B", kept), another inode's
#     ("data fork in regular inode N claims used block B" -- "regular"
#     for a directory too --, cleared; an attribute fork's cleared
#     alone), a bmbt block claimed by an extent read before it ("inode
#     0xNbmap block 0xB claimed, state is 3", the inode cleared only in
#     phase 4: "bad data fork in inode N"); a file whose walk ends at an
#     AG btree block or at a block of an inode cleared before it, kept
#     in phase 4 ("imap claims in-use inode N is free, would correct
#     imap"), not one at the log; there, the next bad record of its map
#     ("bmap rec out of order"); on a reflink filesystem, a file's
#     bmbt block a later file's data shares, the first file cleared in
#     phase 4 ("bad data fork in inode N"); a symlink's data fork may
#     share nothing ("claims used block");
#   - extent counters past the largest the inode's format allows (by its
#     own large extent counts flag): walked as none ("bad nextents N ...
#     would reset to 0", "block 0 of inode N attribute fork is missing",
#     a directory of no blocks: "no . entry"), an attribute counter past
#     the fork ("zero length extent", "correcting nextents"), or with no
#     attribute fork ("bad anextents"); the large extent counts flag
#     without the feature, said twice in phase 3;
#   - a btree fork whose extent counter would fit the fork as a list:
#     kept, but the kernel refuses its root ("corrupt inode N (btree)."
#     before "couldn't map inode N" in phases 6 and 7); a directory's
#     btree holding other than its extent counter says: its blocks
#     refused in phase 6 ("corrupt dinode N, (btree extents)." where it
#     holds more, "would rebuild directory inode N", "would create
#     missing "." entry"), its entries' inodes disconnected;
#   - the realtime flag without a realtime device: a file cleared ("found
#     inode N claiming to be a real-time file"), another inode's blocks
#     ordinary ("would fix bad flags."), a directory unreadable to the
#     kernel ("couldn't map inode N"), or, with a bmbt fork, whose blocks
#     it cannot map ("would rebuild directory inode N", its entries'
#     inodes disconnected);
#   - an inode whose version is not 3: its timestamps' nanoseconds ("Bad
#     atime nsec N on inode N, would reset to zero"), its forks read from
#     where a v1/v2 core ends ("inode N - extent exceeds max offset",
#     "unwritten extent ... in non-regular file", "bad level N in inode N
#     bmap btree root block", a short-form directory's entries, "local
#     inode N attr too small", "bad data fork in inode N"); kept under -n
#     when nothing else is wrong, its entry too; a version 1 inode's link
#     count is di_onlink ("would have reset inode N nlinks from 0 to 1");
#   - an attribute format on an inode without an attribute fork ("bad
#     attribute format -1 in inode N, would reset value");
#   - a symlink's extents checked before its fork is walked ("bad extent
#     #N count|offset (N) in symlink N data fork", "bad data fork in
#     symlink N"), its block unmapped ("cannot read inode N, file block
#     N, NULL disk block"); a counter past its bound in a btree or local
#     fork ("bad nextents", said twice); an extent running past its AG
#     ("bad extent overflows"); bmbt blocks: more records than fit ("bad
#     # of bmap records"), a level no bmbt has ("expected level 0"), a
#     root pointer out of range ("bad bmap btree ptr").
# Of the rmapbt's header, block and free counts, its records against
# their high keys, its lookups that fail, and the AG btree blocks a
# verifier refuses ($strict below), no line the reference does not
# print.
# And no kind of line (its words, numbers aside) more often than the
# reference prints it, or more than once if it prints none: a damaged
# count must not make a line per entry it breaks.  Known exceptions,
# not floods ($flood_ok): a chunk found outside the inode btrees is named
# once each ("is not in the inode btree, would add it"; the reference
# finds them with no line), the blocks of an inode cleared for its CRC
# are named ("unknown block state"), and the reference's threads
# interleave its "- agno = N" lines with others, so that it seems to
# print fewer.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"
. "$top_srcdir/tests/lib/repair-cases.sh"

rp_need "$XK_REPAIR"

# Lines whose every number is the reference's count or verdict: ours of
# these kinds must be the reference's, word for word (no false count).
# And never libfs's own words for a directory finding (its code in
# brackets at the end), which the reference has none of -- what we
# report beyond the reference, and why, is in repair/DIFFERENCES.md and
# checked by t5011 -- nor a missing ".." where the reference knows the
# parent, nor libfs's words beside its line for an AGI unlinked bucket
# or a btree fork's extent counter, nor what it does not get to check
# once a data fork's format or a size below zero clears the inode; nor
# what it does not say of inode btree records (the finobt's it passes
# over, holes it does not take) or a free inode an entry names, nor
# libfs's words for blocks the rmapbt lacks that the reference's own
# comparison names, or for AGF and AGI counters out of range (it counts
# the trees and says the counter that disagrees).
strict='^(Could not read reverse-mapping record|bad rmapbt block count|agf_btreeblks|sb_fdblocks|AG [0-9]+: Corrupt btree|bad btree nrecs .* in (btrmap|refcount btree block)|expected level .* in btrmap|record [0-9]+ greater than high key|btree block [0-9]+/[0-9]+ is suspect|directory ino [0-9]+ .* \[[A-Z][A-Z0-9_]+\]$|entry ".*" in dir ino [0-9]+ doesn.t have a \.\. entry|agi ag [0-9]+ .* \[AGI_BAD_UNLINKED\]$|inode ino [0-9]+ .* \[INODE_BAD_NEXTENTS\]$|bad attr fork offset [0-9]+ in dev inode|size of (character device|block device|socket|fifo) inode|undiscovered finobt record|finobt record with no free inodes|ir_holemask/ir_free mismatch|(in|fin)obt ag [0-9]+ .* \[INOBT_BAD_HOLEMASK\]$|entry ".*" at block [0-9]+ offset [0-9]+ in directory inode [0-9]+ references free inode|corrupt inode [0-9]+ \(btree\)\.|Invalid inode number 0x[0-9a-f]+$|rmapbt ag [0-9]+ .* \[AG_SPACE_UNACCOUNTED\]$|rmapbt ag [0-9]+ .*\(owner (inodes|fs|log): .*\[AG_RMAP_MISSING\]$|agf ag [0-9]+ .* \[AGF_BAD_(LONGEST|FREEBLKS|COUNTERS)\]$|agi ag [0-9]+ .* \[AGI_BAD_COUNT\]$)'

noise='^(Cannot get host filesystem geometry|Repair may fail if there is a sector size mismatch|the image and the host filesystem|Metadata (corruption|CRC error) detected at|bp=\(|[0-9a-f]+: Badness in key lookup)'

# The reference's threads write to one stream: a progress line ("        -
# agno = N") can land inside another thread's message, cutting it in two
# ("bad attribute format 3 in inode 78,         - agno = 2", then "would
# reset value").  Put such a message back together.
unsplice() {
	awk 'held != "" { $0 = held $0; held = "" }
	     { i = index($0, "        - ") }
	     i > 1 { held = substr($0, 1, i - 1); print substr($0, i); next }
	     { print }
	     END { if (held != "") print held }'
}

flood_ok='is not in the inode btree, would add it$|: unknown block state, ag N|- agno = N$'

# IMAGE | WHAT | XFS_DB COMMANDS (separated by ;; {ino:/PATH} is the
# inode number of PATH in IMAGE) [| an egrep of reference lines left out:
# each such case has its row in repair/DIFFERENCES.md]; a line starting
# with # is a comment
cat > "$T/cases" <<'EOF'
std | AG 0 skipped: the root chunk stood in for | agf 0; fuzz -d magicnum zeroes
std | AG 1 skipped (AGF): its chunk found by discovery | agf 1; fuzz -d magicnum zeroes
std | AG 1 skipped (AGI): its chunk found by discovery | agi 1; write -d magicnum 1
std | AG 2 skipped: seven chunks, found lowest first | agf 2; write -d versionnum 2
std | AG 3 skipped (superblock copy) | sb 3; write -d magicnum 0
plain | AG 2 skipped, no finobt | agf 2; write -d versionnum 2
std | inobt records lost: the finobt's record read | agi 2; addr root; write -d numrecs 6
plain | inobt records lost, no finobt: discovery | agi 2; addr root; write -d numrecs 6
std | the root chunk's record misplaced: the finobt's read | agi 0; addr root; write -d recs[1].startino 0
std | inobt root unusable: the finobt's record read | agi 1; write -d root 9999999
std | superblock copy with a foreign magic number | sb 2; write -d magicnum 0x12345678
std | bnobt root: no UUID | agf 0; addr bnoroot; fuzz -d uuid zeroes
std | cntbt root: no UUID | agf 1; addr cntroot; fuzz -d uuid zeroes
std | rmapbt root: no UUID | agf 0; addr rmaproot; fuzz -d uuid zeroes
plain | bnobt root: bad CRC | agf 1; addr bnoroot; write -c crc 0x1234
plain | bmbt leaf: left sibling of the first leaf | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d leftsib lastbit
plain | bmbt leaf: right sibling that skips the next leaf | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d rightsib add
plain | attribute fork format out of range (negative) | inode {ino:/file_btree}; fuzz -d core.aformat firstbit
plain | a file's attribute fork format: kept, its entry stays | inode {ino:/file_btree}; write -d core.aformat 7
plain | a directory's attribute fork format: kept, unreadable | inode {ino:/dir_block}; fuzz -d core.aformat firstbit
std | a short-form directory's attribute fork format: kept, its parent known | inode {ino:/dir_sf}; write -d core.aformat 139
std | a node directory's attribute fork format: kept, its parent known | inode {ino:/dir_node}; write -d core.aformat 139
plain | a btree directory's extent count that fits the fork: its root refused | inode {ino:/dir_node}; fuzz -d core.nextents zeroes
plain | a btree directory's extent count below its tree's: its blocks refused | inode {ino:/dir_node}; fuzz -d core.nextents lastbit
std | a btree directory's extent count above its tree's: its blocks refused | inode {ino:/dir_node}; fuzz -d core.nextents lastbit
std | bmbt root: one record more, its null pointer said before the key's order | inode {ino:/file_btree}; fuzz -d u3.bmbt.numrecs lastbit
plain | the root's magic number: kept, unreadable, all disconnected | inode {ino:/}; fuzz -d core.magic ones
plain | the root's data fork format: cleared, root lost | inode {ino:/}; fuzz -d core.format firstbit
std | the root's mode zeroed: root lost, reinitialized | inode {ino:/}; fuzz -d core.mode zeroes
std | a directory's magic number | inode {ino:/dir_block}; fuzz -d core.magic zeroes
plain | next_unlinked naming no inode | inode {ino:/file_btree}; fuzz -d next_unlinked lastbit
plain | the root's next_unlinked naming no inode | inode {ino:/}; fuzz -d next_unlinked zeroes
std | an inode's CRC | inode {ino:/file_btree}; write -c core.gid 5
std | a block directory's CRC: kept, its content read | inode {ino:/dir_block}; write -c core.gid 5
std | a short-form directory's CRC: kept, its content read | inode {ino:/dir_sf}; write -c core.gid 5
std | an inode's magic number, and its CRC | inode {ino:/dir_block}; fuzz -c core.magic zeroes
std | an inode's mode 0, and its CRC | inode {ino:/dir_block}; fuzz -c core.mode zeroes
std | a directory's attribute fork of no bmbt root, and its CRC | inode {ino:/dir_block}; fuzz -c core.aformat lastbit
std | a short-form directory's magic number: its content read | inode {ino:/dir_sf}; fuzz -d core.magic ones
std | a short-form directory's version, and its CRC | inode {ino:/dir_sf}; fuzz -c core.version ones
std | a short-form directory's bad parent, and its CRC | inode {ino:/dir_sf}; fuzz -c u3.sfdir3.hdr.parent.i4 lastbit
plain | a bmbt block's checksum alone: suspect, read all the same, the file kept | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -c lsn 5
plain | a bmbt pointer to a data block: suspect for its checksum, then its magic number | inode {ino:/file_btree}; fuzz -d u3.bmbt.ptrs[1] lastbit
plain | a directory's bmbt pointer to a data block: suspect, then its magic number | inode {ino:/dir_node}; fuzz -d u3.bmbt.ptrs[1] lastbit
std | an inode's version above 0x7f (printed as a signed char) | inode {ino:/file_small}; write -d v3.lsn 0x100000002; write -d core.version 0x83; write -c v3.crc 0x7fffffff
plain | an inode's file type out of range (printed as C's %#o) | inode {ino:/fifo}; fuzz -d core.mode firstbit
std | a shared file's type out of range: its reflink flag said, not the type | inode {ino:/file_small}; fuzz -d core.mode sub
std | a shared file's mode zeroed: free on the second look, its reflink flag refused | inode {ino:/file_small}; write -d core.mode 0
plain | an inode's size below zero | inode {ino:/file_small}; fuzz -d core.size firstbit
plain | a device inode's extent counter (reset, the inode kept) | inode {ino:/chardev}; fuzz -d core.nextents sub
plain | a block directory entry's file type past the last (read as 0) | inode {ino:/dir_block}; dblock 0; fuzz -d bu[1].filetype middlebit
plain | a leaf directory data entry's file type past the last | inode {ino:/dir_leaf}; dblock 0; fuzz -d du[0].filetype firstbit
std | a block directory entry naming inode 0: the block refused, the entry junked in phase 6 | inode {ino:/dir_block}; dblock 0; write -d bu[3].inumber 0
std | a leaf directory data entry naming no inode: junked, its leaf entry left without one | inode {ino:/dir_leaf}; dblock 1; write -d du[3].inumber 4000000
std | a node directory data entry's name length zeroed: the block refused | inode {ino:/dir_node}; dblock 0; write -d du[4].namelen 0
std | a directory's magic number, an entry naming no inode: its content read, the inode cleared | inode {ino:/dir_block}; dblock 0; write -d bu[3].inumber 4000000; inode {ino:/dir_block}; fuzz -d core.magic zeroes
std | a directory's attribute fork format, an entry naming no inode: its content read, the inode cleared, found in use in phase 4 | inode {ino:/dir_block}; dblock 0; write -d bu[3].inumber 4000000; inode {ino:/dir_block}; fuzz -d core.aformat firstbit
std | a block directory entry renamed as the one before it: junked in phase 6, its leaf hash not held to it | inode {ino:/dir_block}; dblock 0; write -d bu[3].name "entry_1"
std | a leaf directory entry renamed as another: a duplicate name | inode {ino:/dir_leaf}; dblock 0; write -d du[3].name "entry_name_1"
std | a node directory entry renamed as another: a duplicate name | inode {ino:/dir_node}; dblock 0; write -d du[3].name "a_longer_entry_name_1"
std | a block directory's free region's length: the block refused, no words of libfs | inode {ino:/dir_block}; dblock 0; fuzz -d bu[1].inumber ones
std | a block directory block's blkno: no words of libfs | inode {ino:/dir_block}; dblock 0; fuzz -d bhdr.hdr.bno lastbit
std | a leaf directory entry's name with NULs: illegal, still followed in phase 6 | inode {ino:/dir_leaf}; dblock 1; write -d du[3].name "entry_name_1"
std | a leaf directory entry's name with a '/' inside: illegal, still followed | inode {ino:/dir_node}; dblock 1; write -d du[3].name "a_longer/entry_name_104"
std | a leaf directory entry's name marked junked ('/' first): passed over, its leaf entry without a data entry | inode {ino:/dir_leaf}; dblock 1; write -d du[3].name "/ntry_name_131"
std | a block directory entry's name marked junked: the block refused for its hash | inode {ino:/dir_block}; dblock 0; write -d bu[3].name "/ntry_2"
std | a node directory entry's name marked junked | inode {ino:/dir_node}; dblock 1; write -d du[3].name "/_longer_entry_name_104"
std | a bmbt root key past its child's first, not in order: reset, the file kept | inode {ino:/file_btree}; fuzz -d u3.bmbt.keys[1].startoff ones
std | a bmbt root key below the one before: reset, the file kept | inode {ino:/file_btree}; fuzz -d u3.bmbt.keys[1].startoff sub
std | a bmbt leaf's record count past the block: the leaf still claimed, the blocks after it not | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d numrecs ones
std | a block directory's only block mapped past the data space: no '.', cleared, not kept in phase 4 | inode {ino:/dir_block}; fuzz -d u3.bmx[0].startoff middlebit
std | a leaf directory's data extent moved a block on: the hash table said, not the tail | inode {ino:/dir_leaf}; fuzz -d u3.bmx[2].startoff lastbit
plain | a short-form entry's file type past the last | inode {ino:/dir_sf}; write -d u3.sfdir3.list[0].filetype 99
std | a short-form entry renamed as the one before it: a duplicate name, junked in phase 6 | inode {ino:/dir_sf}; write -d u3.sfdir3.list[1].name "a"
std | a short-form directory of size 0: kept, sized anew, unmapped | inode {ino:/dir_sf}; write -d core.size 0
plain | a short-form directory's size past its fork | inode {ino:/dir_sf}; fuzz -d core.size add
std | an extent count of a short-form directory | inode {ino:/dir_sf}; fuzz -d core.nextents lastbit
std | a short-form entry count past the entries | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.hdr.count middlebit
std | a short-form i8count: 8-byte numbers read | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.hdr.i8count ones
std | a short-form parent of no inode | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.hdr.parent.i4 ones
std | a short-form entry of no name | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.list[0].namelen zeroes
plain | a short-form entry past the size | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.list[1].namelen firstbit
std | a short-form entry's offset out of order | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.list[0].offset zeroes
std | short-form offsets too high | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.list[1].offset ones
plain | a short-form entry name of NULs, its inode reached all the same | inode {ino:/dir_sf}; fuzz -d u3.sfdir3.list[0].name zeroes
plain | attribute leaf (block 0): a name offset past the block | inode {ino:/attr_leaf}; ablock 0; fuzz -d entries[0].nameidx lastbit
plain | attribute leaf (block 0): hashes out of order | inode {ino:/attr_leaf}; ablock 0; fuzz -d entries[1].hashval sub
plain | attribute fork block 0: neither leaf nor node | inode {ino:/attr_leaf}; ablock 0; fuzz -d hdr.info.hdr.magic zeroes
std | attribute leaf (block 0) of another owner: the verifier takes it, repair's own check does not | inode {ino:/attr_remote}; ablock 0; fuzz -d hdr.info.owner ones
plain | bmbt leaf: a record before the one before it | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -d recs[3].startoff 1
plain | bmbt leaf: records out of order in the second leaf | inode {ino:/file_btree}; addr u3.bmbt.ptrs[2]; write -d recs[5].startoff 1
plain | bmbt leaf: a record inside the extent before it | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -d recs[2].blockcount 3
plain | bmbt leaf: a record far past the rest (one line, not one per record after) | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -d recs[2].startoff 1000
plain | bmbt leaf: starts before the leaf before it ends | inode {ino:/file_btree}; addr u3.bmbt.ptrs[2]; write -d recs[1].startoff 100
plain | inode extent list out of order | inode {ino:/file_sparse}; write -d u3.bmx[1].startoff 0
plain | bmbt root: a key that is not its child's first | inode {ino:/file_btree}; write -d u3.bmbt.keys[2].startoff 9
plain | bmbt leaf: bad magic number | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -d magic 0
plain | bmbt leaf: wrong level | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -d level 1
plain | bmbt leaf: another inode's | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -d owner 5
plain | bmbt leaf: wrong block number | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; write -d bno 8
plain | bmbt leaf: no UUID | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d uuid zeroes
std | leaf directory: leaf block CRC | inode {ino:/dir_leaf}; dblock 8388608; write -c lhdr.count 401
std | leaf directory: leaf block blkno | inode {ino:/dir_leaf}; dblock 8388608; write -d lhdr.info.bno 5
std | leaf directory: leaf block owner | inode {ino:/dir_leaf}; dblock 8388608; write -d lhdr.info.owner 5
std | leaf directory: leaf block sibling (bad header) | inode {ino:/dir_leaf}; dblock 8388608; write -d lhdr.info.hdr.forw 7
std | leaf directory: bestcount too big (bad tail) | inode {ino:/dir_leaf}; dblock 8388608; write -d ltail.bestcount 300
std | leaf directory: bestcount too small (verifier) | inode {ino:/dir_leaf}; dblock 8388608; write -d ltail.bestcount 2
std | node directory: root node magic | inode {ino:/dir_node}; dblock 8388608; fuzz -d nhdr.info.hdr.magic zeroes
std | node directory: root node owner | inode {ino:/dir_node}; dblock 8388608; write -d nhdr.info.owner 5
std | node directory: root node count past its children | inode {ino:/dir_node}; dblock 8388608; write -d nhdr.count 500
std | node directory: node hash above its child's | inode {ino:/dir_node}; dblock 8388608; write -d nbtree[0].hashval 0x9fc5a000
std | node directory: node hash below its child's | inode {ino:/dir_node}; dblock 8388608; write -d nbtree[0].hashval 5
std | node directory: last node hash below the first | inode {ino:/dir_node}; dblock 8388608; write -d nbtree[9].hashval 0x10
std | node directory: leafn magic | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.info.hdr.magic zeroes
std | node directory: leafn blkno | inode {ino:/dir_node}; dblock 8388609; write -d lhdr.info.bno 5
std | node directory: leafn UUID | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.info.uuid zeroes
std | node directory: leafn count past the block | inode {ino:/dir_node}; dblock 8388609; write -d lhdr.count 1000
std | node directory: leafn hashes out of order, which the verifier does not check | inode {ino:/dir_node}; dblock 8388609; fuzz -d lents[0].hashval firstbit
std | node directory: leafn's last hash past the next leaf's first, the node's hash corrected | inode {ino:/dir_node}; dblock 8388609; fuzz -d lents[251].hashval ones
std | node directory: two leafn owners, the lowest named | inode {ino:/dir_node}; dblock 8388612; write -d lhdr.info.owner 7; dblock 8388609; write -d lhdr.info.owner 5
std | node directory: free block magic | inode {ino:/dir_node}; dblock 16777216; fuzz -d fhdr.hdr.magic zeroes
std | node directory: a leafn emptied, its node hash corrected, its entries without leaf entries | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.count zeroes
std | node directory: a leafn's count cut, no leaf entry for the rest | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.count middlebit
std | node directory: a leaf entry's address astray, only a rebuild said | inode {ino:/dir_node}; dblock 8388609; fuzz -d lents[0].address lastbit
std | node directory: a leafn's back pointer | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.info.hdr.back zeroes
std | node directory: a leafn's forward pointer 0, the walk short of the root's count | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.info.hdr.forw zeroes
std | node directory: a leafn's forward pointer to no block | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.info.hdr.forw ones
std | node directory: a leafn's forward pointer back to the first leaf | inode {ino:/dir_node}; dblock 8388609; fuzz -d lhdr.info.hdr.forw lastbit
std | node directory: a leafn's forward pointer past its neighbour | inode {ino:/dir_node}; dblock 8388609; write -d lhdr.info.hdr.forw 8388612
std | node directory: a leafn's forward pointer to a data block | inode {ino:/dir_node}; dblock 8388609; write -d lhdr.info.hdr.forw 1
std | node directory: the root's first pointer to a later leaf, whose back pointer stops the walk | inode {ino:/dir_node}; dblock 8388608; fuzz -d nbtree[0].before lastbit
std | node directory: the root's first pointer to the last leaf | inode {ino:/dir_node}; dblock 8388608; write -d nbtree[0].before 8388617
std | node directory: free block UUID | inode {ino:/dir_node}; dblock 16777216; fuzz -d fhdr.hdr.uuid zeroes
std | node directory: free block nvalid past the data blocks | inode {ino:/dir_node}; dblock 16777216; write -d fhdr.nvalid 2000
std | node directory: free block nvalid below nused | inode {ino:/dir_node}; dblock 16777216; write -d fhdr.nvalid 20
std | node directory: free block nused | inode {ino:/dir_node}; dblock 16777216; write -d fhdr.nused 1
std | node directory: free block best | inode {ino:/dir_node}; dblock 16777216; write -d fbests[3] 7
plain | block directory's bestfree table: refused in phase 3, read whole and kept in phase 4 | inode {ino:/dir_block}; dblock 0; fuzz -d bhdr.bestfree[0].offset zeroes
std | block directory's last free tag: junked in phase 4 | inode {ino:/dir_block}; dblock 0; fuzz -d bu[42].freetag add
plain | block directory's leaf hash: kept in phase 4, leaf matched in phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bleaf[2].hashval sub
plain | block directory's leaf address: no data entry | inode {ino:/dir_block}; dblock 0; fuzz -d bleaf[0].address lastbit
plain | block directory's stale count | inode {ino:/dir_block}; dblock 0; fuzz -d btail.stale sub
plain | block directory's magic number: fixed in phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bhdr.hdr.magic firstbit
plain | leaf directory's data block tag: junked in phases 4 and 6 | inode {ino:/dir_leaf}; dblock 0; fuzz -d du[0].tag zeroes
std | leaf directory's leaf hash (leaf form) | inode {ino:/dir_leaf}; dblock 8388608; fuzz -d lents[401].hashval add
std | block directory's owner: its entries unread in phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bhdr.hdr.owner ones
std | block directory's blkno: kept in phase 4, unread in phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bhdr.hdr.bno sub
std | leaf directory's data block owner: unread in phase 6, no data entry | inode {ino:/dir_leaf}; dblock 0; fuzz -d dhdr.hdr.owner add
plain | node directory's data block owner | inode {ino:/dir_node}; dblock 0; fuzz -d dhdr.hdr.owner ones
std | block directory's file type out of range (read as unknown) | inode {ino:/dir_block}; dblock 0; fuzz -d bu[2].filetype ones
plain | leaf directory's leaf address past its bests: the verifier's | inode {ino:/dir_leaf}; dblock 8388608; fuzz -d lents[2].address firstbit
plain | block directory's '..' naming the realtime bitmap: refused, kept in phase 4, its '..' read there and in phase 6 | inode {ino:/dir_block}; dblock 0; write -d bu[1].inumber 65
std | block directory's '..' out of range: corrected in phase 4, junked in phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bu[1].inumber middlebit
plain | leaf directory's first block '..' naming the realtime bitmap | inode {ino:/dir_leaf}; dblock 0; write -d du[1].inumber 65
std | node directory's data entry out of range, read item by item in phase 4 | inode {ino:/dir_node}; dblock 0; fuzz -d du[101].inumber firstbit
std | block directory's '.' renamed '&': an entry naming its directory, '.' to phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bu[0].name middlebit
std | block directory's '.' named NUL: printed padded | inode {ino:/dir_block}; dblock 0; fuzz -d bu[0].name zeroes
plain | block directory's '.' out of range: junked in phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bu[0].inumber middlebit
std | node directory: root node with a right sibling | inode {ino:/dir_node}; dblock 8388608; fuzz -d nhdr.info.hdr.forw ones
std | node directory: root's first pointer past the fork (can't map) | inode {ino:/dir_node}; dblock 8388608; fuzz -d nbtree[0].before ones
std | node directory: root's last pointer astray (bad hash path) | inode {ino:/dir_node}; dblock 8388608; fuzz -d nbtree[9].before add
std | node directory: a middle pointer astray, passed by | inode {ino:/dir_node}; dblock 8388608; fuzz -d nbtree[2].before zeroes
plain | leaf directory's data block bestfree: the leaf's bests against it (bad tail) | inode {ino:/dir_leaf}; dblock 0; fuzz -d dhdr.bestfree[0].length add
std | leaf directory's second data block junked in phase 6: its entries' inodes disconnected | inode {ino:/dir_leaf}; dblock 1; fuzz -d du[3].tag zeroes
plain | leaf directory's first data block junked in phase 6: no '.', its entries' inodes disconnected | inode {ino:/dir_leaf}; dblock 0; fuzz -d du[129].filetype add
std | leaf directory's '.' renamed: 'points to self', no '.' entry | inode {ino:/dir_leaf}; dblock 0; fuzz -d du[0].name middlebit
std | leaf directory's '..' renamed: no '..' entry | inode {ino:/dir_leaf}; dblock 0; fuzz -d du[1].name firstbit
plain | node directory's '.' renamed NUL: printed padded | inode {ino:/dir_node}; dblock 0; fuzz -d du[0].name zeroes
std | block directory: an entry naming its directory further on: not the first entry, counted | inode {ino:/dir_block}; dblock 0; write -d bu[2].inumber {ino:/dir_block}
std | block directory: '.' naming a file, an entry naming the directory further on: no '.' made | inode {ino:/dir_block}; dblock 0; write -d bu[0].inumber {ino:/dir_block/entry_1}; write -d bu[3].inumber {ino:/dir_block}
std | block directory's '.' with an empty name: its file type checked in phase 6 | inode {ino:/dir_block}; dblock 0; fuzz -d bu[0].namelen zeroes
std | block directory's '..' naming the directory itself | inode {ino:/dir_block}; dblock 0; write -d bu[1].inumber {ino:/dir_block}
EOF
# ---- attribute forks in the reference's words: a leaf block's entries
# read in order up to the first flaw ("bad hashvalue for attribute entry",
# "attribute entry #N ... is INCOMPLETE", "inconsistent remote attribute
# entry", "has bad name (namelen = N)", "multiply claimed byte N in da
# block" and "claims used space"), the root's siblings ("would clear
# forw/back pointers in block 0"), block 0 unmapped ("block 0 of inode N
# attribute fork is missing", also for an extent count past the maximum,
# of which the reference walks no record; a count within it but past the
# fork is walked to the first bad record); a short-form fork ("name or
# value attribute lengths are too large", "zero length name entry", the
# count and total size corrected, "would junk the attribute fork since
# count is 0") and its size past the fork ("local inode N attr fork too
# large", the fork cleared, the inode kept)
cat >> "$T/cases" <<'EOF'
plain | attribute leaf: an entry's hash | inode {ino:/attr_leaf}; ablock 0; fuzz -d entries[0].hashval zeroes
std | attribute leaf: an INCOMPLETE entry | inode {ino:/attr_leaf}; ablock 0; fuzz -d entries[29].incomplete ones
std | attribute leaf: a local entry read as remote | inode {ino:/attr_remote}; ablock 0; fuzz -d entries[0].local lastbit
plain | attribute leaf: a name of NUL bytes | inode {ino:/attr_leaf}; ablock 0; fuzz -d nvlist[0].namelen firstbit
plain | attribute leaf: a value over the next name | inode {ino:/attr_leaf}; ablock 0; fuzz -d nvlist[2].valuelen lastbit
std | attribute leaf: the root with a sibling | inode {ino:/attr_leaf}; ablock 0; fuzz -d hdr.info.hdr.back middlebit
plain | attribute fork: block 0 unmapped | inode {ino:/attr_leaf}; fuzz -d a.bmx[0].startoff add
plain | attribute fork: an extent count past the maximum | inode {ino:/attr_leaf}; fuzz -d core.naextents firstbit
plain | attribute fork: an extent count past the fork, walked to its zeros | inode {ino:/attr_leaf}; fuzz -d core.naextents middlebit
std | short-form attributes: an extent count (reset, the fork kept) | inode {ino:/attr_sf}; fuzz -d core.naextents lastbit
std | short-form attributes: a name past the total size | inode {ino:/attr_sf}; fuzz -d a.sfattr.list[0].namelen middlebit
std | short-form attributes: a name of length zero | inode {ino:/attr_sf}; fuzz -d a.sfattr.list[0].namelen zeroes
std | short-form attributes: a count of zero | inode {ino:/attr_sf}; fuzz -d a.sfattr.hdr.count zeroes
plain | short-form attributes: one byte less in a name | inode {ino:/attr_sf}; fuzz -d a.sfattr.list[0].namelen lastbit
std | short-form attributes: a total size past the fork | inode {ino:/attr_sf}; fuzz -d a.sfattr.hdr.totsize middlebit
EOF
# ---- free space btrees the reference counts as empty or reads at the
# AGF's height: their roots out of the AG, at a wrong or impossible height,
# or of another kind ("agf_freeblks N, counted 0", "agf_longest",
# "sb_fdblocks", "free space (A,B-E) only seen by one free space btree" in
# phase 4, "expected level -1", "bad btree nrecs", "bad btree pointer (0)",
# "unknown block state" for a refused root an rmapbt maps)
cat >> "$T/cases" <<'EOF'
plain | bnobt root 0: the cntbt's free extents seen by one tree | agf 0; write -d bnoroot 0
plain | cntbt root 0: counted empty | agf 1; write -d cntroot 0
plain | cntbt levels 0: the root read at level -1 | agf 1; write -d cntlevel 0
plain | bnobt levels past the tallest tree: a leaf read as a node | agf 0; write -d bnolevel 5
plain | bnobt levels plausible but wrong | agf 0; write -d bnolevel 2
std | cntbt levels wrong, with an rmapbt: the root still the tree's | agf 0; write -d cntlevel 2
plain | cntbt root of another kind: counted empty | agf 0; addr cntroot; write -d magic 0
std | bnobt root of another kind, with an rmapbt: unknown block state | agf 1; addr bnoroot; write -d magic 0
# the inode btrees and the AGI, as the reference reads them: a leaf its
# verifier refuses ("btree block A/B is suspect") holds uncertain inodes,
# not chunks ("root inode chunk not found", "found inodes not in the
# inode allocation tree", "undiscovered finobt record"); a root of
# another kind holds nothing ("agi_count N, counted 0"); a root read at
# an AGI height out of range ("expected level -1", "bad btree pointer
# (0) in inobt block"); a record's counts against its masks
# ("ir_freecount/free mismatch", "invalid inode count", "ir_holemask/
# ir_free mismatch"), the AGI's totals from the records' counts; a
# finobt record whose holes cover the inobt's inode blocks ("sparse
# inode chunk claims inode block"); the AGI header's own words ("bad
# uuid U for agi N", "bad version # -1", "bad sequence # -1", "bad
# length # -N for agi N": each a signed number)
plain | inobt leaf of another owner: uncertain inodes, the root chunk stood in | agi 0; addr root; fuzz -d owner ones
plain | inobt leaf with no left sibling in the AG | agi 0; addr root; fuzz -d leftsib zeroes
std | inobt leaf with a right sibling outside the AG: the finobt's record read | agi 0; addr root; fuzz -d rightsib sub
std | inobt root of another kind: no records, the finobt's read | agi 0; addr root; fuzz -d magic lastbit
plain | inobt levels past the tallest tree: the leaf read as a node | agi 1; write -d level 2018
std | inobt levels 0: the root read at level -1 | agi 0; write -d level 0
std | finobt levels past the tallest tree | agi 1; write -d free_level 2018
plain | inobt record count other than its holes say | agi 0; addr root; fuzz -d recs[1].count middlebit
plain | inobt record free count zero | agi 0; addr root; fuzz -d recs[1].freecount zeroes
plain | inobt record holes over free and used inodes | agi 0; addr root; fuzz -d recs[1].holemask middlebit
std | finobt record count zero | agi 0; addr free_root; fuzz -d recs[1].count zeroes
std | finobt record with no free inode | agi 0; addr free_root; fuzz -d recs[1].free zeroes
std | finobt record holes over the inobt's inode blocks | agi 0; addr free_root; fuzz -d recs[1].holemask add
std | AGI UUID damaged | agi 0; fuzz -d uuid firstbit
std | AGI version -1 | agi 0; write -d versionnum 0xffffffff
std | AGI sequence number -1 | agi 0; write -d seqno 0xffffffff
std | AGI length with its top bit set | agi 0; fuzz -d length firstbit
plain | primary superblock with the old project quota bits (and a free inode count off, for exit 1) | sb 0; fuzz -d qflags add; write -d ifree 3
std | primary superblock's root inode number moved: the computed one used from then on | sb 0; write -d rootino 192
std | primary superblock's realtime bitmap inode number moved | sb 0; write -d rbmino 200
std | primary superblock's btree feature bits changed: the root plausible where it is, no stripe unit found for it | sb 0; fuzz -d features_ro_compat add
std | primary superblock's btree feature bits cleared | sb 0; fuzz -d features_ro_compat zeroes
# a data fork damaged part way: the blocks claimed before it stay in use
std | bmbt leaf: a record out of order, the blocks before it claimed | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d recs[1].startoff add
std | bmbt leaf: its block number, nothing of the tree claimed | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d bno firstbit
std | extent list: a bad second offset, the first extent claimed | inode {ino:/dir_leaf}; fuzz -d u3.bmx[1].startoff lastbit
std | extent list: an unwritten fourth extent, three claimed | inode {ino:/dir_leaf}; fuzz -d u3.bmx[3].extentflag ones
# the walk of a data fork: its extent count, the block map it is held to
plain | a directory's extent count past 2^31-1: no extent walked, no '.' | inode {ino:/dir_leaf}; fuzz -d core.nextents firstbit
plain | a file's extent count past 2^31-1: reset to 0, kept | inode {ino:/file_small}; fuzz -d core.nextents firstbit
plain | a directory marked for large extent counts without the feature | inode {ino:/dir_leaf}; fuzz -d v3.nrext64 ones
std | an extent over an inode chunk: claims metadata in phase 3 | inode {ino:/dir_leaf}; fuzz -d u3.bmx[2].startblock sub
std | an extent grown over AG metadata | inode {ino:/file_small}; fuzz -d u3.bmx[0].blockcount middlebit
std | an extent moved onto free space: said in phase 3, kept | inode {ino:/file_small}; fuzz -d u3.bmx[0].startblock add
std | a bmbt leaf's extent moved onto free space | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d recs[1].startblock add
plain | an attribute extent moved onto free space | inode {ino:/attr_leaf}; write -d a.bmx[0].startblock 15000
plain | an extent over a later file's blocks: that file claims used | inode {ino:/file_small}; write -d u3.bmx[0].startblock 50
plain | a directory's extent over an earlier file's: "regular" inode | inode {ino:/dir_block}; write -d u3.bmx[0].startblock 30
plain | an attribute extent over an earlier file's blocks | inode {ino:/attr_leaf}; write -d a.bmx[0].startblock 30
plain | an extent over a bmbt leaf and its data: bmap block claimed | inode {ino:/file_small}; write -d u3.bmx[0].startblock 1554
plain | an extent over a bmbt leaf only: cleared in phase 4 | inode {ino:/file_small}; write -d u3.bmx[0].startblock 1554; write -d u3.bmx[0].blockcount 1
plain | a file's extent over the bnobt root: cleared, kept in phase 4 | inode {ino:/file_small}; write -d u3.bmx[0].startblock 1
std | a file's extent over AG btree roots: kept in phase 4, its rmap missing | inode {ino:/file_small}; write -d u3.bmx[0].startblock 1
plain | a file's second extent over the inobt root: kept in phase 4 | inode {ino:/file_sparse}; write -d u3.bmx[1].startblock 3
plain | a file's extent over the log: cleared for good | inode {ino:/file_small}; write -d u3.bmx[0].startblock 65545
plain | an extent over an AGFL block: free to the reference | inode {ino:/file_sparse}; write -d u3.bmx[1].startblock 5
plain | an extent grown over its own next ones: phase 4's bad record | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d recs[1].blockcount add
plain | an extent grown over a later file's: that file kept in phase 4 | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d recs[2].blockcount add
std | a later file's extent over a bmbt leaf: shared, the btree file cleared in phase 4 | inode {ino:/file_sparse}; write -d u3.bmx[0].startblock 1559
plain | bmbt root in the inode: bad level | inode {ino:/file_btree}; fuzz -d u3.bmbt.level ones
plain | bmbt root in the inode: extents read as a root, level 0 | inode {ino:/file_sparse}; fuzz -d core.format lastbit
plain | bmbt root in the inode: no records | inode {ino:/file_btree}; write -d u3.bmbt.numrecs 0
plain | bmbt root in the inode: more records than the fork holds | inode {ino:/file_btree}; write -d u3.bmbt.numrecs 100
plain | extent list: a start block among the AG headers | inode {ino:/file_sparse}; fuzz -d u3.bmx[1].startblock zeroes
plain | symlink extent: a start block among the AG headers | inode {ino:/link_long}; fuzz -d u3.bmx[0].startblock zeroes
plain | extent count past the fork: the walk stops at the first zero record | inode {ino:/file_sparse}; fuzz -d core.nextents middlebit
plain | a directory's extent count past the fork | inode {ino:/dir_block}; fuzz -d core.nextents add
# extent counters past the largest their format allows: walked as none
plain | a data extent count past its bound: none walked, the counters reset | inode {ino:/file_small}; fuzz -d core.nextents firstbit
std | the root's extent count past its bound: a directory of no blocks | inode {ino:/}; fuzz -d core.nextents sub
plain | an attribute extent count past its bound: no block 0 | inode {ino:/file_sparse}; fuzz -d core.naextents ones
plain | an attribute extent count past the fork, within its bound | inode {ino:/file_small}; fuzz -d core.naextents add
plain | an attribute extent count without an attribute fork | inode {ino:/}; fuzz -d core.naextents lastbit
std | the large extent counts flag without the feature: counters read large | inode {ino:/}; fuzz -d v3.nrext64 add
plain | the large extent counts flag on a file: the attribute count past the fork | inode {ino:/file_btree}; fuzz -d v3.nrext64 ones
# the realtime flag without a realtime device
std | realtime flag on a file: cleared | inode {ino:/file_btree}; fuzz -d core.realtime ones
plain | realtime flag on the root: its blocks ordinary, unreadable to the kernel | inode {ino:/}; fuzz -d core.realtime ones
plain | realtime flag on a device | inode {ino:/chardev}; fuzz -d core.realtime ones
plain | realtime flag on a bmbt directory: its blocks unmapped in phase 6 | inode {ino:/dir_node}; fuzz -d core.realtime ones
# a version other than 3: the forks read where a v1/v2 core ends (byte
# 100), the timestamps still checked; kept under -n if nothing else is bad
std | a fifo's version 2: kept, its timestamps' nanoseconds | inode {ino:/fifo}; fuzz -d core.version lastbit
std | a fifo's version 1: its link count is di_onlink | inode {ino:/fifo}; write -d core.version 1
std | a symlink's version 0: its extent read from byte 100 | inode {ino:/link_long}; fuzz -d core.version zeroes
std | a short symlink's version 0: its target read from byte 100 | inode {ino:/link_short}; fuzz -d core.version zeroes
std | the root's version 0: an unwritten extent from byte 100, root lost | inode {ino:/}; fuzz -d core.version zeroes
std | a file's version 0x8c: an extent past the largest offset | inode {ino:/file_small}; fuzz -d core.version add
std | a file's version whose extent from byte 100 is sound: kept | inode {ino:/file_small}; write -d v3.change_count 7; write -d v3.lsn 0x100000002; write -d core.version 0x83; write -c v3.crc 0
std | a btree file's version 0: the bmbt root's level from byte 100 | inode {ino:/file_btree}; fuzz -d core.version zeroes
std | a sparse file's version -1 | inode {ino:/file_sparse}; fuzz -d core.version ones
std | a short-form directory's version 0: its entries from byte 100, unmapped | inode {ino:/dir_sf}; fuzz -d core.version zeroes
std | a block directory's version 0: a start block past its AG | inode {ino:/dir_block}; fuzz -d core.version zeroes
std | a leaf directory's version 0x7a | inode {ino:/dir_leaf}; fuzz -d core.version sub
std | a node directory's version 0xb | inode {ino:/dir_node}; fuzz -d core.version middlebit
std | a device's version -1: kept | inode {ino:/chardev}; fuzz -d core.version ones
std | a short-form attribute fork from byte 100: too small, unmapped | inode {ino:/attr_sf}; fuzz -d core.version zeroes
plain | the root's version 0x8c: root lost | inode {ino:/}; fuzz -d core.version add
plain | a btree file's version 0x83 | inode {ino:/file_btree}; fuzz -d core.version firstbit
plain | a short-form directory's version 2 | inode {ino:/dir_sf}; fuzz -d core.version lastbit
plain | a leaf directory's version 0 | inode {ino:/dir_leaf}; fuzz -d core.version zeroes
plain | a symlink's version 0xb | inode {ino:/link_long}; fuzz -d core.version middlebit
plain | a leaf attribute fork's inode of version 0 | inode {ino:/attr_leaf}; fuzz -d core.version zeroes
# an attribute format with no attribute fork: a value to reset
plain | the root's attribute format without a fork (negative) | inode {ino:/}; fuzz -d core.aformat ones
plain | a symlink's attribute format 0 without a fork | inode {ino:/link_short}; write -d core.aformat 0
std | the root's attribute format 0 without a fork | inode {ino:/}; write -d core.aformat 0
plain | a symlink's attribute format without a fork | inode {ino:/link_short}; fuzz -d core.aformat lastbit
# symlinks' maps and blocks; extents past their AG; bmbt blocks
std | a symlink extent longer than a target needs | inode {ino:/link_long}; fuzz -d u3.bmx[0].blockcount middlebit
std | a symlink extent not at offset 0 | inode {ino:/link_long}; fuzz -d u3.bmx[0].startoff firstbit
std | a symlink with no extents: its block unmapped | inode {ino:/link_long}; fuzz -d core.nextents lastbit
plain | a short symlink's extent counter past its bound | inode {ino:/link_short}; fuzz -d core.nextents sub
std | a symlink in btree format | inode {ino:/link_long}; write -d core.format 3
std | a file's data fork format of a device | inode {ino:/file_small}; fuzz -d core.format zeroes
std | a file's attribute fork in btree format of no root | inode {ino:/file_small}; fuzz -d core.aformat lastbit
std | a character device's size below zero | inode {ino:/chardev}; fuzz -d core.size ones
std | a short symlink's size past its fork | inode {ino:/link_short}; fuzz -d core.size middlebit
std | a remote symlink of size 0 | inode {ino:/link_long}; write -d core.size 0
std | a remote symlink of more extents than a target needs | inode {ino:/link_long}; fuzz -d core.nextents middlebit
std | a remote symlink's size past the longest target | inode {ino:/link_long}; fuzz -d core.size add
std | a remote symlink one byte longer than its block says | inode {ino:/link_long}; fuzz -d core.size lastbit
std | a symlink block's checksum alone wrong | inode {ino:/link_long}; dblock 0; fuzz -c crc add
std | a symlink block's checksum and owner wrong | inode {ino:/link_long}; dblock 0; fuzz -c owner add
std | a symlink extent moved to a block of something else | inode {ino:/link_long}; fuzz -d u3.bmx[0].startblock add
plain | a btree fork's extent counter past its bound | inode {ino:/file_btree}; fuzz -d core.nextents ones
plain | an extent that runs past its AG ("overflows") | inode {ino:/file_small}; fuzz -d u3.bmx[0].blockcount sub
plain | bmbt leaf: more records than fit | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d numrecs middlebit
plain | bmbt leaf: a level no bmbt has | inode {ino:/file_btree}; addr u3.bmbt.ptrs[1]; fuzz -d level firstbit
std | bmbt root: a pointer out of range | inode {ino:/file_btree}; fuzz -d u3.bmbt.ptrs[1] middlebit
EOF
# ---- the AGF, the free space, rmap and refcount btrees at record level:
# records the reference does not take ("invalid start block", "invalid
# length"), out of order, over blocks already claimed ("multiply claimed
# by bno space tree, state - S"); the rmapbt's records (non-inode owners
# with flags or an offset, "invalid owner", block states it maps again:
# "AG meta block ... mismatch"); trees it would rebuild rather than
# compare ("would rebuild corrupt rmap btrees."), an rmapbt or refcountbt
# read from an impossible AGF height ("expected level -2"), the AGF's
# rmapbt's records against their parents' high keys, fork and bmbt
# flags included ("record N greater than high key"), the
# rmapbt block count (the blocks it reads up to a node pointer outside
# the AG, counted before their level is checked, not if refused and of
# another kind) and the AGF's btreeblks and the superblock's free count
# from it, AGF fields printed signed and the AGF's UUID; file
# mappings an rmapbt with damaged keys hides from the reference's lookups
# ("Missing reverse-mapping record"), and those of the headers, the log
# and the inode chunks, looked up the same way (a key equal to the
# lookup's takes the first record below it, whatever it holds: "Could
# not read reverse-mapping record", after libxfs's "Corrupt btree 2
# pointer" where a node pointer leaves the AG); the rmapbt's blocks of AG btrees
# are not looked up; the inode btrees' blocks against the states the
# rmapbt gave ("inobt btree block claimed (state S)")
cat >> "$T/cases" <<'EOF'
std | bnobt record: a start past the AG | agf 0; addr bnoroot; fuzz -d recs[3].startblock ones
std | bnobt record: a length past the AG | agf 0; addr bnoroot; fuzz -d recs[1].blockcount ones
std | cntbt record: a start past the AG | agf 0; addr cntroot; fuzz -d recs[1].startblock ones
plain | cntbt record: a zero length | agf 0; addr cntroot; fuzz -d recs[2].blockcount zeroes
plain | cntbt record: a free extent listed twice | agf 0; addr cntroot; fuzz -d recs[1].startblock add
std | bnobt: stale records past the count, out of order and claimed twice | agf 0; addr bnoroot; fuzz -d numrecs lastbit
std | AGFL entry on a free block: claimed twice by both trees | agfl 1; fuzz -d bno[2] add
std | rmapbt leaf: a non-inode owner with an offset | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[1].offset lastbit
std | rmapbt leaf: a non-inode owner with flags | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[3].attrfork ones
std | rmapbt leaf: an impossible owner over btree blocks | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[2].owner ones
std | rmapbt leaf: a start past the AG | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[2].startblock middlebit
std | rmapbt leaf: a length past the AG | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[2].blockcount ones
std | rmapbt leaf of another kind: would rebuild, block count | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d magic middlebit
std | refcountbt root: no UUID, would rebuild | agf 0; addr refcntroot; fuzz -d uuid middlebit
std | refcountbt root out of the AG: would rebuild | agf 1; fuzz -d refcntroot firstbit
std | rmapbt levels impossible: read from level -2 | agf 1; fuzz -d rmaplevel ones
std | rmapbt levels impossible: a root read two levels too low | agf 0; fuzz -d rmaplevel sub
std | refcountbt levels impossible: a leaf read as a node | agf 0; fuzz -d refcntlevel middlebit
plain | AGF version printed signed | agf 0; fuzz -d versionnum firstbit
plain | AGF fllast printed signed | agf 1; fuzz -d fllast ones
plain | AGF flcount printed signed | agf 0; fuzz -d flcount sub
std | AGF UUID printed | agf 0; fuzz -d uuid ones
plain | bnobt root on a data block: a bad checksum first | agf 1; fuzz -d bnoroot add
std | rmapbt root: a first key past the AG, its child's records missed by lookups | agf 0; addr rmaproot; fuzz -d keys[1].startblock sub
std | rmapbt root: a second key's offset raised, one record missed | agf 0; addr rmaproot; fuzz -d keys[2].offset middlebit
std | rmapbt root: a first pointer of 0 ends its walk, counted blocks and lookups | agf 0; addr rmaproot; fuzz -d ptrs[1] zeroes
std | rmapbt root: a last pointer past the AG, the first child counted | agf 0; addr rmaproot; fuzz -d ptrs[2] ones
std | rmapbt root: a child of another kind, not counted | agf 0; addr rmaproot; fuzz -d ptrs[1] add
std | rmapbt root: too many records for a node, only the root counted | agf 0; addr rmaproot; fuzz -d numrecs middlebit
std | rmapbt root at a level its verifier refuses, counted all the same | agf 0; addr rmaproot; fuzz -d level add
std | rmapbt root at level 0: read as a node, its children counted | agf 0; addr rmaproot; fuzz -d level zeroes
std | rmapbt leaf at a level its verifier refuses, counted all the same | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d level add
std | rmapbt leaf refused at level 1: its record count not held to a node's | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d level lastbit
std | rmapbt root with no records: not too few for a root | agf 0; addr rmaproot; fuzz -d numrecs zeroes
std | rmapbt leaf: the last record's attr fork flag, past its parent's high key | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[144].attrfork add
std | primary superblock's UUID zeroed: every AG skipped, none of its trees read, its rmapbt roots refused by the lookups | sb 0; fuzz -d uuid zeroes
std | a free inode's magic number: "free inode N contains errors" | inode 160; write -d core.magic 0
std | a free inode's version, its CRC left stale | inode 160; write -d core.version 1
std | a free inode's UUID: cleared | inode 170; fuzz -d v3.uuid ones
std | a free inode's number: cleared | inode 150; fuzz -d v3.inumber add
std | a free inode's next_unlinked naming no inode | inode 160; write -d next_unlinked 99999999
std | an AGI unlinked bucket of an inode hashed to another bucket | agi 2; write -d unlinked[3] 12345
std | an AGI unlinked bucket of an inode past the AG | agi 1; write -d unlinked[5] 0x7fffffc5
std | a finobt record whose start is no inode of the AG | agi 1; addr free_root; fuzz -d recs[1].startino ones
std | a finobt record one inode into an inobt chunk | agi 1; addr free_root; fuzz -d recs[1].startino lastbit
std | a misaligned finobt record of no inobt chunk | agi 1; addr free_root; fuzz -d recs[1].startino add
std | an inobt record one inode past its chunk's start | agi 1; addr root; fuzz -d recs[1].startino lastbit
std | a misaligned inobt record | agi 1; addr root; fuzz -d recs[1].startino add
std | an rmap record of a directory block moved to block 0 | agf 1; addr rmaproot; fuzz -d recs[7].startblock zeroes
std | an rmap record of a directory block gone short | agf 1; addr rmaproot; fuzz -d recs[7].blockcount zeroes
std | the rmap record of an inode chunk moved out of the AG | agf 1; addr rmaproot; fuzz -d recs[8].startblock ones
std | the rmap record of the AG headers moved out of the AG | agf 1; addr rmaproot; fuzz -d recs[1].startblock ones
std | the refcountbt root a level too high: its count held to a leaf's | agf 0; addr refcntroot; fuzz -d level lastbit
std | the AGF free block count 0, below the longest extent | agf 2; fuzz -d freeblks zeroes
std | the AGF longest extent past the free space | agf 2; fuzz -d longest add
std | the AGF rmapbt block count past the AG | agf 2; fuzz -d rmapblocks ones
std | the AGI free inode count past the inode count | agi 2; fuzz -d freecount add
std | an inobt record calling used inodes holes | agi 1; addr root; fuzz -d recs[1].holemask lastbit
std | an inobt record of all holes | agi 1; addr root; fuzz -d recs[1].holemask ones
std | an inobt record's hole of half a cluster | agi 1; addr root; fuzz -d recs[1].holemask firstbit
std | a finobt record of all holes | agi 1; addr free_root; fuzz -d recs[1].holemask ones
std | a finobt record calling used inodes holes | agi 1; addr free_root; fuzz -d recs[1].holemask middlebit
std | a free inode's realtime flag: the first look's words only | inode 160; write -d core.flags 0x1
std | a free inode's CoW hint flag: the kernel's verifier | inode 160; write -d v3.flags2 0x4
std | a free inode's attribute fork format | inode 160; fuzz -d core.aformat ones
std | rmapbt leaf: a first record out of the AG, landed on below a key equal to the lookup's | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[1].startblock middlebit
std | rmapbt leaf: the headers' record with a flag, looked up | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[1].attrfork add
std | rmapbt leaf: the headers' record of another owner | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[1].owner lastbit
std | rmapbt leaf: an inode chunk's record moved, missed by its lookup | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[9].startblock add
std | rmapbt leaf: a free space btree record with a flag, not looked up | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[2].attrfork add
std | rmapbt leaf: inode btree blocks given to a file, claimed by the inode btrees | agf 0; addr rmaproot; addr ptrs[1]; fuzz -d recs[3].owner add
EOF
# ---- reference counts: each shared extent looked up in the refcountbt as
# the reference looks it up (the last record at or before its start):
# "Incorrect reference count" against the record before it, "Missing
# reference count record" where none is, a record its library refuses
# ("Refcount BTree record corruption", "Could not read reference count
# record"); records the reference does not take ("invalid start block",
# "invalid length", nothing else of them); a CoW record over file blocks
# ("extent (A/B) len L claimed, state is S"); a leaf holding more records
# than fit, whose records it reads as far as they fit; a root it refuses, whose
# block it neither counts ("bad refcountbt block count 0, saw N") nor
# marks in use; the reflink flag of a file
# that shares blocks ("setting reflink flag on inode N"), also of one
# the reference "would have cleared" and keeps (a bad magic number,
# next_unlinked or attribute fork: it forgets the flag, not the blocks);
# a file taking an AGFL block, free to the reference, whose counts are
# still compared; a block of a directory or symlink and of
# a file: shared where the file is the later inode, else the later one
# "claims used block" and counts in nothing
cat >> "$T/cases" <<'EOF'
std | refcount record: count raised | agf 0; addr refcntroot; fuzz -d recs[1].refcount add
std | refcount record: start moved back, compared with the shared extent | agf 0; addr refcntroot; fuzz -d recs[1].startblock lastbit
std | refcount record: start moved on, the shared extent missing | agf 0; addr refcntroot; fuzz -d recs[1].startblock add
std | refcount record: start 0, not taken, then refused by the lookup | agf 0; addr refcntroot; fuzz -d recs[1].startblock zeroes
std | refcount record: a start past the AG, not taken | agf 0; addr refcntroot; fuzz -d recs[1].startblock middlebit
std | refcount record: a length past the AG, refused by the lookup | agf 0; addr refcntroot; fuzz -d recs[1].blockcount sub
std | refcount record: a zero length | agf 0; addr refcntroot; fuzz -d recs[1].blockcount zeroes
std | refcount record: no owner | agf 0; addr refcntroot; fuzz -d recs[1].refcount zeroes
std | refcount record: one owner outside the CoW domain, over file blocks | agf 0; addr refcntroot; write -d recs[1].refcount 1
std | refcountbt root of another kind: not read, not counted, not in use | agf 0; addr refcntroot; fuzz -d magic add
std | refcountbt root at a level its verifier refuses: not read, not counted | agf 0; addr refcntroot; fuzz -d level add
std | refcountbt: stale zeroed records past the count, each not taken | agf 0; addr refcntroot; fuzz -d numrecs middlebit
std | refcountbt leaf: more records than fit, each read as far as they fit | agf 0; addr refcntroot; fuzz -d numrecs add
std | reflink: a file maps a shared block, counts wrong on either side | inode {ino:/file_sparse}; write -d u3.bmx[0].startblock 14
std | reflink: a later file in another AG maps a shared block | inode {ino:/deep/er/still/file}; write -d u3.bmx[0].startblock 13
std | reflink: a file with the flag cleared shares blocks | inode {ino:/file_reflink}; write -d v3.reflink 0
std | reflink: a shared file kept with a bad magic number | inode {ino:/file_reflink}; write -d core.magic 0
std | reflink: a shared file kept with a bad next_unlinked | inode {ino:/file_reflink}; write -d next_unlinked 0
std | reflink: a shared file kept with a bad attribute fork format | inode {ino:/file_reflink}; write -d core.aformat 139
std | reflink: a shared file kept with a bad attribute extent count | inode {ino:/file_reflink}; fuzz -d core.naextents lastbit
std | reflink: a shared file maps an AGFL block, its counts compared | inode {ino:/file_reflink}; fuzz -d u3.bmx[0].startblock lastbit
std | reflink: the root directory's block mapped by later files, counted | inode {ino:/}; write -d u3.bmx[0].startblock 13
std | reflink: a later directory maps a file's block, claims used block | inode {ino:/dir_block}; write -d u3.bmx[0].startblock 13 | ^(correcting nextents for inode|bad data fork in inode) [0-9]+$
std | reflink: a later symlink maps a file's block, claims used block | inode {ino:/link_long}; write -d u3.bmx[0].startblock 13 | ^(correcting nextents for inode|bad data fork in inode) [0-9]+$
EOF
sed -i '/^#/d' "$T/cases"
# CASES=REGEX runs only the cases whose line matches (when chasing one)
if [ -n "${CASES:-}" ]; then
	grep -E -- "$CASES" "$T/cases" > "$T/cases.only"
	mv "$T/cases.only" "$T/cases"
fi
sample_cases < "$T/cases" > "$T/cases.run"
mv "$T/cases.run" "$T/cases"
plan "$(($(wc -l < "$T/cases") + 2))"

# the un-splicing itself, on a cut the reference was seen to make
printf '%s\n' 'bad attribute format 3 in inode 78,         - agno = 2' \
	'would reset value' '        - agno = 3' > "$T/spliced"
if [ "$(unsplice < "$T/spliced" | grep -v '^        - ')" = \
     'bad attribute format 3 in inode 78, would reset value' ]; then
	ok "a message cut by a progress line is put back together"
else
	not_ok "a message cut by a progress line is put back together"
	diag "$(unsplice < "$T/spliced")"
fi

# the reference sets every AG's reflink flags before it checks any AG's
# reference counts: its flag lines come first
src=$(rp_image std) && rp_copy "$src" "$T/x.img" &&
	rc_damage std "inode {ino:/file_sparse}; write -d u3.bmx[0].startblock 14" \
		"$T/x.img" "$T/db.out" &&
	"$XK_REPAIR" -n "$T/x.img" > "$T/ours.raw" 2>&1
flag=$(grep -n '^setting reflink flag on inode' "$T/ours.raw" | head -1 | cut -d: -f1)
count=$(grep -n '^Incorrect reference count' "$T/ours.raw" | head -1 | cut -d: -f1)
if [ -n "$flag" ] && [ -n "$count" ] && [ "$flag" -lt "$count" ]; then
	ok "reflink flag lines come before the reference count lines"
else
	not_ok "reflink flag lines come before the reference count lines"
	diag "$(grep -v '^        - ' "$T/ours.raw" | head -20)"
fi
rp_rm "$T/x.img"

# kinds of lines: the words, every number made N, with their counts
kinds() { sed -E 's/(0x)?[0-9a-f]*[0-9][0-9a-f]*/N/g' | sort | uniq -c; }
mkdir -p "$RP_CACHE/ref-lines"
while IFS='|' read -r image what cmds leftout; do
	rc_trim image "$image"
	rc_trim what "$what"
	rc_trim leftout "$leftout"
	src=$(rp_image "$image") || { not_ok "$what: image $image"; continue; }
	img="$T/x.img"
	rp_copy "$src" "$img" || { not_ok "$what: copying the image"; continue; }
	if ! rc_damage "$image" "$cmds" "$img" "$T/db.out"; then
		not_ok "$what: xfs_db could not damage the image"
		diag "$(cat "$T/db.out")"
		rp_rm "$img"
		continue
	fi
	rp_devargs devs "$img"
	# shellcheck disable=SC2086
	"$XK_REPAIR" -n $devs "$img" > "$T/ours.raw" 2>&1
	rc_ours=$?
	sort -u "$T/ours.raw" > "$T/ours"
	kinds < "$T/ours.raw" > "$T/ours.kinds"
	# The reference's run on this damage is the same in every build (the
	# image is the cached one, the damage the reference xfs_db's): kept
	# beside the images (a file: its exit code, then its output), so the
	# sanitizer build's pass does not run it again.  But its phase 3
	# takes AGs on more than one thread: which of two inodes in different
	# AGs claims a block first can change with the load.  Where ours
	# misses a line or prints one more often (its phase 4 second look at
	# a directory in one AG can see an inode of another AG as cleared or
	# not yet), the reference is run again (up to four times: on a
	# loaded machine one order can come out several times in a row) and
	# any output it gives that ours covers is taken.
	refkey=$(sha256sum <<EOF
${src##*/}
$cmds
$RC_REF_VERSION
EOF
)
	refout="$RP_CACHE/ref-lines/${refkey%% *}"
	stale=""
	for attempt in 1 2 3 4 5; do
		if [ "$attempt" = 1 ] && [ -f "$refout" ]; then
			{ read -r rc_ref; cat > "$T/ref.raw"; } < "$refout"
			fresh=""
		else
			# shellcheck disable=SC2086
			"$REF_REPAIR" -n $devs "$img" > "$T/ref.raw" 2>&1
			rc_ref=$?
			fresh=1
		fi
		unsplice < "$T/ref.raw" | grep -aEv "$noise" > "$T/ref.joined"
		if [ -n "$leftout" ]; then
			# the left-out lines must be there: else the case is stale
			if ! grep -qE "$leftout" "$T/ref.joined"; then
				stale=1
				break
			fi
			grep -vE "$leftout" "$T/ref.joined" | sort -u > "$T/ref"
		else
			sort -u "$T/ref.joined" > "$T/ref"
		fi
		comm -23 "$T/ref" "$T/ours" > "$T/missing"
		kinds < "$T/ref.joined" > "$T/ref.kinds"
		awk 'NR == FNR { k = $0; sub(/^ *[0-9]+ /, "", k); ref[k] = $1; next }
		     { k = $0; sub(/^ *[0-9]+ /, "", k)
		       if ($1 > (k in ref ? ref[k] : 1)) print $1 "x (reference " (k in ref ? ref[k] : 0) "x): " k }' \
			"$T/ref.kinds" "$T/ours.kinds" | grep -Ev "$flood_ok" > "$T/flood"
		if [ -n "$fresh" ] && { [ "$attempt" = 1 ] || {
		   [ ! -s "$T/missing" ] && [ ! -s "$T/flood" ]; }; }; then
			{ echo "$rc_ref"; cat "$T/ref.raw"; } > "$refout.$$" &&
				mv "$refout.$$" "$refout"
		fi
		# ours of the strict kinds that the reference does not print
		grep -aE "$strict" "$T/ours" | comm -23 - "$T/ref" > "$T/false"
		[ -s "$T/missing" ] || [ -s "$T/false" ] || [ -s "$T/flood" ] ||
			break
	done
	if [ -n "$stale" ]; then
		not_ok "$what: the reference no longer prints '$leftout'"
		rp_rm "$img"
		continue
	fi
	if [ "$attempt" -gt 1 ] && [ ! -s "$T/missing" ]; then
		diag "$what: the reference's output varied; run $attempt was covered"
	fi
	if [ "$rc_ref" = 1 ] && [ "$rc_ours" = 1 ] && [ ! -s "$T/missing" ] &&
	   [ ! -s "$T/flood" ] && [ ! -s "$T/false" ]; then
		ok "$what: $(grep -c . "$T/ref") distinct reference lines, all ours too"
	else
		not_ok "$what"
		diag "exit codes: reference $rc_ref, ours $rc_ours; reference lines we do not print:"
		diag "$(head -20 "$T/missing")"
		diag "lines more often than the reference's:"
		diag "$(head -10 "$T/flood")"
		diag "lines of a strict kind the reference does not print:"
		diag "$(head -10 "$T/false")"
	fi
	rp_rm "$img"
done < "$T/cases"
done_testing
