# The mkfs option matrix: one set per line, "name;size;escape;options".
# escape=1 runs both mkfs with the test-suite escape (TEST_DIR, TEST_DEV,
# QA_CHECK_FS set), which lifts the 300 MB / 64 MiB log / 2 AG minimums.
# The reference gets "-m rmapbt=1" added unless the set says rmapbt
# itself: ours turns the reverse map on by default, the reference does not.
MKFS_MATRIX='
default;2g;0;
blocksize-1k;2g;0;-b size=1024
inode-1k;2g;0;-i size=1024
inode-2k;2g;0;-i size=2048
inode-perblock;2g;0;-i perblock=4
rmapbt-off;2g;0;-m rmapbt=0
reflink-off;2g;0;-m reflink=0
finobt-off;2g;0;-m finobt=0
inobtcount-off;2g;0;-m inobtcount=0
bigtime-off;2g;0;-m bigtime=0
sparse-off;2g;0;-i sparse=0
nrext64-on;2g;0;-i nrext64=1
all-off;2g;0;-m rmapbt=0,reflink=0,finobt=0,inobtcount=0,bigtime=0 -i sparse=0
dirblock-64k;2g;0;-n size=65536
dirblock-8k-1k;2g;0;-b size=1024 -n size=8192
agcount-1;2g;1;-d agcount=1
agcount-16;2g;0;-d agcount=16
agcount-64;8g;0;-d agcount=64
agsize-256m;2g;0;-d agsize=256m
stripe-su-sw;2g;0;-d su=64k,sw=4
stripe-sunit;4g;0;-d sunit=128,swidth=512
stripe-wide;4g;0;-d su=1m,sw=2
noalign;2g;0;-d noalign
log-128m;2g;0;-l size=128m
log-agnum-0;2g;0;-l agnum=0
log-su;2g;0;-l su=32k
sector-4k;2g;0;-s size=4096
label;2g;0;-L mylabel
label-12;2g;0;-L twelve_chars
maxpct;2g;0;-i maxpct=50
root-inherit;2g;0;-d extszinherit=16,projinherit=7,rtinherit=1
root-hints-at-limit;2g;0;-d extszinherit=65536,cowextsize=65536
minimum;300m;0;
tiny-escape;64m;1;-l size=15m
bs1k-minimal;1g;0;-b size=1024 -m rmapbt=0,reflink=0,finobt=0
large-15t;15t;0;
size-in-blocks;524288b;0;-l size=16384b
external-log;2g;0;-l logdev=log.img
external-log-size;2g;0;-l logdev=log.img,size=80m
realtime;2g;0;-r rtdev=rt.img
realtime-extsize;2g;0;-r rtdev=rt.img,extsize=64k
realtime-size-1k;2g;0;-b size=1024 -r rtdev=rt.img,size=300m
'
