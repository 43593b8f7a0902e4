/* Every on-disk structure of the v5 format, for code that wants them all. */
#ifndef XK_FORMAT_ONDISK_H
#define XK_FORMAT_ONDISK_H

#include "types.h"
#include "sb.h"
#include "ag.h"
#include "btree.h"
#include "inode.h"
#include "dir.h"
#include "attr.h"
#include "log.h"
#include "dquot.h"

#endif
