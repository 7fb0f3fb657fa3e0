/* Names of the configuration parameters the firmware reads with hal_config_*.
 *
 * One spelling for the firmware and for the declarations: the firmware's own
 * parameters are declared under these names in fw/src/params.c (fw/params.h); the
 * few it reads from other components (the disk geometry, the trial seed) are
 * declared by their owners, and test_fw_params checks that every name here is a
 * registered parameter of the type the firmware reads it as. C++ code reads and
 * declares these keys through the typed constants at the end (hw/config/key.h),
 * never through a second literal (CTest config_keys).
 * docs/configuration.md says where every parameter is declared. */
#ifndef STARFISH_FW_PARAM_KEYS_H
#define STARFISH_FW_PARAM_KEYS_H

#include "hw/machine_keys.h"

/* ---- messaging costs (fw/src/msg.c; docs/messaging.md derives each) --------------- */
#define FW_KEY_COST_MEMPUT_CALL "cost.msg_memput_call_cycles"
#define FW_KEY_COST_MEMPUT_ACCEPT "cost.msg_memput_accept_cycles"
#define FW_KEY_COST_MEMPUT_ACK "cost.msg_memput_ack_cycles"
#define FW_KEY_COST_MEMPUT_RETURN "cost.msg_memput_return_cycles"
#define FW_KEY_COST_MEMGET_CALL "cost.msg_memget_call_cycles"
#define FW_KEY_COST_MEMGET_SERVE "cost.msg_memget_serve_cycles"
#define FW_KEY_COST_REPLY_ACCEPT "cost.msg_reply_accept_cycles"
#define FW_KEY_COST_REPLY_DONE "cost.msg_reply_done_cycles"
#define FW_KEY_COST_DEPOSIT_WORD "cost.msg_deposit_word_cycles"
#define FW_KEY_COST_RX_RECORD "cost.msg_rx_record_cycles"
#define FW_KEY_COST_REQUEST_CALL "cost.msg_request_call_cycles"
#define FW_KEY_COST_REQUEST_ACCEPT "cost.msg_request_accept_cycles"
#define FW_KEY_COST_REPLY_CALL "cost.msg_reply_call_cycles"
#define FW_KEY_COST_QUEUE_PIECE "cost.msg_queue_piece_cycles"
#define FW_KEY_COST_BARRIER_STEP "cost.msg_barrier_step_cycles"
#define FW_KEY_COST_COPY_WORD "cost.copy_word_cycles"
#define FW_KEY_COST_QUEUE_INSERT "cost.queue_insert_cycles"

/* ---- messaging sizes (fw/src/msg.c) ----------------------------------------------- */
#define FW_KEY_MSG_RX_RING_SLOTS "msg.rx_ring_slots"
#define FW_KEY_MSG_SEND_QUEUE_ENTRIES "msg.send_queue_entries"
#define FW_KEY_MSG_REPLY_ACTIONS "msg.reply_actions"
#define FW_KEY_MSG_REQUEST_BUFFERS "msg.request_buffers"
#define FW_KEY_MSG_SERVER_THREADS "msg.server_threads"

/* ---- SCSI driver costs (fw/src/scsi.c) --------------------------------------------- */
#define FW_KEY_COST_SCSI_SUBMIT "cost.scsi_submit_cycles"
#define FW_KEY_COST_SCSI_COMPLETE "cost.scsi_complete_cycles"
/* ---- SCSI driver error handling (fw/src/scsi.c; docs/faults.md) ------------------- */
#define FW_KEY_SCSI_RETRIES "scsi.retries"
#define FW_KEY_SCSI_TIMEOUT_MS "scsi.timeout_ms"

/* ---- file system and DDIO (fw/src/ddio.c, fw/src/transfer.c; docs/ddio.md) --------- */
#define FW_KEY_FS_KIND "fs.kind"
#define FW_KEY_FS_BLOCK_BYTES "fs.block_bytes"
#define FW_KEY_FS_PRESORT "fs.presort"
#define FW_KEY_FS_FLUSH_DRIVES "fs.flush_drives"
#define FW_KEY_DDIO_BUFFERS_PER_DISK "ddio.buffers_per_disk"
#define FW_KEY_DDIO_YIELD_TO_READY "ddio.yield_to_ready"
#define FW_KEY_DDIO_PREFETCH "ddio.prefetch"
#define FW_KEY_DDIO_QUEUED "ddio.queued"
#define FW_KEY_DDIO_STAGGER "ddio.stagger"
#define FW_KEY_DDIO_WRITE_ORDER "ddio.write_order"
#define FW_KEY_COST_DDIO_PLAN_BLOCK "cost.ddio_plan_block_cycles"
#define FW_KEY_COST_DDIO_BLOCK "cost.ddio_block_cycles"
#define FW_KEY_COST_DDIO_PIECE "cost.ddio_piece_cycles"
#define FW_KEY_COST_DDIO_PIECE_2D "cost.ddio_piece_2d_cycles"

/* ---- the collective transfer (fw/src/transfer.c; docs/transfer.md) ----------------- */
#define FW_KEY_WORKLOAD_PATTERN "workload.pattern"
#define FW_KEY_WORKLOAD_RECORD_BYTES "workload.record_bytes"
#define FW_KEY_WORKLOAD_COLS "workload.cols"
#define FW_KEY_WORKLOAD_LAYOUT "workload.layout"
#define FW_KEY_WORKLOAD_FILE_MB "workload.file_mb"

/* ---- the out-of-core LU decomposition (fw/src/app_lu.c; docs/lu.md) ---------------- */
#define FW_KEY_LU_N "lu.n"
#define FW_KEY_LU_SLAB_COLS "lu.slab_cols"
#define FW_KEY_COST_FLOP "cost.flop_cycles"
#define FW_KEY_COST_LU_ELEMENT "cost.lu_element_cycles"

/* ---- the communication self-test (fw/src/app_commtest.c; docs/messaging.md) -------- */
#define FW_KEY_COMMTEST_PINGPONG_PAIRS "commtest.pingpong_pairs"
#define FW_KEY_COMMTEST_PINGPONG_ITERATIONS "commtest.pingpong_iterations"
#define FW_KEY_COMMTEST_SWEEP_WORDS "commtest.sweep_words"
#define FW_KEY_COMMTEST_SWEEP_ITERATIONS "commtest.sweep_iterations"
#define FW_KEY_COMMTEST_ECHO_WORDS "commtest.echo_words"
#define FW_KEY_COMMTEST_SETTLE_CYCLES "commtest.settle_cycles"
#define FW_KEY_COMMTEST_BARRIER_ITERATIONS "commtest.barrier_iterations"
#define FW_KEY_COMMTEST_QUEUED_PUTS "commtest.queued_puts"
#define FW_KEY_COMMTEST_QUEUED_GETS "commtest.queued_gets"
#define FW_KEY_COMMTEST_QUEUED_MAX_BYTES "commtest.queued_max_bytes"
#define FW_KEY_COMMTEST_SLICE_BYTES "commtest.slice_bytes"
/* Most sizes commtest.sweep_words may list (the firmware keeps them in an array). */
#define FW_COMMTEST_MAX_SWEEP_SIZES 64u

/* ---- read by the firmware, declared by their owners --------------------------------- */
#define FW_KEY_WORKLOAD_SEED "workload.seed" /* sim/workload_params.cpp */
/* Spelt in hw/machine_keys.h, which the models declaring them see too. */
#define FW_KEY_DISK_SECTOR_BYTES HW_KEY_DISK_SECTOR_BYTES /* tlm_models/storage/disk_params.cpp */
#define FW_KEY_DISK_SECTORS_PER_TRACK HW_KEY_DISK_SECTORS_PER_TRACK
#define FW_KEY_DISK_CYLINDERS HW_KEY_DISK_CYLINDERS
#define FW_KEY_DISK_HEADS HW_KEY_DISK_HEADS
#define FW_KEY_MACHINE_CPU_MHZ HW_KEY_MACHINE_CPU_MHZ /* sim/platform/machine_params.cpp */

/* SPFS (fw/src/spfs_client.c, fw/src/spfs_iop.c). */
#define FW_KEY_SPFS_OUTSTANDING "spfs.outstanding"
#define FW_KEY_SPFS_CACHE_BUFFERS_PER_CP_DISK "spfs.cache_buffers_per_cp_disk"
#define FW_KEY_SPFS_DISK_QUEUE "spfs.disk_queue"
#define FW_KEY_SPFS_DISK_QUEUE_KEY "spfs.disk_queue_key"
#define FW_KEY_SPFS_REQUESTS "spfs.requests"
#define FW_KEY_SPFS_MEMGET_WRITES "spfs.memget_writes"
#define FW_KEY_SPFS_PREFETCH "spfs.prefetch"
#define FW_KEY_SPFS_PREFETCH_WHEN "spfs.prefetch_when"
#define FW_KEY_SPFS_GROUPS "spfs.groups"
#define FW_KEY_SPFS_CLIENT_FLOW "spfs.client_flow"
#define FW_KEY_SPFS_PICK_NEXT "spfs.pick_next"
#define FW_KEY_COST_SPFS_CALL "cost.spfs_call_cycles"
#define FW_KEY_COST_SPFS_CLIENT_REQUEST "cost.spfs_client_request_cycles"
#define FW_KEY_COST_SPFS_REQUEST "cost.spfs_request_cycles"
#define FW_KEY_COST_SPFS_CACHE_LOOKUP "cost.spfs_cache_lookup_cycles"
#define FW_KEY_COST_SPFS_LRU_UPDATE "cost.spfs_lru_update_cycles"
#define FW_KEY_COST_SPFS_WRITE_MARK "cost.spfs_write_mark_cycles"
#define FW_KEY_COST_SPFS_DISKQ_INSERT "cost.spfs_diskq_insert_cycles"
#define FW_KEY_COST_SPFS_DISK_REQUEST "cost.spfs_disk_request_cycles"

/* Two-phase I/O (fw/src/twophase.c; docs/twophase.md). */
#define FW_KEY_TWOPHASE_AGGREGATORS "twophase.aggregators"
#define FW_KEY_TWOPHASE_BUFFER_KB "twophase.buffer_kb"
#define FW_KEY_TWOPHASE_INTERMEDIATE "twophase.intermediate"
#define FW_KEY_TWOPHASE_CYCLIC_KB "twophase.cyclic_kb"
#define FW_KEY_TWOPHASE_QUEUED "twophase.queued"
#define FW_KEY_TWOPHASE_OVERLAP "twophase.overlap"
#define FW_KEY_TWOPHASE_DIRECT "twophase.direct"
#define FW_KEY_TWOPHASE_OUTSTANDING "twophase.outstanding"
#define FW_KEY_COST_TWOPHASE_PIECE "cost.twophase_piece_cycles"

#ifdef __cplusplus
/* The keys C++ code reads or declares (sim/platform/fw_params.cpp's checks, the
 * workloads, sim/workload_params.cpp, the tests that derive timings from the
 * messaging costs), typed as the firmware's table declares them. */
#include "hw/config/key.h"

namespace starfish::keys {
inline constexpr config::IntKey cost_msg_memput_call_cycles{FW_KEY_COST_MEMPUT_CALL};
inline constexpr config::IntKey cost_msg_memput_accept_cycles{FW_KEY_COST_MEMPUT_ACCEPT};
inline constexpr config::IntKey cost_msg_memput_ack_cycles{FW_KEY_COST_MEMPUT_ACK};
inline constexpr config::IntKey cost_msg_memput_return_cycles{FW_KEY_COST_MEMPUT_RETURN};
inline constexpr config::IntKey cost_msg_memget_call_cycles{FW_KEY_COST_MEMGET_CALL};
inline constexpr config::IntKey cost_msg_memget_serve_cycles{FW_KEY_COST_MEMGET_SERVE};
inline constexpr config::IntKey cost_msg_reply_accept_cycles{FW_KEY_COST_REPLY_ACCEPT};
inline constexpr config::IntKey cost_msg_reply_done_cycles{FW_KEY_COST_REPLY_DONE};
inline constexpr config::IntKey cost_msg_deposit_word_cycles{FW_KEY_COST_DEPOSIT_WORD};
inline constexpr config::IntKey cost_msg_rx_record_cycles{FW_KEY_COST_RX_RECORD};
inline constexpr config::IntKey cost_msg_request_call_cycles{FW_KEY_COST_REQUEST_CALL};
inline constexpr config::IntKey cost_msg_request_accept_cycles{FW_KEY_COST_REQUEST_ACCEPT};
inline constexpr config::IntKey cost_msg_reply_call_cycles{FW_KEY_COST_REPLY_CALL};
inline constexpr config::IntKey cost_msg_barrier_step_cycles{FW_KEY_COST_BARRIER_STEP};
inline constexpr config::IntKey msg_rx_ring_slots{FW_KEY_MSG_RX_RING_SLOTS};
inline constexpr config::IntKey msg_send_queue_entries{FW_KEY_MSG_SEND_QUEUE_ENTRIES};
inline constexpr config::IntKey msg_reply_actions{FW_KEY_MSG_REPLY_ACTIONS};
inline constexpr config::IntKey msg_request_buffers{FW_KEY_MSG_REQUEST_BUFFERS};
inline constexpr config::StringKey fs_kind{FW_KEY_FS_KIND};
inline constexpr config::IntKey fs_block_bytes{FW_KEY_FS_BLOCK_BYTES};
inline constexpr config::BoolKey fs_presort{FW_KEY_FS_PRESORT};
inline constexpr config::IntKey ddio_buffers_per_disk{FW_KEY_DDIO_BUFFERS_PER_DISK};
inline constexpr config::BoolKey ddio_stagger{FW_KEY_DDIO_STAGGER};
inline constexpr config::StringKey workload_pattern{FW_KEY_WORKLOAD_PATTERN};
inline constexpr config::IntKey workload_record_bytes{FW_KEY_WORKLOAD_RECORD_BYTES};
inline constexpr config::IntKey workload_cols{FW_KEY_WORKLOAD_COLS};
inline constexpr config::StringKey workload_layout{FW_KEY_WORKLOAD_LAYOUT};
inline constexpr config::RealKey workload_file_mb{FW_KEY_WORKLOAD_FILE_MB};
inline constexpr config::IntKey workload_seed{FW_KEY_WORKLOAD_SEED};
inline constexpr config::IntKey lu_n{FW_KEY_LU_N};
inline constexpr config::IntKey lu_slab_cols{FW_KEY_LU_SLAB_COLS};
inline constexpr config::StringKey commtest_pingpong_pairs{FW_KEY_COMMTEST_PINGPONG_PAIRS};
inline constexpr config::IntKey commtest_pingpong_iterations{FW_KEY_COMMTEST_PINGPONG_ITERATIONS};
inline constexpr config::StringKey commtest_sweep_words{FW_KEY_COMMTEST_SWEEP_WORDS};
inline constexpr config::IntKey commtest_sweep_iterations{FW_KEY_COMMTEST_SWEEP_ITERATIONS};
inline constexpr config::IntKey commtest_echo_words{FW_KEY_COMMTEST_ECHO_WORDS};
inline constexpr config::IntKey commtest_settle_cycles{FW_KEY_COMMTEST_SETTLE_CYCLES};
inline constexpr config::IntKey commtest_barrier_iterations{FW_KEY_COMMTEST_BARRIER_ITERATIONS};
inline constexpr config::IntKey commtest_queued_puts{FW_KEY_COMMTEST_QUEUED_PUTS};
inline constexpr config::IntKey commtest_queued_gets{FW_KEY_COMMTEST_QUEUED_GETS};
inline constexpr config::IntKey commtest_queued_max_bytes{FW_KEY_COMMTEST_QUEUED_MAX_BYTES};
inline constexpr config::IntKey commtest_slice_bytes{FW_KEY_COMMTEST_SLICE_BYTES};
inline constexpr config::IntKey spfs_outstanding{FW_KEY_SPFS_OUTSTANDING};
inline constexpr config::IntKey spfs_cache_buffers_per_cp_disk{
    FW_KEY_SPFS_CACHE_BUFFERS_PER_CP_DISK};
inline constexpr config::StringKey spfs_disk_queue{FW_KEY_SPFS_DISK_QUEUE};
inline constexpr config::StringKey spfs_requests{FW_KEY_SPFS_REQUESTS};
inline constexpr config::BoolKey spfs_memget_writes{FW_KEY_SPFS_MEMGET_WRITES};
inline constexpr config::BoolKey spfs_prefetch{FW_KEY_SPFS_PREFETCH};
inline constexpr config::IntKey twophase_aggregators{FW_KEY_TWOPHASE_AGGREGATORS};
inline constexpr config::IntKey twophase_buffer_kb{FW_KEY_TWOPHASE_BUFFER_KB};
inline constexpr config::IntKey twophase_cyclic_kb{FW_KEY_TWOPHASE_CYCLIC_KB};
inline constexpr config::StringKey twophase_intermediate{FW_KEY_TWOPHASE_INTERMEDIATE};
inline constexpr config::BoolKey twophase_overlap{FW_KEY_TWOPHASE_OVERLAP};
inline constexpr config::BoolKey twophase_direct{FW_KEY_TWOPHASE_DIRECT};
} // namespace starfish::keys
#endif

#endif
