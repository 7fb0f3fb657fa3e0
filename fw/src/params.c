#include "fw/params.h"

/* One entry per parameter, in the order of the registry functions' arguments. */
#define INT_PARAM(key, def, unit, min, max, meaning, provenance)                                   \
    { (key), FW_PARAM_INT, (def), "", (unit), (min), (max), "", (meaning), (provenance), 0u }
#define REAL_PARAM(key, def, unit, min, max, meaning, provenance)                                  \
    { (key), FW_PARAM_REAL, (def), "", (unit), (min), (max), "", (meaning), (provenance), 0u }
#define BOOL_PARAM(key, def, meaning, provenance, flags)                                           \
    { (key), FW_PARAM_BOOL, (def), "", "", 0, 0, "", (meaning), (provenance), (flags) }
#define STRING_PARAM(key, def, choices, meaning, provenance)                                       \
    { (key), FW_PARAM_STRING, 0, (def), "", 0, 0, (choices), (meaning), (provenance), 0u }

/* Messaging costs. The derivations assume the HAL service costs' defaults
 * (cost.reg_write_cycles 2, cost.reg_read_cycles 4, cost.irq_entry_cycles 20,
 * cost.irq_exit_cycles 10, cost.sem_post_cycles 5); docs/messaging.md lists what each
 * path charges. */
#define MSG_COST_MAX 100000

static const fw_param_decl_t fw_params_table[] = {
    INT_PARAM(FW_KEY_COST_MEMPUT_CALL, 36, "cycles", 0, MSG_COST_MAX,
              "firmware part of a Memput call on the requester (header, reply action)",
              "derived: docs/reference.md §2 Memput call 46-56 cycles minus 7 TX register writes x "
              "cost.reg_write_cycles (14) = 32-42; 36 keeps the occasional TX_FREE read "
              "(cost.reg_read_cycles 4) inside: 50 or 54"),
    INT_PARAM(
        FW_KEY_COST_MEMPUT_ACCEPT, 15, "cycles", 0, MSG_COST_MAX,
        "receiver: check a Memput (or batch) against the base and accept its body",
        "derived: docs/reference.md §2 Memput handler 91 cycles minus irq entry+exit (30), 12 "
        "register writes x 2 (RX_BODY_ADDR, RX_COOKIE, RX_CMD, 2 RX_POP, 7 TX for the "
        "ack) and 2 x cost.msg_rx_record_cycles (6) = 31, split 15 accept + 16 ack"),
    INT_PARAM(FW_KEY_COST_MEMPUT_ACK, 16, "cycles", 0, MSG_COST_MAX,
              "receiver: a Memput's body is in memory; build and send the acknowledgement",
              "derived: the other 16 of the 31 cycles of cost.msg_memput_accept_cycles' "
              "derivation (docs/reference.md §2 Memput handler 91 cycles)"),
    INT_PARAM(
        FW_KEY_COST_MEMPUT_RETURN, 32, "cycles", 0, MSG_COST_MAX,
        "requester: a Memput's acknowledgement arrived; complete its reply action",
        "derived: docs/reference.md §2 Memput return 72 cycles minus irq entry+exit (30), RX_POP "
        "write (2), cost.sem_post_cycles (5) and cost.msg_rx_record_cycles (3)"),
    INT_PARAM(FW_KEY_COST_MEMGET_CALL, 44, "cycles", 0, MSG_COST_MAX,
              "firmware part of a Memget call on the requester (header, reply action)",
              "derived: docs/reference.md §2 Memget call 51-66 cycles minus 7 TX register writes x "
              "cost.reg_write_cycles (14) = 37-52; 44 keeps the occasional TX_FREE read "
              "inside: 58 or 62"),
    INT_PARAM(
        FW_KEY_COST_MEMGET_SERVE, 54, "cycles", 0, MSG_COST_MAX,
        "receiver: check a Memget against the base and send the data as a reply",
        "derived: docs/reference.md §2 Memget handler 103 cycles minus irq entry+exit (30), 8 "
        "register writes x 2 (RX_POP, 7 TX for the reply) and "
        "cost.msg_rx_record_cycles (3)"),
    INT_PARAM(FW_KEY_COST_REPLY_ACCEPT, 4, "cycles", 0, MSG_COST_MAX,
              "requester: find a reply's reply action and accept its body",
              "derived: docs/reference.md §2 Memget return 58 cycles minus irq entry+exit (30), 5 "
              "register writes x 2 (RX_BODY_ADDR, RX_COOKIE, RX_CMD, 2 RX_POP), "
              "cost.sem_post_cycles (5) and 2 x cost.msg_rx_record_cycles (6) = 7, split 4 + 3"),
    INT_PARAM(FW_KEY_COST_REPLY_DONE, 3, "cycles", 0, MSG_COST_MAX,
              "requester: a reply's body is in memory; fill the result and wake the waiter",
              "derived: the other 3 of the 7 cycles of cost.msg_reply_accept_cycles' "
              "derivation (docs/reference.md §2 Memget return 58 cycles)"),
    INT_PARAM(FW_KEY_COST_DEPOSIT_WORD, 1, "cycles/word", 0, MSG_COST_MAX,
              "receiver's handler time per word of a body deposited in memory",
              "given: docs/reference.md §2 Memput handler and Memget return, 1 cycle per word"),
    INT_PARAM(FW_KEY_COST_RX_RECORD, 3, "cycles", 0, MSG_COST_MAX,
              "NI driver: examine one receive record and dispatch it",
              "estimate: a load of the record kind, a table dispatch and a ring-index "
              "update; calibrate (docs/reference.md §10)"),
    INT_PARAM(FW_KEY_COST_REQUEST_CALL, 44, "cycles", 0, MSG_COST_MAX,
              "firmware part of sending a request (or one multicast copy) with a reply action",
              "estimate: equal to cost.msg_memget_call_cycles (a Memget is a request with a "
              "reply action)"),
    INT_PARAM(FW_KEY_COST_REQUEST_ACCEPT, 15, "cycles", 0, MSG_COST_MAX,
              "receiver: take a request buffer for a request, or run an interrupt handler",
              "estimate: equal to cost.msg_memput_accept_cycles (the same header checks and "
              "accept)"),
    INT_PARAM(FW_KEY_COST_REPLY_CALL, 36, "cycles", 0, MSG_COST_MAX,
              "firmware part of sending a reply from a service or handler",
              "estimate: equal to cost.msg_memput_call_cycles (a header and a body to send)"),
    INT_PARAM(
        FW_KEY_COST_QUEUE_PIECE, 8, "cycles", 0, MSG_COST_MAX,
        "queued Memput/Memget: pack, unpack, gather or scatter one piece (plus copy)",
        "estimate: a bounds check and a two-word piece header; calibrate (docs/reference.md §10)"),
    INT_PARAM(
        FW_KEY_COST_BARRIER_STEP, 20, "cycles", 0, MSG_COST_MAX,
        "barrier: one step of the state machine (entering, or one message)",
        "estimate: a table lookup and a few counter updates; calibrate (docs/reference.md §10)"),
    INT_PARAM(FW_KEY_COST_COPY_WORD, 1, "cycles/word", 0, MSG_COST_MAX,
              "memory-to-memory copy by the CPU, per 32-bit word",
              "estimate: the published per-word handler time (docs/reference.md §2, 1 cycle/word); "
              "calibrate (docs/reference.md §10)"),
    INT_PARAM(
        FW_KEY_COST_QUEUE_INSERT, 10, "cycles", 0, MSG_COST_MAX,
        "insert an entry into a firmware queue (send queue, server queue)",
        "estimate: a few loads and stores to link an entry; calibrate (docs/reference.md §10)"),

    /* ---- messaging sizes ---- */
    INT_PARAM(FW_KEY_MSG_RX_RING_SLOTS, 64, "records", 2, 65536,
              "NI receive-ring records per node (power of two)",
              "estimate: twice the 32 nodes of the paper machine, so every peer can have a "
              "message and its DONE record waiting"),
    INT_PARAM(FW_KEY_MSG_SEND_QUEUE_ENTRIES, 32, "entries", 0, 1048576,
              "software send-queue entries allocated at start (grows when exhausted)",
              "estimate: one per peer of the paper machine; growth costs cost.mem_alloc_cycles"),
    INT_PARAM(FW_KEY_MSG_REPLY_ACTIONS, 64, "entries", 0, 1048576,
              "reply actions allocated at start (grows when exhausted)",
              "estimate: enough for DDIO's concurrent Memputs to every CP; growth costs "
              "cost.mem_alloc_cycles"),
    INT_PARAM(FW_KEY_MSG_REQUEST_BUFFERS, 16, "buffers", 0, 65536,
              "block-sized request buffers per node (grows when exhausted)",
              "estimate: not published (docs/reference.md §6 'pre-allocated pool'); growth costs "
              "cost.mem_alloc_cycles"),
    INT_PARAM(FW_KEY_MSG_SERVER_THREADS, 4, "threads", 1, 1024,
              "server threads per node that run registered services",
              "estimate: not published (docs/reference.md §6 'pre-allocated pool')"),

    /* ---- SCSI driver ---- */
    INT_PARAM(FW_KEY_COST_SCSI_SUBMIT, 60, "cycles", 0, 100000,
              "firmware SCSI driver: build a descriptor and submit it (besides the HAL's "
              "register-write charge)",
              "estimate: a short driver path on a 50 MHz RISC; calibrated with the other "
              "cost.* on the contiguous tables (docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SCSI_COMPLETE, 40, "cycles", 0, 100000,
              "firmware SCSI driver: completion handling per command in the interrupt "
              "handler (besides interrupt entry/exit and the DONE register read)",
              "estimate: as cost.scsi_submit_cycles"),
    INT_PARAM(FW_KEY_SCSI_RETRIES, 3, "retries", 0, 100,
              "times the SCSI driver reissues a command that ended in a MEDIUM ERROR before "
              "it reports the error upward (docs/faults.md)",
              "convention: a few retries, as disk drivers make; only injected faults "
              "(fault.*) cause medium errors"),
    REAL_PARAM(FW_KEY_SCSI_TIMEOUT_MS, 0, "ms", 0, 1e9,
               "simulated time the SCSI driver waits for a command's completion before it "
               "declares the drive silent and reports the error upward; 0 waits forever (a "
               "silent drive is then left to the watchdog, sim.watchdog_ms)",
               "convention: off, since a timer per command reorders simultaneous events in "
               "the SystemC kernel (results would differ in the last digits); disk drivers "
               "commonly use 30000"),

    /* ---- file system and DDIO ---- */
    STRING_PARAM(FW_KEY_FS_KIND, "ddio", "ddio|spfs|2pio",
                 "file system that moves the data: ddio = disk-directed I/O (docs/ddio.md), "
                 "spfs = the traditional parallel file system with IOP caching (docs/spfs.md), "
                 "2pio = two-phase I/O on the CPs over SPFS (docs/twophase.md)",
                 "given: docs/reference.md §6"),
    INT_PARAM(FW_KEY_FS_BLOCK_BYTES, 8192, "bytes", 512, 1048576,
              "file-system block; the file is striped block by block over all disks",
              "given: docs/reference.md §2 (8 KB)"),
    BOOL_PARAM(FW_KEY_FS_FLUSH_DRIVES, 1,
               "at the end of a run each IOP sends SYNCHRONIZE CACHE to every drive it wrote "
               "to and the run ends when their write-behind is on the media (all file "
               "systems); off = the run ends at the drives' last write report",
               "published: Kotz 1997 (TOCS) §5: 'The total transfer time included waiting "
               "for all I/O to complete, including outstanding write-behind and prefetch "
               "requests' (docs/transfer.md, docs/calibration.md)",
               0u),
    BOOL_PARAM(FW_KEY_FS_PRESORT, 1,
               "DDIO: each IOP sorts its block list by physical disk address before "
               "transferring (\"DDIO sort\")",
               "given: docs/reference.md §6-§7 (the paper's best variant)", 0u),
    INT_PARAM(FW_KEY_DDIO_BUFFERS_PER_DISK, 2, "blocks", 1, 64,
              "one-block IOP buffers (each with its own thread) per local disk",
              "given: docs/reference.md §2 (two one-block buffers per local disk)"),
    BOOL_PARAM(
        FW_KEY_DDIO_YIELD_TO_READY, 1,
        "DDIO buffer thread: while moving a block's pieces, give the CPU to another "
        "buffer thread whose pieces have all arrived, so it can start its disk write "
        "at once",
        "estimate: firmware design choice (threads are not preempted, docs/reference.md §2); "
        "without it two buffers per disk leave the drive idle on small-record writes "
        "(docs/calibration.md)",
        0u),
    BOOL_PARAM(FW_KEY_DDIO_PREFETCH, 1,
               "DDIO reads: when every buffer of a disk is busy, ask the drive to start "
               "reading the next block into its own cache (SCSI PRE-FETCH)",
               "given: docs/reference.md §6 (helps normally, hurts on a congested bus)", 0u),
    STRING_PARAM(FW_KEY_DDIO_QUEUED, "auto", "auto|on|off",
                 "batch small Memput/Memget pieces per destination CP (queued Memput/Memget); "
                 "auto = on when records are smaller than a file-system block",
                 "given: docs/reference.md §7 and Kotz TOCS 1997 §4 (batched when the record is "
                 "smaller than a message)"),
    STRING_PARAM(FW_KEY_DDIO_WRITE_ORDER, "list", "list|ready",
                 "DDIO writes: the order each disk's blocks go to the drive: list = the "
                 "block list's (presorted) order, a buffer whose pieces are in waiting for "
                 "the WRITEs of the entries before it; ready = as each buffer's pieces arrive",
                 "published: Kotz 1997 (TOCS) §6: DDIO 'chose the same (optimal) disk schedule "
                 "for all access patterns', and every contiguous 8 KB DDIO write cell is 31.4 "
                 "MB/s (tuning report Table 15); with ready, wbb/wcb/wnb 8 KB write blocks "
                 "out of order (30.5 MB/s, 24-44 movements; docs/calibration.md)"),
    /* An integer 0/1 before it became a boolean like its siblings. */
    BOOL_PARAM(FW_KEY_DDIO_STAGGER, 0,
               "each IOP rotates its block list by a different amount so the CPs are not "
               "all served in the same order (docs/reference.md §12, never measured in the paper)",
               "convention: off, as in the paper", FW_PARAM_ACCEPTS_0_1),
    INT_PARAM(FW_KEY_COST_DDIO_PLAN_BLOCK, 20, "cycles", 0, 1000000,
              "DDIO IOP: per block of the request's plan (list entry and its share of the "
              "presort)",
              "estimate: calibrated on the contiguous DDIO table (docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_DDIO_BLOCK, 100, "cycles", 0, 1000000,
              "DDIO IOP buffer thread: per block moved (claim, bookkeeping)",
              "estimate: calibrated on the contiguous DDIO table (docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_DDIO_PIECE, 260, "cycles", 0, 1000000,
              "DDIO IOP buffer thread: per piece (a run of a block for one CP): computing "
              "its CP and offset from the pattern",
              "estimate: calibrated on the contiguous DDIO table, chiefly rc/wc with 8-byte "
              "records (20.4/20.5 MB/s; docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_DDIO_PIECE_2D, 100, "cycles", 0, 1000000,
              "DDIO IOP buffer thread: extra per piece of a two-dimensional pattern (the "
              "record's row and column, then the CP-grid position)",
              "estimate: calibrated on the contiguous DDIO table, chiefly rbc/rcc/wbc/wcc "
              "with 8-byte records (15.2-15.7 MB/s; docs/calibration.md)"),

    /* ---- the collective transfer ---- */
    STRING_PARAM(FW_KEY_WORKLOAD_PATTERN, "rb",
                 "ra|rn|rb|rc|rnb|rbb|rcb|rbc|rcc|rcn|wn|wb|wc|wnb|wbb|wcb|wbc|wcc|wcn",
                 "HPF access pattern: r/w, then the row and column distribution "
                 "(docs/patterns.md)",
                 "given: docs/reference.md §5 (Kotz TOCS 1997, Table II)"),
    INT_PARAM(FW_KEY_WORKLOAD_RECORD_BYTES, 8192, "bytes", 1, 16777216,
              "size of one matrix element (record)",
              "given: docs/reference.md §5 (8 and 8192 in the main results)"),
    INT_PARAM(FW_KEY_WORKLOAD_COLS, 0, "records", 0, 1e12,
              "columns of a 2-D array; 0 = automatic (largest power of two <= sqrt(records) "
              "dividing records)",
              "derived: reproduces the shapes of docs/reference.md §5 (docs/patterns.md)"),
    STRING_PARAM(FW_KEY_WORKLOAD_LAYOUT, "contiguous", "contiguous|random-blocks|random-tracks",
                 "placement of each disk's file blocks (random layouts fixed per seed and trial)",
                 "given: docs/reference.md §4"),
    REAL_PARAM(FW_KEY_WORKLOAD_FILE_MB, 10.0, "MB", 0.0001, 1048576,
               "size of the file transferred (MB = 2^20 bytes)",
               "given: docs/reference.md §2 (10 MB; 100 and 1000 MB in the file-size study)"),

    /* ---- the out-of-core LU decomposition (docs/lu.md) ---- */
    INT_PARAM(FW_KEY_LU_N, 1024, "elements", 2, 16384,
              "order N of the N x N single-precision matrix decomposed (workload.kind = lu)",
              "given: docs/lu.md (Kotz HPDC 1995 §4: 1024 x 1024)"),
    INT_PARAM(FW_KEY_LU_SLAB_COLS, 16, "columns", 1, 65536,
              "SLAB_COLS: matrix columns each CP holds in memory (its slab)",
              "given: docs/lu.md (Kotz HPDC 1995 §4: 16, 32 or 128)"),
    INT_PARAM(FW_KEY_COST_FLOP, 30, "cycles", 0, 1000000,
              "CP: one floating-point operation of the LU program (a divide for a multiplier, "
              "a multiply or a subtract of an update)",
              "derived: Kotz HPDC 1995 §5 anchor, 128-column slabs compute-bound in about one "
              "minute: 44.7 M updates on the busiest CP x (2 x 30 + 3 x "
              "cost.lu_element_cycles) = 2.95e9 cycles = 59 s at 50 MHz (docs/lu.md)"),
    INT_PARAM(FW_KEY_COST_LU_ELEMENT, 2, "cycles", 0, 1000000,
              "CP: one load or store of a matrix element or multiplier by the LU program "
              "(an update loads two and stores one)",
              "estimate: a cache-hitting load or store plus its address arithmetic on the "
              "50 MHz RISC (docs/lu.md)"),

    /* ---- the communication self-test ---- */
    STRING_PARAM(FW_KEY_COMMTEST_PINGPONG_PAIRS, "auto", "",
                 "node pairs for ping-pong, \"a:b,c:d\"; auto = first CP with second CP, "
                 "first CP with first IOP, first IOP with last IOP",
                 "convention: covers CP-CP, CP-IOP and IOP-IOP paths"),
    INT_PARAM(FW_KEY_COMMTEST_PINGPONG_ITERATIONS, 10, "round trips", 1, 1000000,
              "round trips per ping-pong pair", "convention: enough for a stable mean"),
    STRING_PARAM(FW_KEY_COMMTEST_SWEEP_WORDS, "1,50,100,500,1000,2000", "",
                 "Memput/Memget sizes (32-bit words) swept from the first IOP to the first CP",
                 "convention: docs/reference.md §2 quotes 1 and 50 words; larger sizes show the "
                 "per-word slope"),
    INT_PARAM(FW_KEY_COMMTEST_SWEEP_ITERATIONS, 3, "operations", 1, 100000,
              "Memputs and Memgets per sweep size", "convention: enough for a stable mean"),
    INT_PARAM(FW_KEY_COMMTEST_ECHO_WORDS, 50, "words", 0, 262144,
              "body of the request/reply echo test (first CP to the first IOP's service)",
              "convention: the docs/reference.md §2 50-word size"),
    INT_PARAM(FW_KEY_COMMTEST_SETTLE_CYCLES, 4000, "cycles", 0, 1000000000,
              "quiet time before each timed ping-pong, sweep and echo, so that the barrier "
              "messages of the nodes not taking part have all arrived",
              "convention: a 32-node barrier's messages settle within about 1000 cycles "
              "(docs/machine.md); without it the first timed round trips share the CPU "
              "with them"),
    INT_PARAM(FW_KEY_COMMTEST_BARRIER_ITERATIONS, 10, "barriers", 1, 1000000,
              "barriers over all nodes timed back to back", "convention"),
    INT_PARAM(FW_KEY_COMMTEST_QUEUED_PUTS, 100000, "pieces", 0, 100000000,
              "random small queued Memputs to random peers, over all nodes together",
              "given: issue 5 (10^5 random small queued Memputs)"),
    INT_PARAM(FW_KEY_COMMTEST_QUEUED_GETS, 10000, "pieces", 0, 100000000,
              "random small queued Memgets from random peers, over all nodes together",
              "convention: exercises the gather/scatter path"),
    INT_PARAM(FW_KEY_COMMTEST_QUEUED_MAX_BYTES, 16, "bytes", 1, 4096,
              "largest queued piece (sizes are uniform in 1..this)",
              "convention: small records, as the 8-byte patterns of docs/reference.md §5"),
    INT_PARAM(FW_KEY_COMMTEST_SLICE_BYTES, 4096, "bytes", 16, 1048576,
              "region each node owns in every peer's buffer for queued pieces",
              "convention: large enough for overlap-free and overlapping pieces alike"),
    /* SPFS (docs/spfs.md): switches of docs/reference.md §7 and the CPU costs of its
     * client and IOP server. */
    INT_PARAM(FW_KEY_SPFS_OUTSTANDING, 4, "requests", 1, 1024,
              "K: most requests a CP has outstanding to one disk; a CP with K requests at a "
              "disk waits for a reply before it sends the next",
              "given: docs/reference.md §2 and §7 (K = 4, the fastest in Kotz's tuning)"),
    INT_PARAM(
        FW_KEY_SPFS_CACHE_BUFFERS_PER_CP_DISK, 0, "blocks", 0, 4096,
        "one-block IOP cache buffers per CP per local disk; 0 = 2 x spfs.outstanding "
        "(one for each request and one for its prefetch or write-behind)",
        "given: docs/reference.md §2 (2 buffers per outstanding request: 8 per CP per disk with "
        "K = 4)"),
    STRING_PARAM(FW_KEY_SPFS_DISK_QUEUE, "cscan", "cscan|fcfs",
                 "order in which each disk's thread serves its queue: cscan = Cyclical SCAN "
                 "(two queues ordered by LBA, ahead of and behind the head), fcfs = arrival "
                 "order",
                 "given: docs/reference.md §2, §7 (CSCAN in the final configuration)"),
    STRING_PARAM(FW_KEY_SPFS_DISK_QUEUE_KEY, "logical", "logical|physical",
                 "what cscan orders a disk's queue by: logical = the block's place among the "
                 "file's blocks on that disk (the disk-block number the file system knows), "
                 "physical = the drive LBA the layout puts it at; the same on the contiguous "
                 "layout",
                 "published: Kotz 1996 (tuning report) §2.1, §4.1: queues 'in order of "
                 "increasing disk-block number', and on the random layout C-SCAN 'made less "
                 "difference ... a fairly long seek on every access'; SPFS random-blocks rb "
                 "equals DDIO without presort (Table 16). docs/calibration.md"),
    STRING_PARAM(FW_KEY_SPFS_REQUESTS, "queued", "queued|thread",
                 "IOP request handling: queued = the interrupt handler queues each request "
                 "for a pool of server threads (one per cache buffer); thread = it creates "
                 "a thread per request and copies the message onto its stack",
                 "given: docs/reference.md §6, §7 (queued requests in the final configuration)"),
    BOOL_PARAM(FW_KEY_SPFS_MEMGET_WRITES, 0,
               "writes: the request carries no data and the IOP fetches it with Memget "
               "straight into the cache buffer",
               "given: docs/reference.md §7 (off in the final configuration)", 0u),
    BOOL_PARAM(FW_KEY_SPFS_PREFETCH, 1,
               "after each read request the IOP reads the next block of the same disk into "
               "its cache if it is not there",
               "given: docs/reference.md §2 (one block ahead on the same disk)", 0u),
    STRING_PARAM(FW_KEY_SPFS_PREFETCH_WHEN, "reply", "request|reply",
                 "when a read's prefetch is queued: request = as the read request is seen, "
                 "before any wait for its block; reply = after the reply has been sent",
                 "published: Kotz 1997 (TOCS) §4 'prefetched one block ahead after each read "
                 "request'; the IOP pseudo-code of the disk-directed I/O papers replies first "
                 "and then prefetches. With spfs.client_flow = per-disk it reproduces the "
                 "medium-chunk reads (rbb, rbc, rcc) and keeps rb stable (docs/calibration.md)"),
    STRING_PARAM(FW_KEY_SPFS_CLIENT_FLOW, "per-disk", "per-disk|file-order",
                 "how a CP's file-system call refills its K requests per disk: per-disk = a "
                 "reply from a disk sends that disk's next block at once; file-order = the "
                 "blocks leave strictly in file order, a block whose disk has K outstanding "
                 "holding back every later block",
                 "published: Kotz 1996 (tuning report) §2.2: 'As soon as a disk replies that "
                 "it has completed a given IOP request, another IOP request is sent to that "
                 "disk' (docs/spfs.md)"),
    STRING_PARAM(FW_KEY_SPFS_PICK_NEXT, "completion", "completion|thread",
                 "when a disk's next request is withdrawn from its queue: completion = as "
                 "the previous command completes (the SCSI completion interrupt takes it off "
                 "the queue; the disk thread issues it when it runs); thread = when the disk "
                 "thread runs again, which may be after other ready threads have queued more",
                 "published: Kotz 1997 (TOCS) §4: requests were 'withdrawn from the queue by "
                 "the disk thread when it completed the previous request'. SPFS wb 31.4 -> "
                 "29.7 MB/s (published 28.7); no other SPFS cell moves (docs/calibration.md "
                 "item 5)"),
    INT_PARAM(FW_KEY_SPFS_GROUPS, 0, "CPs", 0, 4096,
              "node grouping: the CPs take turns in groups of this many consecutive CPs, a "
              "group starting when the previous one has all its replies; 0 = off (all CPs "
              "at once)",
              "convention: off, as in the paper; Nitzberg (1995) 'grouping' as a remedy for "
              "cache thrashing (docs/reference.md §12)"),
    INT_PARAM(FW_KEY_COST_SPFS_CALL, 550, "cycles", 0, 1000000,
              "CP: entering one file-system call (one contiguous chunk): argument checks, "
              "the open-file entry, the chunk's first block",
              "estimate: calibrated on the contiguous SPFS table: with "
              "cost.spfs_request_cycles it sets the record-at-a-time 8-byte reads rc, rbc, "
              "rcc (2.1-3.0 MB/s published; docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SPFS_CLIENT_REQUEST, 60, "cycles", 0, 1000000,
              "CP: per block request of a call: the block's disk and IOP, the flow-control "
              "check, a request slot (besides cost.msg_request_call_cycles)",
              "estimate: a division, a table lookup and a counter; calibrated on the "
              "contiguous SPFS table (docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SPFS_REQUEST, 600, "cycles", 0, 1000000,
              "IOP: per request in its server thread: decode, find the block's disk and "
              "local block, dispatch (besides the messaging and thread costs)",
              "estimate: calibrated on the contiguous SPFS table with cost.spfs_call_cycles "
              "(the 8-byte reads rc, rbc, rcc; docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SPFS_CACHE_LOOKUP, 30, "cycles", 0, 1000000,
              "IOP: one cache lookup by (disk, block) (a hash probe), for a request and for "
              "each prefetch check",
              "estimate: a hash and one or two compares; calibrated on the contiguous SPFS "
              "table (docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SPFS_LRU_UPDATE, 20, "cycles", 0, 1000000,
              "IOP: moving a buffer to the most-recently-used end, or taking the LRU victim "
              "for a miss or prefetch",
              "estimate: a doubly linked list update; calibrated on the contiguous SPFS "
              "table (docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SPFS_WRITE_MARK, 900, "cycles", 0, 1000000,
              "IOP: WriteFull bookkeeping per write request (mark the bytes written, test "
              "for a full block); the data copy is cost.copy_word_cycles per word",
              "estimate: calibrated on the 8-byte write cells wc, wcc, wbc (1.9, 1.6, 0.8 "
              "MB/s published, against 2.8, 3.0, 2.1 for the reads): far more than a bitmap "
              "update needs, it stands for whatever made the published small writes slower "
              "than reads (docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SPFS_DISKQ_INSERT, 30, "cycles", 0, 1000000,
              "IOP: putting a disk request on its disk's queue (a sorted insert for CSCAN)",
              "estimate: a short heap insert; calibrated on the contiguous SPFS table "
              "(docs/calibration.md)"),
    INT_PARAM(FW_KEY_COST_SPFS_DISK_REQUEST, 60, "cycles", 0, 1000000,
              "IOP disk thread: taking the next request off the queue, its LBA, and the "
              "buffer bookkeeping when it completes (besides the SCSI driver costs)",
              "estimate: calibrated on the contiguous SPFS table (docs/calibration.md)"),
    /* Two-phase I/O and collective buffering (docs/twophase.md); the defaults are the
     * paper's 2PIO. */
    INT_PARAM(FW_KEY_TWOPHASE_AGGREGATORS, 0, "CPs", 0, 65536,
              "CPs that do the file I/O (ROMIO cb_nodes, Nitzberg's target nodes); 0 = all",
              "given: docs/reference.md §6 (every CP reads its conforming part)"),
    INT_PARAM(FW_KEY_TWOPHASE_BUFFER_KB, 0, "KB", 0, 1048576,
              "collective buffer per aggregator (ROMIO cb_buffer_size): I/O and permutation "
              "proceed in rounds of this size; 0 = the whole share in one round",
              "given: docs/reference.md §6 (one round, the paper)"),
    STRING_PARAM(FW_KEY_TWOPHASE_INTERMEDIATE, "block", "block|file-layout|cyclic",
                 "intermediate distribution: block = the conforming row-block distribution "
                 "(CB-B), file-layout = whole-stripe file domains (CB-FL, ROMIO), cyclic = "
                 "units of twophase.cyclic_kb dealt round-robin (CB-C)",
                 "given: docs/reference.md §6 (block); Nitzberg 1995 (docs/reference.md §12)"),
    INT_PARAM(FW_KEY_TWOPHASE_CYCLIC_KB, 64, "KB", 1, 1048576,
              "cyclic intermediate distribution: the unit dealt to each aggregator in turn",
              "convention: a few file-system blocks"),
    STRING_PARAM(FW_KEY_TWOPHASE_QUEUED, "auto", "auto|on|off",
                 "permutation with queued (batched) Memput/Memget; auto = on when records are "
                 "smaller than a file-system block",
                 "given: docs/reference.md §7 (the mechanism DDIO uses for small records)"),
    BOOL_PARAM(FW_KEY_TWOPHASE_OVERLAP, 0,
               "pipeline round r's permutation with round r + 1's file I/O on a second "
               "collective buffer (ROMIO's pipelined two-phase); needs twophase.buffer_kb",
               "given: docs/reference.md §6 (off: the paper's 2PIO has one round)", 0u),
    BOOL_PARAM(FW_KEY_TWOPHASE_DIRECT, 1,
               "a request whose distribution is the conforming one itself (rb, wb with the "
               "block intermediate over all CPs in one round) goes straight between the file "
               "and the CP's buffer: no collective buffer, copy or permutation barrier",
               "given: TOCS 1997 §6 (Figure 9: with one CP the permutation 'would have matched "
               "rb if the code was changed to test for this special case'); the published 2PIO "
               "rb and wb equal SPFS's in all eight cells (Tables 17-18, docs/calibration.md)",
               0u),
    INT_PARAM(FW_KEY_TWOPHASE_OUTSTANDING, 0, "messages", 0, 1024,
              "plain (not queued) permutation Memputs/Memgets an aggregator has in flight: "
              "with a limit, pieces larger than one file-system block go as one message per "
              "block and the aggregator waits for an acknowledgement before exceeding it; "
              "0 = every piece at once",
              "measured: 0. The tuning report's Table 1 ('+ thread wakeup' on Memput and "
              "Memget return) allows 1, one message at a time; tried, it moves 8 KB rc by 2% "
              "toward the paper and ra by 20% away from it (docs/calibration.md, 2PIO)"),
    INT_PARAM(FW_KEY_COST_TWOPHASE_PIECE, 250, "cycles", 0, 1000000,
              "2PIO aggregator: per remote permutation piece (a run of a range for another "
              "CP): computing its CP and offset from the pattern and handing it to "
              "Memput/Memget; a local piece is a plain copy (cost.copy_word_cycles)",
              "estimate: calibrated on the contiguous 2PIO table, the 8-byte cells rc, rcc, "
              "rbc, wc, wcc, wbc (12.8-16.5 MB/s published; docs/calibration.md)"),
};

const fw_param_decl_t *fw_param_decls(size_t *count) {
    *count = sizeof fw_params_table / sizeof fw_params_table[0];
    return fw_params_table;
}
