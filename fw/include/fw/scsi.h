/* SCSI host-adapter driver (hw/scsi_regs.h): submits command descriptors, takes
 * the completion interrupt and wakes the thread waiting for each command.
 *
 * A command (fw_scsi_cmd_t) lives in node memory (the adapter reads its descriptor
 * by DMA); its tag is its node address, so the interrupt handler finds it without
 * a table. Each target's adapter queue holds QDEPTH commands; a thread submitting to
 * a full queue waits for a slot (a counting semaphore per target), so callers never
 * overflow the adapter. Costs: cost.scsi_submit_cycles per submission,
 * cost.scsi_complete_cycles per completion in the handler (docs/ddio.md).
 *
 * Errors (docs/faults.md): fw_scsi_do10 reissues a command that ends in a MEDIUM
 * ERROR up to scsi.retries times; a wait gives up after scsi.timeout_ms of simulated
 * time (FW_SCSI_STATUS_TIMEOUT: the drive stopped answering; the command stays
 * outstanding in the adapter). What is left is the caller's to report:
 * fw_scsi_describe says which disk, which sector and what happened.
 */
#ifndef STARFISH_FW_SCSI_H
#define STARFISH_FW_SCSI_H

#include "fw/hal.h"
#include "hw/scsi_regs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status of a wait that timed out (not a SCSI status byte). */
#define FW_SCSI_STATUS_TIMEOUT 0x100u

typedef struct fw_scsi_cmd {
    hw_scsi_desc_t desc; /* first: the adapter reads it by DMA (64-byte aligned) */
    hal_sem_t done;      /* posted by the completion handler */
    bool busy;           /* submitted, not yet completed */
    bool timed_out;      /* a wait for it timed out: the drive may never answer */
    uint8_t retries;     /* reissues of the last fw_scsi_do10 */
    uint8_t pad[5];
    /* Optional: called by the completion interrupt handler right after it posts
     * `done` (interrupt context: must not block). A driver's "start the next
     * request at completion" hook (SPFS's spfs.pick_next = completion). NULL from
     * fw_scsi_cmd_alloc. */
    void (*on_done)(hal_t *h, void *arg);
    void *on_done_arg;
} fw_scsi_cmd_t;

typedef struct fw_scsi {
    hal_t *h;
    uint32_t regs;    /* register window base */
    unsigned adapter; /* index k on the node */
    unsigned targets;
    unsigned qdepth;
    uint32_t submit_cycles;
    uint32_t complete_cycles;
    unsigned retries;        /* scsi.retries */
    uint64_t timeout_cycles; /* scsi.timeout_ms in CPU cycles; 0: wait forever */
    uint64_t submitted;
    uint64_t completed;
    uint64_t check_conditions;
    uint64_t reissued; /* commands reissued after a MEDIUM ERROR */
    uint64_t timeouts;
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
 * CONDITION, whose sense data stay in cmd->desc), or FW_SCSI_STATUS_TIMEOUT after
 * scsi.timeout_ms (then and ever after for this command). */
uint32_t fw_scsi_wait(fw_scsi_t *s, fw_scsi_cmd_t *cmd);

/* submit10 + wait, reissued up to scsi.retries times while it ends in a MEDIUM
 * ERROR; the final status (cmd->retries says how often it was reissued). */
uint32_t fw_scsi_do10(fw_scsi_t *s, fw_scsi_cmd_t *cmd, unsigned target, uint8_t opcode,
                      uint8_t flags, uint32_t lba, uint16_t blocks, uint32_t addr);

/* A failed command in words, for the error the caller reports: "disk 5 (IOP 1
 * target 1) LBA 4711: medium error (sense 3/11/00 unrecovered read error), after 3
 * retries" or "disk 5 (IOP 1 target 1): no answer within scsi.timeout_ms to READ(10)
 * at LBA 4704". */
void fw_scsi_describe(const fw_scsi_t *s, const fw_scsi_cmd_t *cmd, uint32_t status, char *out,
                      size_t out_size);

#ifdef __cplusplus
}
#endif

#endif /* STARFISH_FW_SCSI_H */
