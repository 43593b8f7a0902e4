#!/usr/bin/env python3
"""klist.py: the canonical listing of a mounted filesystem, as the kernel
sees it (tests/tools/LISTING.md).

    klist.py [-b BLOCKSIZE] MOUNTPOINT

walkfs -l prints the same listing from the unmounted image through libfs;
tests diff the two.  Everything comes from the kernel's own answers: lstat,
readlink, listxattr/getxattr (never following symlinks) and FIEMAP for the
data extents.  The physical block of an extent is FIEMAP's byte offset on
the device divided by the filesystem block size (-b, by default the
f_bsize statvfs reports, which on XFS is the superblock's block size).

Take the listing after syncfs (FIEMAP_FLAG_SYNC flushes each file too) so
that no delayed allocation is left.  Python 3 standard library only; run
as root so that trusted.* attributes are visible.
"""

import fcntl
import os
import stat
import struct
import sys

FS_IOC_FIEMAP = 0xC020660B
FIEMAP_FLAG_SYNC = 0x00000001
FIEMAP_EXTENT_LAST = 0x00000001
FIEMAP_EXTENT_UNWRITTEN = 0x00000800
FIEMAP_MAX_OFFSET = 0xFFFFFFFFFFFFFFFF

# struct fiemap: fm_start, fm_length (u64), fm_flags, fm_mapped_extents,
# fm_extent_count, fm_reserved (u32), then fm_extent_count extents.
FIEMAP_HEAD = struct.Struct("=QQIIII")
# struct fiemap_extent: fe_logical, fe_physical, fe_length,
# fe_reserved64[2] (u64), fe_flags, fe_reserved[3] (u32).
FIEMAP_EXTENT = struct.Struct("=QQQQQIIII")
EXTENTS_PER_CALL = 512

# The attribute namespaces the listing shows; system.* (ACLs) is left out.
XATTR_NAMESPACES = (b"user", b"trusted", b"security")

TYPES = (
    (stat.S_ISREG, "reg"),
    (stat.S_ISDIR, "dir"),
    (stat.S_ISLNK, "lnk"),
    (stat.S_ISCHR, "chr"),
    (stat.S_ISBLK, "blk"),
    (stat.S_ISFIFO, "fifo"),
    (stat.S_ISSOCK, "sock"),
)

_PLAIN = bytes(b for b in range(0x21, 0x7F) if b not in b"\\=,")
_ESCAPE = [chr(b) if b in _PLAIN else "\\x%02x" % b for b in range(256)]


def escape(raw):
    """Bytes outside 0x21..0x7e, and backslash, '=' and ',' as \\xHH."""
    return "".join(_ESCAPE[b] for b in raw)


def timestamp(ns):
    """tv_sec and tv_nsec as the kernel's timespec has them: the seconds
    round down, so 0.5 s before the epoch is -1.500000000."""
    sec, nsec = divmod(ns, 1000000000)
    return "%d.%09d" % (sec, nsec)


def fiemap(fd):
    """Every data extent of an open file as (logical, physical, length,
    unwritten) in bytes, in file order."""
    out = []
    start = 0
    while True:
        buf = bytearray(FIEMAP_HEAD.size + EXTENTS_PER_CALL * FIEMAP_EXTENT.size)
        FIEMAP_HEAD.pack_into(buf, 0, start, FIEMAP_MAX_OFFSET - start,
                              FIEMAP_FLAG_SYNC, 0, EXTENTS_PER_CALL, 0)
        fcntl.ioctl(fd, FS_IOC_FIEMAP, buf, True)
        mapped = FIEMAP_HEAD.unpack_from(buf, 0)[3]
        if mapped == 0:
            return out
        last = False
        for i in range(mapped):
            fe = FIEMAP_EXTENT.unpack_from(
                buf, FIEMAP_HEAD.size + i * FIEMAP_EXTENT.size)
            logical, physical, length, flags = fe[0], fe[1], fe[2], fe[5]
            out.append((logical, physical, length,
                        bool(flags & FIEMAP_EXTENT_UNWRITTEN)))
            last = bool(flags & FIEMAP_EXTENT_LAST)
        if last:
            return out
        start = out[-1][0] + out[-1][2]


def extents(path, bs):
    """The ext= field: L:P:N[u] in blocks, neighbours merged."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        raw = fiemap(fd)
    finally:
        os.close(fd)
    merged = []
    for logical, physical, length, unwritten in raw:
        if logical % bs or physical % bs:
            sys.exit("klist: %s: extent at byte %d is not block aligned"
                     % (path.decode(errors="replace"), logical))
        lblk, pblk = logical // bs, physical // bs
        nblk = (length + bs - 1) // bs
        if merged:
            pl, pp, pn, pu = merged[-1]
            if pl + pn == lblk and pp + pn == pblk and pu == unwritten:
                merged[-1] = (pl, pp, pn + nblk, pu)
                continue
        merged.append((lblk, pblk, nblk, unwritten))
    if not merged:
        return "-"
    return ",".join("%d:%d:%d%s" % (lb, pb, n, "u" if u else "")
                    for lb, pb, n, u in merged)


def xattrs(path):
    """The xattr= field, or None when the inode has none that we list."""
    items = []
    for name in os.listxattr(path, follow_symlinks=False):
        bname = os.fsencode(name)
        ns, dot, rest = bname.partition(b".")
        if not dot or ns not in XATTR_NAMESPACES:
            continue
        value = os.getxattr(path, name, follow_symlinks=False)
        key = ns.decode() + "." + escape(rest)
        items.append((key.encode(), key + "=" + (value.hex() or "-")))
    if not items:
        return None
    items.sort()
    return ",".join(text for _, text in items)


def line(path, rel, bs):
    st = os.lstat(path)
    kind = next((name for test, name in TYPES if test(st.st_mode)), None)
    if kind is None:
        sys.exit("klist: %s: unknown file type 0%o"
                 % (rel.decode(errors="replace"), st.st_mode))
    fields = [
        escape(rel),
        "ino=%d" % st.st_ino,
        "type=" + kind,
        "mode=%04o" % (st.st_mode & 0o7777),
        "nlink=%d" % st.st_nlink,
        "uid=%d" % st.st_uid,
        "gid=%d" % st.st_gid,
        "size=%d" % st.st_size,
        "mtime=" + timestamp(st.st_mtime_ns),
        "ctime=" + timestamp(st.st_ctime_ns),
    ]
    if kind == "reg":
        fields.append("ext=" + extents(path, bs))
    elif kind == "lnk":
        fields.append("target=" + escape(os.readlink(path)))
    elif kind in ("chr", "blk"):
        fields.append("rdev=%d:%d" % (os.major(st.st_rdev),
                                      os.minor(st.st_rdev)))
    xa = xattrs(path)
    if xa is not None:
        fields.append("xattr=" + xa)
    return " ".join(fields), kind


def listing(mnt, bs):
    """All lines, sorted as LC_ALL=C sort sorts them (by escaped path)."""
    lines = []
    stack = [(mnt, b"/")]
    root_dev = os.lstat(mnt).st_dev
    while stack:
        path, rel = stack.pop()
        text, kind = line(path, rel, bs)
        lines.append(text.encode())
        if kind != "dir":
            continue
        if os.lstat(path).st_dev != root_dev:
            sys.exit("klist: %s: another filesystem is mounted here"
                     % rel.decode(errors="replace"))
        prefix = rel if rel == b"/" else rel + b"/"
        with os.scandir(path) as it:
            for ent in it:
                stack.append((os.path.join(path, ent.name),
                              prefix + ent.name))
    lines.sort()
    return lines


def main(argv):
    args = argv[1:]
    bs = None
    if len(args) == 3 and args[0] == "-b":
        bs = int(args[1])
        args = args[2:]
    if len(args) != 1 or (bs is not None and bs <= 0):
        sys.stderr.write("usage: klist.py [-b BLOCKSIZE] MOUNTPOINT\n")
        return 2
    mnt = os.fsencode(args[0])
    if not os.path.isdir(mnt):
        sys.stderr.write("klist: %s: not a directory\n" % args[0])
        return 2
    if bs is None:
        bs = os.statvfs(mnt).f_bsize
    out = sys.stdout.buffer
    for text in listing(mnt, bs):
        out.write(text + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
