# Tests of the libfs allocator (alloc.h).
