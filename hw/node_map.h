/* A node's physical address map and interrupt lines, shared by the firmware,
 * the node model and the Verilog.
 *
 *   0x00000000 … node memory (machine.node_memory_kb)
 *   0xF0000000   network interface registers (hw/ni_regs.h), 4 KB window
 *   0xF0010000   SCSI host adapter k registers at + k * 0x1000 (hw/scsi_regs.h)
 */
#ifndef STARFISH_HW_NODE_MAP_H
#define STARFISH_HW_NODE_MAP_H

#include <stdint.h>

#define HW_MEM_BASE 0x00000000u
#define HW_DEV_BASE 0xF0000000u /* addresses at or above this are device registers */
#define HW_NI_BASE 0xF0000000u
#define HW_NI_SIZE 0x1000u
#define HW_SCSI_BASE 0xF0010000u
#define HW_SCSI_STRIDE 0x1000u
#define HW_SCSI_MAX_ADAPTERS 16u

/* Interrupt lines of a node's CPU. */
#define HW_IRQ_NI_RX 0u /* a packet header is waiting (hw/ni_regs.h) */
#define HW_IRQ_NI_TX 1u /* send queue has room / send completed */
#define HW_IRQ_SCSI0 2u /* SCSI host adapter k raises HW_IRQ_SCSI0 + k */
#define HW_IRQ_LINES (HW_IRQ_SCSI0 + HW_SCSI_MAX_ADAPTERS)

#endif /* STARFISH_HW_NODE_MAP_H */
