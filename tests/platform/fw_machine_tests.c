/* Test firmware for the machine assembly: each IOP drives its own disks through
 * the SCSI driver (fw/scsi.h) and checks the bytes; CPs do nothing. And two
 * programming errors that must end in the machine's failure report. */
#include "fw/hal.h"
#include "fw/scsi.h"
#include "hw/data_pattern.h"
#include "hw/ni_regs.h"
#include "hw/node_map.h"

#include <string.h>

void machine_test_iop_main(hal_t *h);
void machine_test_bad_scsi_iop_main(hal_t *h);
void machine_test_bad_ni_cp_main(hal_t *h);

static int check_sectors(hal_t *h, const uint8_t *buf, uint32_t disk, uint32_t lba, uint32_t n) {
    uint8_t expected[HW_SECTOR_BYTES];
    for (uint32_t s = 0; s < n; ++s) {
        hw_disk_fill_sector(disk, lba + s, expected);
        if (memcmp(buf + s * HW_SECTOR_BYTES, expected, HW_SECTOR_BYTES) != 0) {
            (void)h;
            return 0;
        }
    }
    return 1;
}

/* The completion hook (fw_scsi_cmd_t.on_done): called once per completion, after
 * the command is no longer busy and its `done` is posted. */
typedef struct done_probe {
    fw_scsi_cmd_t *cmd;
    uint32_t calls;
    uint32_t still_busy;
} done_probe_t;

static void probe_done(hal_t *h, void *arg) {
    (void)h;
    done_probe_t *p = (done_probe_t *)arg;
    ++p->calls;
    p->still_busy += p->cmd->busy ? 1u : 0u;
}

void machine_test_iop_main(hal_t *h) {
    fw_scsi_t *s = (fw_scsi_t *)hal_mem_alloc(h, sizeof(fw_scsi_t), 8);
    if (fw_scsi_init(s, h, 0) != 0) {
        return;
    }
    uint8_t *buf = (uint8_t *)hal_mem_alloc(h, 8192, 64);
    fw_scsi_cmd_t *cmd = fw_scsi_cmd_alloc(s);
    done_probe_t *probe = (done_probe_t *)hal_mem_alloc(h, sizeof(done_probe_t), 8);
    probe->cmd = cmd;
    probe->calls = probe->still_busy = 0;
    cmd->on_done = probe_done;
    cmd->on_done_arg = probe;
    unsigned ok = 1;
    uint64_t t0 = hal_now_cycles(h);
    for (unsigned t = 0; t < s->targets; ++t) {
        uint32_t disk = hal_role_index(h) * hal_disks_per_iop(h) + t;
        /* Never-written contents. */
        uint32_t st =
            fw_scsi_do10(s, cmd, t, HW_SCSI_OP_READ10, 0, 1000 + 16 * t, 16, hal_mem_addr(h, buf));
        ok &= st == HW_SCSI_STATUS_GOOD && check_sectors(h, buf, disk, 1000 + 16 * t, 16);
        /* Write, then read back. */
        for (uint32_t i = 0; i < 8192; ++i) {
            buf[i] = (uint8_t)(i * 7 + disk);
        }
        st = fw_scsi_do10(s, cmd, t, HW_SCSI_OP_WRITE10, 0, 5000, 16, hal_mem_addr(h, buf));
        ok &= st == HW_SCSI_STATUS_GOOD;
        memset(buf, 0, 8192);
        st = fw_scsi_do10(s, cmd, t, HW_SCSI_OP_READ10, 0, 5000, 16, hal_mem_addr(h, buf));
        for (uint32_t i = 0; i < 8192; ++i) {
            ok &= buf[i] == (uint8_t)(i * 7 + disk);
        }
        /* A command beyond the disk's capacity fails with sense data, not a crash. */
        st = fw_scsi_do10(s, cmd, t, HW_SCSI_OP_READ10, 0, 0x7fffffff, 16, hal_mem_addr(h, buf));
        ok &= st == HW_SCSI_STATUS_CHECK_CONDITION &&
              cmd->desc.sense_key == HW_SCSI_SENSE_ILLEGAL_REQUEST &&
              cmd->desc.asc == HW_SCSI_ASC_LBA_OUT_OF_RANGE;
    }
    hal_export(h, "ok", ok);
    hal_export(h, "cycles", hal_now_cycles(h) - t0);
    hal_export(h, "completed", s->completed);
    hal_export(h, "on_done_calls", probe->calls);
    hal_export(h, "on_done_while_busy", probe->still_busy);
}

/* IOP 0 submits, through the SCSI driver, a READ whose buffer lies outside node
 * memory: the adapter refuses the SUBMIT write and the thread stops inside
 * fw_scsi_submit10 (it never exports "continued"). */
void machine_test_bad_scsi_iop_main(hal_t *h) {
    if (hal_role_index(h) != 0) {
        return;
    }
    fw_scsi_t *s = (fw_scsi_t *)hal_mem_alloc(h, sizeof(fw_scsi_t), 8);
    fw_scsi_init(s, h, 0);
    fw_scsi_cmd_t *cmd = fw_scsi_cmd_alloc(s);
    hal_export(h, "bad_desc", hal_mem_addr(h, &cmd->desc));
    fw_scsi_submit10(s, cmd, 0, HW_SCSI_OP_READ10, 0, 0, 16, 0xfff00000u);
    hal_export(h, "continued", 1);
}

/* CP 2 pushes a send descriptor whose header size is not a multiple of 4: the NI
 * refuses the TX_PUSH write and the thread stops there. */
void machine_test_bad_ni_cp_main(hal_t *h) {
    if (hal_role_index(h) != 2) {
        return;
    }
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_TX_DEST, 0);
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_TX_HDR_BYTES, 6);
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_TX_BODY_BYTES, 0);
    hal_reg_write(h, HW_NI_BASE + HW_NI_REG_TX_PUSH, 0);
    hal_export(h, "continued", 1);
}
