/* SCSI host adapter (one per IOP SCSI bus): register map, command descriptor,
 * the SCSI command subset the HP 97560 model accepts, status bytes and sense
 * codes. One source of truth for the TLM model (tlm_models/storage/scsi_host_adapter.*),
 * the firmware SCSI driver (fw/) and any Verilog.
 *
 * Adapter k of a node has its 4 KB register window at HW_SCSI_BASE + k *
 * HW_SCSI_STRIDE and raises interrupt line HW_IRQ_SCSI0 + k (hw/node_map.h).
 * All registers are 32-bit, accessed at byte offsets within the window.
 *
 * Targets. The disks on the adapter's bus are targets 0 … TARGETS-1. (Real
 * SCSI-2 allows 7 or 15 targets; the study puts up to 32 disks on one bus, so
 * the model allows HW_SCSI_MAX_TARGETS.)
 *
 * Submitting. Firmware builds a hw_scsi_desc_t in node memory (4-byte aligned):
 * tag, target, data buffer address and length, and the CDB. It writes the
 * descriptor's address to SUBMIT. The adapter copies the request fields at once
 * (the CDB may be reused after SUBMIT returns) and sets the descriptor's status
 * to HW_SCSI_STATUS_PENDING. The data buffer must stay untouched, and the
 * descriptor must stay allocated, until the tag comes out of DONE.
 *
 * Queueing. The adapter keeps a FIFO per target of QDEPTH commands (the
 * configuration's scsi.queue_depth, counting the one in progress). It sends a
 * target one command at a time (no tagged queueing): the next command of a
 * target is selected on the bus as soon as the previous one has completed.
 * Commands to different targets overlap: a drive disconnects while it seeks,
 * rotates and reads, and reselects the adapter to move data or return status.
 * Submitting to a target whose queue is full (QFREE(t) == 0) is a programming
 * error (HW_SCSI_ERR_QUEUE_FULL).
 *
 * Completion. When the drive returns status the adapter writes status,
 * transferred bytes and sense data into the descriptor, then pushes the tag into
 * the done FIFO. Reading DONE pops the oldest tag (HW_SCSI_NONE when empty). The
 * interrupt line is high while the done FIFO is not empty and CTRL.IRQ_ENABLE is
 * set (level; firmware clears it by draining DONE). Per target, completions come
 * out in submission order.
 *
 * Bad commands (LBA beyond capacity, transfer length 0, unsupported opcode, a
 * malformed CDB) are not programming errors: they complete with status
 * HW_SCSI_STATUS_CHECK_CONDITION and sense key / ASC / ASCQ in the descriptor.
 * So do injected medium errors (docs/faults.md): sense key MEDIUM ERROR, ASC
 * UNRECOVERED READ ERROR or WRITE ERROR, the failed sector in sense_info, and
 * `transferred` the good data before it (the data from that sector on is garbage).
 *
 * Programming errors (descriptor or buffer outside node memory, an unknown
 * target, a full target queue, a length that disagrees with a READ/WRITE CDB, an
 * undefined register) set ERROR (sticky, the first one) and ERROR_INFO (the
 * offending value); the TLM model also stops the run with a message naming the
 * node, the adapter and the register.
 */
#ifndef STARFISH_HW_SCSI_REGS_H
#define STARFISH_HW_SCSI_REGS_H

#include "hw/node_map.h"
#include "hw/reg_table.h"

#include <stdint.h>

#define HW_SCSI_ID_VALUE 0x53430001u /* "SC", interface version 1 */
#define HW_SCSI_NONE 0xffffffffu     /* empty DONE read */
#define HW_SCSI_MAX_TARGETS 64u
#define HW_SCSI_BLOCK_BYTES 512u /* logical block of the HP 97560 (hw/data_pattern.h sector) */

/* ---- registers: byte offsets from HW_SCSI_BASE + k * HW_SCSI_STRIDE (hw/reg_table.h) */
#define HW_SCSI_REGISTERS(X)                                                                       \
    X(ID, 0x000, RO, HW_SCSI_ID_VALUE, 1, "HW_SCSI_ID_VALUE")                                      \
    X(NODE, 0x004, RO, HW_REG_RESET_INSTANCE, 1, "this node's id")                                 \
    X(ADAPTER, 0x008, RO, HW_REG_RESET_INSTANCE, 1, "adapter index k on the node")                 \
    X(CTRL, 0x00c, RW, 0, 1, "HW_SCSI_CTRL_* bits")                                                \
    X(ERROR, 0x010, RO, 0, 1, "first HW_SCSI_ERR_* seen (sticky)")                                 \
    X(ERROR_INFO, 0x014, RO, 0, 1, "offending value of that error (address, target, ...)")         \
    X(TARGETS, 0x018, RO, HW_REG_RESET_INSTANCE, 1, "targets on the bus: ids 0 .. TARGETS-1")      \
    X(QDEPTH, 0x01c, RO, HW_REG_RESET_INSTANCE, 1,                                                 \
      "commands each target queue holds (incl. the active one)")                                   \
    X(SUBMIT, 0x020, WO, 0, 1, "node address of a hw_scsi_desc_t to queue")                        \
    X(DONE, 0x024, RO, HW_SCSI_NONE, 1, "read pops: oldest completed tag, or HW_SCSI_NONE")        \
    X(DONE_COUNT, 0x028, RO, 0, 1, "tags waiting in the done FIFO")                                \
    X(QFREE, 0x100, RO, HW_REG_RESET_INSTANCE, HW_SCSI_MAX_TARGETS,                                \
      "free slots of target t's queue (0 beyond TARGETS)")

#define HW_SCSI_REG_ENUMERATOR_(name, offset, access, reset, count, meaning)                       \
    HW_SCSI_REG_##name = offset,
HW_REG_ENUM(hw_scsi_reg){HW_SCSI_REGISTERS(HW_SCSI_REG_ENUMERATOR_)};
#undef HW_SCSI_REG_ENUMERATOR_
/* The QFREE array: the enumerator HW_SCSI_REG_QFREE is its first element. */
#define HW_SCSI_REG_QFREE0 HW_SCSI_REG_QFREE(0)
#define HW_SCSI_REG_QFREE(t) ((uint32_t)HW_SCSI_REG_QFREE + 4u * (uint32_t)(t))

/* CTRL bits. */
#define HW_SCSI_CTRL_IRQ_ENABLE (1u << 0) /* raise the interrupt while DONE_COUNT > 0 */

/* Bit fields (hw/reg_table.h). */
#define HW_SCSI_FIELDS(F)                                                                          \
    F(CTRL, IRQ_ENABLE, HW_SCSI_CTRL_IRQ_ENABLE, "raise the interrupt while DONE_COUNT > 0")

/* ERROR codes (programming errors; the run stops). */
#define HW_SCSI_ERR_NONE 0u
#define HW_SCSI_ERR_DESC_ADDR 1u  /* descriptor misaligned or not inside node memory */
#define HW_SCSI_ERR_TARGET 2u     /* target id >= TARGETS */
#define HW_SCSI_ERR_BUF_ADDR 3u   /* [addr, addr + length) not inside node memory */
#define HW_SCSI_ERR_QUEUE_FULL 4u /* SUBMIT to a target whose queue is full */
#define HW_SCSI_ERR_LENGTH                                                                         \
    5u                         /* READ/WRITE(10) length != blocks * 512 (blocks > 0), or           \
                                  READ CAPACITY(10) length != 8 */
#define HW_SCSI_ERR_CDB_LEN 6u /* cdb_len not 6, 10, 12 or 16 */
#define HW_SCSI_ERR_REG 7u     /* undefined register, write to RO or read of WO register */

/* ---- command descriptor (in node memory, little-endian, 64 bytes) ------------ */
typedef struct hw_scsi_desc {
    /* written by firmware, read by the adapter at SUBMIT */
    uint32_t tag;    /* 0x00 returned through DONE */
    uint32_t target; /* 0x04 target id on this adapter's bus */
    uint32_t addr;   /* 0x08 node address of the data buffer */
    uint32_t length; /* 0x0c data bytes (READ/WRITE: blocks * 512; may be 0 without data) */
    uint8_t cdb_len; /* 0x10 6, 10, 12 or 16 */
    uint8_t reserved0[3];
    uint8_t cdb[16]; /* 0x14 SCSI command descriptor block */
    /* written by the adapter */
    uint32_t status;      /* 0x24 HW_SCSI_STATUS_*: PENDING from SUBMIT until completion */
    uint32_t transferred; /* 0x28 data bytes moved */
    uint8_t sense_key;    /* 0x2c HW_SCSI_SENSE_* (CHECK CONDITION only, else 0) */
    uint8_t asc;          /* 0x2d additional sense code HW_SCSI_ASC_* */
    uint8_t ascq;         /* 0x2e additional sense code qualifier */
    uint8_t reserved1;
    uint32_t sense_info; /* 0x30 sense INFORMATION: the offending LBA for ASC 0x21, and the
                            failed sector of a MEDIUM ERROR (ASC 0x0c, 0x11) */
    uint32_t reserved2[3];
} hw_scsi_desc_t;

#ifdef __cplusplus
static_assert(sizeof(hw_scsi_desc_t) == 64, "descriptor size");
#else
_Static_assert(sizeof(hw_scsi_desc_t) == 64, "descriptor size");
#endif

/* ---- status (descriptor status field) ---------------------------------------- */
#define HW_SCSI_STATUS_GOOD 0x00u
#define HW_SCSI_STATUS_CHECK_CONDITION 0x02u
#define HW_SCSI_STATUS_PENDING 0xffffffffu /* submitted, not completed */

/* Sense keys and additional sense codes used by the model. */
#define HW_SCSI_SENSE_NO_SENSE 0x0u
#define HW_SCSI_SENSE_MEDIUM_ERROR 0x3u /* injected faults (docs/faults.md) */
#define HW_SCSI_SENSE_ILLEGAL_REQUEST 0x5u
#define HW_SCSI_ASC_WRITE_ERROR 0x0cu            /* MEDIUM ERROR on a WRITE */
#define HW_SCSI_ASC_UNRECOVERED_READ_ERROR 0x11u /* MEDIUM ERROR on a READ */
#define HW_SCSI_ASC_INVALID_OPCODE 0x20u         /* unsupported operation code */
#define HW_SCSI_ASC_LBA_OUT_OF_RANGE 0x21u
#define HW_SCSI_ASC_INVALID_FIELD_IN_CDB 0x24u /* e.g. transfer length 0, bad cdb_len */

/* ---- the command subset (operation codes) ------------------------------------
 *   TEST UNIT READY      0x00  6-byte CDB, no data; GOOD at once.
 *   READ CAPACITY(10)    0x25  8 data bytes in: last LBA, block length (big-endian).
 *   READ(10)             0x28  LBA (bytes 2-5), blocks (bytes 7-8), data in.
 *   WRITE(10)            0x2a  as READ(10), data out. Reported complete when the data
 *                              is in the drive cache (immediate report, the default);
 *                              the media write follows in the background, in order.
 *   PRE-FETCH(10)        0x34  as READ(10) without data: the drive positions and reads
 *                              the blocks (and, with read-ahead, beyond) into its cache.
 *                              With IMMED (byte 1 bit 1) status returns right after the
 *                              command phase, without disconnecting; without IMMED the
 *                              drive disconnects and returns status once the blocks are
 *                              in its cache.
 *   SYNCHRONIZE CACHE(10) 0x35 no data; GOOD once every earlier write is on the media.
 * A transfer length of 0 is rejected (ILLEGAL REQUEST, INVALID FIELD IN CDB) rather
 * than meaning "no blocks" as in SCSI-2. */
#define HW_SCSI_OP_TEST_UNIT_READY 0x00u
#define HW_SCSI_OP_READ_CAPACITY10 0x25u
#define HW_SCSI_OP_READ10 0x28u
#define HW_SCSI_OP_WRITE10 0x2au
#define HW_SCSI_OP_PREFETCH10 0x34u
#define HW_SCSI_OP_SYNC_CACHE10 0x35u
#define HW_SCSI_CDB1_IMMED (1u << 1) /* PRE-FETCH(10) / SYNCHRONIZE CACHE(10) byte 1 */
#define HW_SCSI_READ_CAPACITY_BYTES 8u
#define HW_SCSI_MAX_BLOCKS10 0xffffu /* transfer length field of the 10-byte CDBs */

/* Builds a 10-byte CDB for READ(10), WRITE(10) and PRE-FETCH(10) (flags: byte 1). */
static inline void hw_scsi_cdb10(uint8_t *cdb, uint8_t opcode, uint8_t flags, uint32_t lba,
                                 uint16_t blocks) {
    cdb[0] = opcode;
    cdb[1] = flags;
    cdb[2] = (uint8_t)(lba >> 24);
    cdb[3] = (uint8_t)(lba >> 16);
    cdb[4] = (uint8_t)(lba >> 8);
    cdb[5] = (uint8_t)lba;
    cdb[6] = 0;
    cdb[7] = (uint8_t)(blocks >> 8);
    cdb[8] = (uint8_t)blocks;
    cdb[9] = 0;
}

static inline uint32_t hw_scsi_cdb10_lba(const uint8_t *cdb) {
    return (uint32_t)cdb[2] << 24 | (uint32_t)cdb[3] << 16 | (uint32_t)cdb[4] << 8 |
           (uint32_t)cdb[5];
}

static inline uint32_t hw_scsi_cdb10_blocks(const uint8_t *cdb) {
    return (uint32_t)cdb[7] << 8 | (uint32_t)cdb[8];
}

/* Fills a descriptor's request fields for a 10-byte command (the adapter's fields are
 * left alone; SUBMIT overwrites status). */
static inline void hw_scsi_desc_init10(hw_scsi_desc_t *d, uint32_t tag, uint32_t target,
                                       uint8_t opcode, uint8_t flags, uint32_t lba, uint16_t blocks,
                                       uint32_t addr) {
    d->tag = tag;
    d->target = target;
    d->addr = addr;
    d->length = (opcode == HW_SCSI_OP_READ10 || opcode == HW_SCSI_OP_WRITE10)
                    ? (uint32_t)blocks * HW_SCSI_BLOCK_BYTES
                : opcode == HW_SCSI_OP_READ_CAPACITY10 ? HW_SCSI_READ_CAPACITY_BYTES
                                                       : 0u;
    d->cdb_len = 10;
    d->reserved0[0] = d->reserved0[1] = d->reserved0[2] = 0;
    for (unsigned i = 10; i < 16; ++i) {
        d->cdb[i] = 0;
    }
    hw_scsi_cdb10(d->cdb, opcode, flags, lba, blocks);
}

#ifdef __cplusplus
/* The tables as data, for decoders and generators. */
inline constexpr hw_reg_info_t hw_scsi_register_table[] = {HW_SCSI_REGISTERS(HW_REG_INFO)};
inline constexpr hw_field_info_t hw_scsi_field_table[] = {HW_SCSI_FIELDS(HW_FIELD_INFO)};
#endif

#endif /* STARFISH_HW_SCSI_REGS_H */
