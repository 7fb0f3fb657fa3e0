/* SCSI host-adapter driver (hw/scsi_regs.h): submits command descriptors, takes
 * the completion interrupt and wakes the thread waiting for each command.
 *
 * A command (fw_scsi_cmd_t) lives in node memory (the adapter reads its descriptor
 * by DMA); its tag is its node address, so the interrupt handler finds it without
 * a table. Each target's adapter queue holds QDEPTH commands; a thread submitting to
 * a full queue waits for a slot (a counting semaphore per target), so callers never
 * overflow the adapter. Costs: cost.scsi_submit_cycles per submission,
 * cost.scsi_complete_cycles per completion in the handler (docs/ddio.md).
 */
#ifndef STARFISH_FW_SCSI_H
#define STARFISH_FW_SCSI_H

#include "fw/hal.h"
#include "hw/scsi_regs.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fw_scsi_cmd {
    hw_scsi_desc_t desc; /* first: the adapter reads it by DMA (64-byte aligned) */
    hal_sem_t done;      /* posted by the completion handler */
    bool busy;           /* submitted, not yet completed */
    uint8_t pad[7];
} fw_scsi_cmd_t;

typedef struct fw_scsi {
    hal_t *h;
    uint32_t regs;    /* register window base */
    unsigned adapter; /* index k on the node */
    unsigned targets;
    unsigned qdepth;
    uint32_t submit_cycles;
    uint32_t complete_cycles;
    uint64_t submitted;
    uint64_t completed;
    uint64_t check_conditions;
    hal_sem_t *slots; /* per target: free adapter-queue slots (node memory) */
} fw_scsi_t;

/* Probes adapter k (ID register), allocates per-target state in node memory,
 * registers the interrupt handler and enables the interrupt. Returns 0; a missing
 * adapter or exhausted node memory fails the run (hal_fail does not return). */
int fw_scsi_init(fw_scsi_t *s, hal_t *h, unsigned adapter);

/* Allocates a command in node memory (NULL if memory is exhausted). */
fw_scsi_cmd_t *fw_scsi_cmd_alloc(fw_scsi_t *s);

/* Queues a 10-byte command (READ/WRITE/PRE-FETCH(10)) on the adapter; waits (thread
 * context only) while the target's queue is full. addr: node address of the data. */
void fw_scsi_submit10(fw_scsi_t *s, fw_scsi_cmd_t *cmd, unsigned target, uint8_t opcode,
                      uint8_t flags, uint32_t lba, uint16_t blocks, uint32_t addr);

/* Waits until cmd completes; returns its status (HW_SCSI_STATUS_GOOD or CHECK
 * CONDITION, whose sense data stay in cmd->desc). */
uint32_t fw_scsi_wait(fw_scsi_t *s, fw_scsi_cmd_t *cmd);

/* submit10 + wait. */
uint32_t fw_scsi_do10(fw_scsi_t *s, fw_scsi_cmd_t *cmd, unsigned target, uint8_t opcode,
                      uint8_t flags, uint32_t lba, uint16_t blocks, uint32_t addr);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_SCSI_H */
