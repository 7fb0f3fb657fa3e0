#include "fw/scsi.h"

#include "fw/param_keys.h"
#include "hw/node_map.h"

#include <stdio.h>

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
        if (cmd->on_done) {
            cmd->on_done(h, cmd->on_done_arg);
        }
    }
}

int fw_scsi_init(fw_scsi_t *s, hal_t *h, unsigned adapter) {
    s->h = h;
    s->adapter = adapter;
    s->regs = HW_SCSI_BASE + adapter * HW_SCSI_STRIDE;
    s->submitted = s->completed = s->check_conditions = s->reissued = s->timeouts = 0;
    if (hal_reg_read(h, reg(s, HW_SCSI_REG_ID)) != HW_SCSI_ID_VALUE) {
        hal_fail(h, "SCSI driver: no host adapter answers at its register window");
    }
    s->targets = hal_reg_read(h, reg(s, HW_SCSI_REG_TARGETS));
    s->qdepth = hal_reg_read(h, reg(s, HW_SCSI_REG_QDEPTH));
    s->submit_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_SCSI_SUBMIT);
    s->complete_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_SCSI_COMPLETE);
    s->retries = (unsigned)hal_config_int(h, FW_KEY_SCSI_RETRIES);
    /* ms -> cycles: machine.cpu_mhz cycles per microsecond. */
    double cycles = hal_config_real(h, FW_KEY_SCSI_TIMEOUT_MS) * 1000.0 *
                    hal_config_real(h, FW_KEY_MACHINE_CPU_MHZ);
    s->timeout_cycles = cycles <= 0 ? 0 : cycles < 1 ? 1 : (uint64_t)cycles;
    s->slots = (hal_sem_t *)hal_mem_alloc(h, (uint32_t)(sizeof(hal_sem_t) * (s->targets + 1u)), 8);
    if (!s->slots) {
        hal_fail(h, "SCSI driver: node memory exhausted");
    }
    for (unsigned t = 0; t < s->targets; ++t) {
        hal_sem_init(h, &s->slots[t], s->qdepth);
        hal_sem_name(h, &s->slots[t], "SCSI adapter queue slot", 0);
    }
    hal_irq_register(h, HW_IRQ_SCSI0 + adapter, scsi_irq, s);
    hal_reg_write(h, reg(s, HW_SCSI_REG_CTRL), HW_SCSI_CTRL_IRQ_ENABLE);
    return 0;
}

fw_scsi_cmd_t *fw_scsi_cmd_alloc(fw_scsi_t *s) {
    fw_scsi_cmd_t *cmd = (fw_scsi_cmd_t *)hal_mem_alloc(s->h, sizeof(fw_scsi_cmd_t), 64);
    if (cmd) {
        cmd->busy = false;
        cmd->timed_out = false;
        cmd->retries = 0;
        cmd->on_done = NULL;
        cmd->on_done_arg = NULL;
        hal_sem_init(s->h, &cmd->done, 0);
        hal_sem_name(s->h, &cmd->done, "SCSI command completion", 0);
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
    if (cmd->timed_out) {
        return FW_SCSI_STATUS_TIMEOUT;
    }
    if (s->timeout_cycles == 0) {
        hal_sem_wait(s->h, &cmd->done);
    } else if (hal_sem_wait_timeout(s->h, &cmd->done, s->timeout_cycles) != 0) {
        cmd->timed_out = true;
        ++s->timeouts;
        return FW_SCSI_STATUS_TIMEOUT;
    }
    return cmd->desc.status;
}

/* A MEDIUM ERROR may not recur (a marginal sector read again); anything else would. */
static bool worth_reissuing(const fw_scsi_cmd_t *cmd, uint32_t status) {
    return status == HW_SCSI_STATUS_CHECK_CONDITION &&
           cmd->desc.sense_key == HW_SCSI_SENSE_MEDIUM_ERROR;
}

uint32_t fw_scsi_do10(fw_scsi_t *s, fw_scsi_cmd_t *cmd, unsigned target, uint8_t opcode,
                      uint8_t flags, uint32_t lba, uint16_t blocks, uint32_t addr) {
    for (unsigned attempt = 0;; ++attempt) {
        fw_scsi_submit10(s, cmd, target, opcode, flags, lba, blocks, addr);
        uint32_t status = fw_scsi_wait(s, cmd);
        cmd->retries = (uint8_t)(attempt < 255 ? attempt : 255);
        if (!worth_reissuing(cmd, status) || attempt >= s->retries) {
            return status;
        }
        ++s->reissued;
    }
}

static const char *op_name(uint8_t opcode) {
    switch (opcode) {
    case HW_SCSI_OP_READ10:
        return "READ(10)";
    case HW_SCSI_OP_WRITE10:
        return "WRITE(10)";
    case HW_SCSI_OP_PREFETCH10:
        return "PRE-FETCH(10)";
    case HW_SCSI_OP_SYNC_CACHE10:
        return "SYNCHRONIZE CACHE(10)";
    default:
        return "a command";
    }
}

void fw_scsi_describe(const fw_scsi_t *s, const fw_scsi_cmd_t *cmd, uint32_t status, char *out,
                      size_t out_size) {
    hal_t *h = s->h;
    unsigned iop = hal_role_index(h), target = cmd->desc.target;
    unsigned disk = iop * hal_disks_per_iop(h) + target;
    uint32_t lba = hw_scsi_cdb10_lba(cmd->desc.cdb);
    if (status == FW_SCSI_STATUS_TIMEOUT) {
        /* SYNCHRONIZE CACHE is issued for the whole cache (LBA 0, no count): a
         * sector would mislead. */
        char at[32] = "";
        if (cmd->desc.cdb[0] != HW_SCSI_OP_SYNC_CACHE10) {
            snprintf(at, sizeof at, " at LBA %u", lba);
        }
        snprintf(out, out_size,
                 "disk %u (IOP %u target %u): no answer within scsi.timeout_ms to %s%s", disk, iop,
                 target, op_name(cmd->desc.cdb[0]), at);
    } else if (cmd->desc.sense_key == HW_SCSI_SENSE_MEDIUM_ERROR) {
        snprintf(out, out_size,
                 "disk %u (IOP %u target %u) LBA %u: medium error (sense %x/%02x/%02x %s) in %s "
                 "at LBA %u, after %u retries",
                 disk, iop, target, (unsigned)cmd->desc.sense_info, cmd->desc.sense_key,
                 cmd->desc.asc, cmd->desc.ascq,
                 cmd->desc.asc == HW_SCSI_ASC_WRITE_ERROR ? "write error"
                                                          : "unrecovered read error",
                 op_name(cmd->desc.cdb[0]), lba, (unsigned)cmd->retries);
    } else {
        snprintf(out, out_size,
                 "disk %u (IOP %u target %u): %s at LBA %u ended with SCSI status 0x%x, sense "
                 "%x/%02x/%02x",
                 disk, iop, target, op_name(cmd->desc.cdb[0]), lba, (unsigned)status,
                 cmd->desc.sense_key, cmd->desc.asc, cmd->desc.ascq);
    }
}
