/*
 * Field tables: what the table files share with each other (not for tools).
 */
#ifndef XK_FIELDS_INT_H
#define XK_FIELDS_INT_H

#include "fields.h"

uint32_t fc_u8(const struct fld_ctx *c, uint64_t byte);
uint32_t fc_be16(const struct fld_ctx *c, uint64_t byte);
uint32_t fc_be32(const struct fld_ctx *c, uint64_t byte);
uint64_t fc_be64(const struct fld_ctx *c, uint64_t byte);

extern const struct ftype ft_uint1, ft_uint8d, ft_uint8x, ft_uint8o, ft_int8d,
	ft_uint16d, ft_uint16x, ft_uint16o, ft_int16d, ft_uint32d, ft_uint32x,
	ft_uint32o, ft_int32d, ft_uint64d, ft_uint64x, ft_uint64o, ft_int64d,
	ft_agnumber, ft_agino, ft_aginonn, ft_extlen, ft_drfsbno, ft_drtbno,
	ft_fsize, ft_dev, ft_dirblock, ft_dqid, ft_cextflg, ft_cextlen,
	ft_cfileoff, ft_cfsblock, ft_rfileoff, ft_cagblock, ft_data_off,
	ft_data_offnz, ft_sf_off, ft_ino4, ft_ino8, ft_attrblock, ft_nsec,
	ft_agblock, ft_dfsbno, ft_ino, ft_crc, ft_uuid, ft_charns,
	ft_dinode_fmt, ft_time, ft_nsec_t, ft_bmbtrec, ft_bmbtkey, ft_bmbtptr, ft_qtimer;

#endif
