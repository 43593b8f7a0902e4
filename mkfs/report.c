/*
 * The geometry summary mkfs.xfs prints before writing (and instead of
 * writing with -N).  Its layout is the one xfs_info and xfsprogs' mkfs
 * print, column for column, because scripts parse it.
 */
#include "config.h"
#include <stdio.h>
#include "mkfs.h"

void mkfs_report(const struct mkfs_cfg *cfg, const struct cli_params *cli)
{
	const struct sb_feat *f = &cfg->sb_feat;
	const char *logname, *rtname;
	unsigned logsectsize = cfg->lsectorsize > 512 || cfg->sectorsize > 512 ?
			       (unsigned)cfg->lsectorsize : 512;

	logname = cfg->loginternal ? "internal log" :
		  cli->log.name ? cli->log.name : "external";
	rtname = !cfg->rtblocks ? "none" :
		 cli->rt.name ? cli->rt.name : "external";

	printf("meta-data=%-22s isize=%-6d agcount=%u, agsize=%u blks\n",
	       cli->data.name, cfg->inodesize, (unsigned)cfg->agcount,
	       (unsigned)cfg->agsize);
	printf("         =%-22s sectsz=%-5u attr=%u, projid32bit=%u\n", "",
	       cfg->sectorsize, f->attr_version, f->projid32bit ? 1 : 0);
	printf("         =%-22s crc=%-8u finobt=%u, sparse=%u, rmapbt=%u\n", "",
	       1, f->finobt, f->spinodes, f->rmapbt);
	printf("         =%-22s reflink=%-4u bigtime=%u inobtcount=%u nrext64=%u\n",
	       "", f->reflink, f->bigtime, f->inobtcnt, f->nrext64);
	printf("data     =%-22s bsize=%-6u blocks=%llu, imaxpct=%u\n", "",
	       cfg->blocksize, (unsigned long long)cfg->dblocks, cfg->imaxpct);
	printf("         =%-22s sunit=%-6u swidth=%u blks\n", "",
	       cfg->dsunit, cfg->dswidth);
	printf("naming   =version %-14u bsize=%-6u ascii-ci=%d, ftype=%d\n",
	       2, cfg->dirblocksize, f->nci, 1);
	printf("log      =%-22s bsize=%-6d blocks=%u, version=%d\n", logname,
	       cfg->blocksize, (unsigned)cfg->logblocks, f->log_version);
	printf("         =%-22s sectsz=%-5u sunit=%d blks, lazy-count=%d\n", "",
	       logsectsize, (int)(cfg->logsunit_bytes / cfg->blocksize), 1);
	printf("realtime =%-22s extsz=%-6d blocks=%lld, rtextents=%lld\n",
	       rtname, (int)(cfg->rtextblocks * cfg->blocksize),
	       (long long)cfg->rtblocks, (long long)cfg->rtextents);
	fflush(stdout);
}
