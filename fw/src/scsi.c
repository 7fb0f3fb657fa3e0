#include "fw/scsi.h"

#include "fw/param_keys.h"
#include "hw/node_map.h"

static uint32_t reg(const fw_scsi_t *s, uint32_t offset) {
    return s->regs + offset;
}

/* Drains the done FIFO: every tag is the node address of a fw_scsi_cmd_t. */
static void scsi_irq(hal_t *h, void *arg) {
    fw_scsi_t *s = (fw_scsi_t *)arg;
    for (;;) {
        uint32_t tag = hal_reg_read(h, reg(s, HW_SCSI_REG_DONE));
        if (tag == HW_SCSI_NONE) {
            return;
        }
        fw_scsi_cmd_t *cmd = (fw_scsi_cmd_t *)hal_mem_ptr(h, tag);
        if (!cmd || !cmd->busy) {
            hal_fail(h, "SCSI driver: completion for a tag that names no outstanding command");
        }
        hal_cycles(h, s->complete_cycles);
        cmd->busy = false;
        ++s->completed;
        if (cmd->desc.status != HW_SCSI_STATUS_GOOD) {
            ++s->check_conditions;
        }
        hal_sem_post(h, &s->slots[cmd->desc.target]);
        hal_sem_post(h, &cmd->done);
    }
}

int fw_scsi_init(fw_scsi_t *s, hal_t *h, unsigned adapter) {
    s->h = h;
    s->adapter = adapter;
    s->regs = HW_SCSI_BASE + adapter * HW_SCSI_STRIDE;
    s->submitted = s->completed = s->check_conditions = 0;
    if (hal_reg_read(h, reg(s, HW_SCSI_REG_ID)) != HW_SCSI_ID_VALUE) {
        hal_fail(h, "SCSI driver: no host adapter answers at its register window");
    }
    s->targets = hal_reg_read(h, reg(s, HW_SCSI_REG_TARGETS));
    s->qdepth = hal_reg_read(h, reg(s, HW_SCSI_REG_QDEPTH));
    s->submit_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_SCSI_SUBMIT);
    s->complete_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_SCSI_COMPLETE);
    s->slots = (hal_sem_t *)hal_mem_alloc(h, (uint32_t)(sizeof(hal_sem_t) * (s->targets + 1u)), 8);
    if (!s->slots) {
        hal_fail(h, "SCSI driver: node memory exhausted");
    }
    for (unsigned t = 0; t < s->targets; ++t) {
        hal_sem_init(h, &s->slots[t], s->qdepth);
    }
    hal_irq_register(h, HW_IRQ_SCSI0 + adapter, scsi_irq, s);
    hal_reg_write(h, reg(s, HW_SCSI_REG_CTRL), HW_SCSI_CTRL_IRQ_ENABLE);
    return 0;
}

fw_scsi_cmd_t *fw_scsi_cmd_alloc(fw_scsi_t *s) {
    fw_scsi_cmd_t *cmd = (fw_scsi_cmd_t *)hal_mem_alloc(s->h, sizeof(fw_scsi_cmd_t), 64);
    if (cmd) {
        cmd->busy = false;
        hal_sem_init(s->h, &cmd->done, 0);
    }
    return cmd;
}

void fw_scsi_submit10(fw_scsi_t *s, fw_scsi_cmd_t *cmd, unsigned target, uint8_t opcode,
                      uint8_t flags, uint32_t lba, uint16_t blocks, uint32_t addr) {
    hal_t *h = s->h;
    if (cmd->busy) {
        hal_fail(h, "SCSI driver: a command was resubmitted before it completed");
    }
    if (target >= s->targets) {
        hal_fail(h, "SCSI driver: command to a target that is not on the bus");
    }
    hal_sem_wait(h, &s->slots[target]);
    hal_cycles(h, s->submit_cycles);
    hw_scsi_desc_init10(&cmd->desc, hal_mem_addr(h, cmd), target, opcode, flags, lba, blocks, addr);
    cmd->busy = true;
    ++s->submitted;
    hal_reg_write(h, reg(s, HW_SCSI_REG_SUBMIT), hal_mem_addr(h, &cmd->desc));
}

uint32_t fw_scsi_wait(fw_scsi_t *s, fw_scsi_cmd_t *cmd) {
    hal_sem_wait(s->h, &cmd->done);
    return cmd->desc.status;
}

uint32_t fw_scsi_do10(fw_scsi_t *s, fw_scsi_cmd_t *cmd, unsigned target, uint8_t opcode,
                      uint8_t flags, uint32_t lba, uint16_t blocks, uint32_t addr) {
    fw_scsi_submit10(s, cmd, target, opcode, flags, lba, blocks, addr);
    return fw_scsi_wait(s, cmd);
}
