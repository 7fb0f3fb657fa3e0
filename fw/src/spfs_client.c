/* SPFS CP client: see fw/include/fw/spfs.h and docs/spfs.md. */
#include "fw/param_keys.h"
#include "fw/spfs.h"

#include "fw/spfs_plan.h"
#include "fw/transfer.h"

#include <stdio.h>
#include <string.h>

#define SLOT_PENDING UINT32_MAX /* result.src of a request whose reply is not in */

/* One outstanding request: where its reply's status lands, and for Memget writes
 * the body (the data's offset in the CP buffer), which must stay put until sent. */
typedef struct client_slot {
    fw_reply_t result;
    uint32_t cp_offset;
    uint32_t in_use;
} client_slot_t;

struct fw_spfs_client {
    fw_msg_t *m;
    hal_t *h;
    fw_layout_t layout;
    uint32_t iop_count;
    uint32_t block_bytes;
    uint32_t disks; /* file disks D */
    uint32_t k;
    bool memget_writes;
    bool per_disk_flow; /* spfs.client_flow = per-disk */
    uint32_t call_cycles;
    uint32_t request_cycles;
    fw_spfs_klimit_t *klimit;
    fw_group_t *groups;   /* per file disk: its outstanding requests (file-order flow) */
    fw_group_t any;       /* every outstanding request (per-disk flow) */
    uint64_t *next_block; /* per file disk: its next unsent block of the call (per-disk) */
    client_slot_t *slots; /* K per file disk */
    int32_t first_error;
    fw_spfs_client_stats_t stats;
};

fw_spfs_client_t *fw_spfs_client_init(fw_msg_t *m) {
    hal_t *h = fw_msg_hal(m);
    char msg[200];
    fw_spfs_client_t *c = (fw_spfs_client_t *)hal_mem_alloc(h, sizeof *c, 8);
    if (!c) {
        hal_fail(h, "SPFS client: node memory exhausted");
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->m = m;
    c->h = h;
    if (fw_transfer_layout(h, &c->layout, msg, sizeof msg) != FW_LAYOUT_OK) {
        hal_fail(h, msg);
        return NULL;
    }
    c->iop_count = hal_iop_count(h);
    c->block_bytes = c->layout.params.block_bytes;
    c->disks = c->layout.params.disk_count;
    c->k = (uint32_t)hal_config_int(h, FW_KEY_SPFS_OUTSTANDING);
    c->memget_writes = hal_config_int(h, FW_KEY_SPFS_MEMGET_WRITES) != 0;
    c->per_disk_flow = strcmp(hal_config_string(h, FW_KEY_SPFS_CLIENT_FLOW), "per-disk") == 0;
    c->call_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_SPFS_CALL);
    c->request_cycles = (uint32_t)hal_config_int(h, FW_KEY_COST_SPFS_CLIENT_REQUEST);
    size_t kl_bytes = fw_spfs_klimit_bytes(c->disks);
    void *kl_mem = hal_mem_alloc(h, (uint32_t)kl_bytes, 8);
    c->groups = (fw_group_t *)hal_mem_alloc(h, (uint32_t)(sizeof(fw_group_t) * c->disks), 8);
    c->slots = (client_slot_t *)hal_mem_alloc(
        h, (uint32_t)(sizeof(client_slot_t) * (uint64_t)c->disks * c->k), 8);
    c->next_block = (uint64_t *)hal_mem_alloc(h, (uint32_t)(sizeof(uint64_t) * c->disks), 8);
    if (!kl_mem || !c->groups || !c->slots || !c->next_block) {
        hal_fail(h, "SPFS client: node memory exhausted (flow-control state)");
        return NULL;
    }
    c->klimit = fw_spfs_klimit_init(kl_mem, kl_bytes, c->k, c->disks);
    if (!c->klimit) {
        hal_fail(h, "SPFS client: spfs.outstanding must be at least 1");
        return NULL;
    }
    for (uint32_t d = 0; d < c->disks; ++d) {
        fw_group_init(m, &c->groups[d]);
        hal_sem_name(h, &c->groups[d].sem, "SPFS client: requests outstanding at a disk", 0);
    }
    fw_group_init(m, &c->any);
    hal_sem_name(h, &c->any.sem, "SPFS client: a reply from any disk", 0);
    memset(c->slots, 0, sizeof(client_slot_t) * (size_t)c->disks * c->k);
    return c;
}

const fw_spfs_client_stats_t *fw_spfs_client_stats(const fw_spfs_client_t *c) {
    return &c->stats;
}

/* Frees the slots of disk d whose replies are in. */
static void reap(fw_spfs_client_t *c, uint32_t d) {
    client_slot_t *s = &c->slots[(size_t)d * c->k];
    for (uint32_t i = 0; i < c->k; ++i) {
        if (s[i].in_use && s[i].result.src != SLOT_PENDING) {
            s[i].in_use = 0;
            fw_spfs_klimit_replied(c->klimit, d);
            if (s[i].result.status != FW_MSG_OK && c->first_error == FW_MSG_OK) {
                c->first_error = s[i].result.status;
            }
        }
    }
}

/* A free slot of disk d (there is one: fewer than K requests are outstanding). */
static client_slot_t *take_slot(fw_spfs_client_t *c, uint32_t d) {
    client_slot_t *s = &c->slots[(size_t)d * c->k];
    for (uint32_t i = 0; i < c->k; ++i) {
        if (!s[i].in_use) {
            s[i].in_use = 1;
            s[i].result.src = SLOT_PENDING;
            return &s[i];
        }
    }
    hal_fail(c->h, "SPFS client: no free request slot (flow-control bookkeeping broken)");
    return NULL;
}

/* The end of a call: every reply of the CP is in. */
static void wait_all(fw_spfs_client_t *c) {
    for (uint32_t d = 0; d < c->disks && fw_spfs_klimit_total(c->klimit) > 0; ++d) {
        if (fw_spfs_klimit_outstanding(c->klimit, d) > 0) {
            fw_group_wait(c->m, &c->groups[d]);
            reap(c, d);
        }
    }
}

/* Sends one block request (the caller charged the call): waits while K are
 * outstanding at the block's disk. at is the data (writes) or where the reply's
 * data land (reads); buf_offset its offset in the registered base (Memget
 * writes). */
static int send_block(fw_spfs_client_t *c, uint64_t file_block, uint32_t block_offset,
                      uint32_t length, uint8_t *at, uint64_t buf_offset, bool is_write,
                      bool memget_writes) {
    hal_t *h = c->h;
    hal_cycles(h, c->request_cycles);
    fw_spfs_block_home_t home = fw_spfs_block_home(&c->layout, c->iop_count, file_block);
    uint32_t d = home.file_disk;
    fw_group_t *group = c->per_disk_flow ? &c->any : &c->groups[d];
    if (!fw_spfs_klimit_can_send(c->klimit, d)) {
        ++c->stats.flow_waits;
        while (!fw_spfs_klimit_can_send(c->klimit, d)) {
            fw_group_wait_at_most(c->m, &c->groups[d], c->k - 1);
            reap(c, d);
        }
    }
    client_slot_t *slot = take_slot(c, d);
    if (!slot) {
        return FW_MSG_ERANGE;
    }
    uint32_t args[FW_MSG_ARGS] = {(uint32_t)file_block, block_offset, length};
    unsigned node = hal_iop_node(h, home.iop);
    if (!is_write) {
        fw_msg_request_async(c->m, node, FW_SPFS_READ_TYPE, args, NULL, 0, at, length,
                             &slot->result, group);
    } else if (memget_writes) {
        slot->cp_offset = (uint32_t)buf_offset;
        fw_msg_request_async(c->m, node, FW_SPFS_WRITE_GET_TYPE, args, &slot->cp_offset,
                             sizeof slot->cp_offset, NULL, 0, &slot->result, group);
    } else {
        fw_msg_request_async(c->m, node, FW_SPFS_WRITE_TYPE, args, at, length, NULL, 0,
                             &slot->result, group);
    }
    fw_spfs_klimit_sent(c->klimit, d);
    ++c->stats.requests;
    if (fw_spfs_klimit_outstanding(c->klimit, d) > c->stats.max_outstanding) {
        c->stats.max_outstanding = fw_spfs_klimit_outstanding(c->klimit, d);
    }
    return FW_MSG_OK;
}

/* Per-disk flow: the call's request for file block b (the part of [file_offset,
 * file_offset + length) in it), sent now: the caller checked its disk has room. */
static int send_call_block(fw_spfs_client_t *c, uint64_t b, uint64_t file_offset, uint64_t length,
                           uint8_t *buf, uint64_t buf_offset, bool is_write, bool memget_writes) {
    uint64_t block_start = b * c->block_bytes;
    uint64_t start = block_start > file_offset ? block_start : file_offset;
    uint64_t end = block_start + c->block_bytes;
    if (end > file_offset + length) {
        end = file_offset + length;
    }
    uint64_t at = start - file_offset;
    return send_block(c, b, (uint32_t)(start - block_start), (uint32_t)(end - start), buf + at,
                      buf_offset + at, is_write, memget_writes);
}

/* One file-system call under per-disk flow control (spfs.client_flow = per-disk, the
 * tuning report's §2.2): the blocks go out in file order while their disk has fewer
 * than K requests outstanding; a block whose disk is full waits, with the disk's later
 * blocks, and as soon as a reply frees a slot at a disk that disk's next block is
 * sent, whatever the other disks are doing. Returns when every reply is in. buf is
 * where the range's bytes are (or go); buf_offset its offset in the registered base
 * (Memget writes). */
static int call_per_disk(fw_spfs_client_t *c, uint64_t file_offset, uint64_t length, uint8_t *buf,
                         uint64_t buf_offset, bool is_write, bool memget_writes) {
    const uint64_t none = UINT64_MAX;
    const uint64_t first = file_offset / c->block_bytes;
    const uint64_t last = (file_offset + length - 1) / c->block_bytes;
    uint32_t waiting_disks = 0;
    for (uint32_t d = 0; d < c->disks; ++d) {
        c->next_block[d] = none;
    }
    for (uint64_t b = first; b <= last; ++b) {
        uint32_t d = fw_layout_disk_of(&c->layout, b);
        if (c->next_block[d] != none) {
            continue; /* an earlier block of this disk is waiting */
        }
        if (!fw_spfs_klimit_can_send(c->klimit, d)) {
            c->next_block[d] = b;
            ++waiting_disks;
            continue;
        }
        int st =
            send_call_block(c, b, file_offset, length, buf, buf_offset, is_write, memget_writes);
        if (st != FW_MSG_OK) {
            return st;
        }
    }
    while (waiting_disks > 0) {
        fw_group_wait_at_most(c->m, &c->any, fw_spfs_klimit_total(c->klimit) - 1);
        for (uint32_t d = 0; d < c->disks; ++d) {
            reap(c, d);
            while (c->next_block[d] != none && fw_spfs_klimit_can_send(c->klimit, d)) {
                ++c->stats.flow_waits;
                int st = send_call_block(c, c->next_block[d], file_offset, length, buf, buf_offset,
                                         is_write, memget_writes);
                if (st != FW_MSG_OK) {
                    return st;
                }
                uint64_t next = c->next_block[d] + c->disks;
                c->next_block[d] = next <= last ? next : none;
                waiting_disks -= c->next_block[d] == none;
            }
        }
    }
    fw_group_wait(c->m, &c->any);
    for (uint32_t d = 0; d < c->disks; ++d) {
        reap(c, d);
    }
    return FW_MSG_OK;
}

int fw_spfs_client_run(fw_spfs_client_t *c, const fw_pattern_t *p, unsigned cp, uint8_t *buf) {
    if (c->per_disk_flow) {
        fw_pattern_chunk_iter_t it;
        fw_pattern_chunk_t ch;
        c->first_error = FW_MSG_OK;
        fw_pattern_chunks_begin(&it, p, cp);
        while (fw_pattern_chunks_next(&it, &ch)) {
            hal_cycles(c->h, c->call_cycles);
            ++c->stats.calls;
            int st = call_per_disk(c, ch.file_offset, ch.length, buf + ch.cp_offset, ch.cp_offset,
                                   p->is_write, c->memget_writes);
            if (st != FW_MSG_OK) {
                return st;
            }
        }
        return c->first_error;
    }
    hal_t *h = c->h;
    fw_spfs_plan_iter_t it;
    fw_spfs_piece_t pc;
    fw_spfs_plan_begin(&it, p, cp, c->block_bytes);
    c->first_error = FW_MSG_OK;
    while (fw_spfs_plan_next(&it, &pc)) {
        if (pc.first_of_chunk) {
            hal_cycles(h, c->call_cycles);
            ++c->stats.calls;
        }
        int st = send_block(c, pc.file_block, pc.block_offset, pc.length, buf + pc.buf_offset,
                            pc.buf_offset, p->is_write, c->memget_writes);
        if (st != FW_MSG_OK) {
            return st;
        }
        if (pc.last_of_chunk) {
            wait_all(c);
        }
    }
    wait_all(c);
    return c->first_error;
}

int fw_spfs_client_range(fw_spfs_client_t *c, uint64_t file_offset, uint64_t length, uint8_t *buf,
                         bool is_write) {
    c->first_error = FW_MSG_OK;
    if (length == 0) {
        return FW_MSG_OK;
    }
    hal_cycles(c->h, c->call_cycles);
    ++c->stats.calls;
    if (c->per_disk_flow) {
        int st = call_per_disk(c, file_offset, length, buf, 0, is_write, false);
        return st != FW_MSG_OK ? st : c->first_error;
    }
    uint64_t done = 0;
    while (done < length) {
        uint64_t at = file_offset + done;
        uint32_t block_offset = (uint32_t)(at % c->block_bytes);
        uint64_t n = c->block_bytes - block_offset;
        if (n > length - done) {
            n = length - done;
        }
        int st = send_block(c, at / c->block_bytes, block_offset, (uint32_t)n, buf + done, 0,
                            is_write, false);
        if (st != FW_MSG_OK) {
            return st;
        }
        done += n;
    }
    wait_all(c);
    return c->first_error;
}

int fw_spfs_sync_all(fw_msg_t *m) {
    return fw_msg_request_every_iop(m, FW_SPFS_SYNC_TYPE, NULL, 0, "SPFS sync");
}
