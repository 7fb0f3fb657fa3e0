// Register map of hw/ni_regs.h for Verilog: include it inside a module.
// Generated from its register and field tables by hw/tools/hw_tables.cpp; do not
// edit. Regenerate with: cmake --build build --target update_hw_tables
// Access: 1 read-only, 2 write-only, 3 read/write. Registers whose reset value
// the instance sets (node id, configuration) have no _RESET parameter.

localparam [31:0] HW_NI_WINDOW_BYTES = 32'h1000;

// ID: HW_NI_ID_VALUE
localparam [31:0] HW_NI_REG_ID = 32'h000;
localparam [1:0] HW_NI_ACCESS_ID = 2'd1; // RO
localparam [31:0] HW_NI_RESET_ID = 32'h4e490001;

// NODE: this node's id
localparam [31:0] HW_NI_REG_NODE = 32'h004;
localparam [1:0] HW_NI_ACCESS_NODE = 2'd1; // RO

// CTRL: HW_NI_CTRL_* bits
localparam [31:0] HW_NI_REG_CTRL = 32'h008;
localparam [1:0] HW_NI_ACCESS_CTRL = 2'd3; // RW
localparam [31:0] HW_NI_RESET_CTRL = 32'h00000000;

// ERROR: first HW_NI_ERR_* seen (sticky)
localparam [31:0] HW_NI_REG_ERROR = 32'h00c;
localparam [1:0] HW_NI_ACCESS_ERROR = 2'd1; // RO
localparam [31:0] HW_NI_RESET_ERROR = 32'h00000000;

// TX_DEST: destination node id
localparam [31:0] HW_NI_REG_TX_DEST = 32'h010;
localparam [1:0] HW_NI_ACCESS_TX_DEST = 2'd3; // RW
localparam [31:0] HW_NI_RESET_TX_DEST = 32'h00000000;

// TX_HDR_ADDR: node address of the software header
localparam [31:0] HW_NI_REG_TX_HDR_ADDR = 32'h014;
localparam [1:0] HW_NI_ACCESS_TX_HDR_ADDR = 2'd3; // RW
localparam [31:0] HW_NI_RESET_TX_HDR_ADDR = 32'h00000000;

// TX_HDR_BYTES: 0..HW_NI_HDR_MAX_BYTES, multiple of 4
localparam [31:0] HW_NI_REG_TX_HDR_BYTES = 32'h018;
localparam [1:0] HW_NI_ACCESS_TX_HDR_BYTES = 2'd3; // RW
localparam [31:0] HW_NI_RESET_TX_HDR_BYTES = 32'h00000000;

// TX_BODY_ADDR: node address of the body
localparam [31:0] HW_NI_REG_TX_BODY_ADDR = 32'h01c;
localparam [1:0] HW_NI_ACCESS_TX_BODY_ADDR = 2'd3; // RW
localparam [31:0] HW_NI_RESET_TX_BODY_ADDR = 32'h00000000;

// TX_BODY_BYTES: 0..HW_NI_MAX_BODY_BYTES
localparam [31:0] HW_NI_REG_TX_BODY_BYTES = 32'h020;
localparam [1:0] HW_NI_ACCESS_TX_BODY_BYTES = 2'd3; // RW
localparam [31:0] HW_NI_RESET_TX_BODY_BYTES = 32'h00000000;

// TX_COOKIE: returned through TX_DONE
localparam [31:0] HW_NI_REG_TX_COOKIE = 32'h024;
localparam [1:0] HW_NI_ACCESS_TX_COOKIE = 2'd3; // RW
localparam [31:0] HW_NI_RESET_TX_COOKIE = 32'h00000000;

// TX_PUSH: queue a descriptor; value = HW_NI_TX_* flags
localparam [31:0] HW_NI_REG_TX_PUSH = 32'h028;
localparam [1:0] HW_NI_ACCESS_TX_PUSH = 2'd2; // WO
localparam [31:0] HW_NI_RESET_TX_PUSH = 32'h00000000;

// TX_FREE: free send-queue slots (ni.tx_queue_depth after reset)
localparam [31:0] HW_NI_REG_TX_FREE = 32'h02c;
localparam [1:0] HW_NI_ACCESS_TX_FREE = 2'd1; // RO

// TX_DONE: read pops: oldest notified cookie, or HW_NI_NONE
localparam [31:0] HW_NI_REG_TX_DONE = 32'h030;
localparam [1:0] HW_NI_ACCESS_TX_DONE = 2'd1; // RO
localparam [31:0] HW_NI_RESET_TX_DONE = 32'hffffffff;

// RX_RING_BASE: ring address, HW_NI_RX_RECORD_BYTES aligned
localparam [31:0] HW_NI_REG_RX_RING_BASE = 32'h040;
localparam [1:0] HW_NI_ACCESS_RX_RING_BASE = 2'd3; // RW
localparam [31:0] HW_NI_RESET_RX_RING_BASE = 32'h00000000;

// RX_RING_SLOTS: records in the ring, power of two >= 2
localparam [31:0] HW_NI_REG_RX_RING_SLOTS = 32'h044;
localparam [1:0] HW_NI_ACCESS_RX_RING_SLOTS = 2'd3; // RW
localparam [31:0] HW_NI_RESET_RX_RING_SLOTS = 32'h00000000;

// RX_COUNT: records waiting to be read
localparam [31:0] HW_NI_REG_RX_COUNT = 32'h048;
localparam [1:0] HW_NI_ACCESS_RX_COUNT = 2'd1; // RO
localparam [31:0] HW_NI_RESET_RX_COUNT = 32'h00000000;

// RX_INDEX: slot of the oldest waiting record
localparam [31:0] HW_NI_REG_RX_INDEX = 32'h04c;
localparam [1:0] HW_NI_ACCESS_RX_INDEX = 2'd1; // RO
localparam [31:0] HW_NI_RESET_RX_INDEX = 32'h00000000;

// RX_POP: free the oldest record (any value)
localparam [31:0] HW_NI_REG_RX_POP = 32'h050;
localparam [1:0] HW_NI_ACCESS_RX_POP = 2'd2; // WO
localparam [31:0] HW_NI_RESET_RX_POP = 32'h00000000;

// RX_BODY_ADDR: where the next accepted body goes
localparam [31:0] HW_NI_REG_RX_BODY_ADDR = 32'h054;
localparam [1:0] HW_NI_ACCESS_RX_BODY_ADDR = 2'd3; // RW
localparam [31:0] HW_NI_RESET_RX_BODY_ADDR = 32'h00000000;

// RX_COOKIE: cookie of the next ACCEPT_NOTIFY
localparam [31:0] HW_NI_REG_RX_COOKIE = 32'h058;
localparam [1:0] HW_NI_ACCESS_RX_COOKIE = 2'd3; // RW
localparam [31:0] HW_NI_RESET_RX_COOKIE = 32'h00000000;

// RX_CMD: HW_NI_RX_CMD(op, handle)
localparam [31:0] HW_NI_REG_RX_CMD = 32'h05c;
localparam [1:0] HW_NI_ACCESS_RX_CMD = 2'd2; // WO
localparam [31:0] HW_NI_RESET_RX_CMD = 32'h00000000;

// Bit fields: <register>_<field>_LSB, _WIDTH and _MASK.
localparam integer HW_NI_CTRL_ENABLE_LSB = 0;
localparam integer HW_NI_CTRL_ENABLE_WIDTH = 1;
localparam [31:0] HW_NI_CTRL_ENABLE_MASK = 32'h00000001; // receive; setting it validates the ring and restarts it empty
localparam integer HW_NI_CTRL_RX_IRQ_LSB = 1;
localparam integer HW_NI_CTRL_RX_IRQ_WIDTH = 1;
localparam [31:0] HW_NI_CTRL_RX_IRQ_MASK = 32'h00000002; // HW_IRQ_NI_RX while RX_COUNT > 0
localparam integer HW_NI_CTRL_TX_IRQ_LSB = 2;
localparam integer HW_NI_CTRL_TX_IRQ_WIDTH = 1;
localparam [31:0] HW_NI_CTRL_TX_IRQ_MASK = 32'h00000004; // HW_IRQ_NI_TX while the done FIFO is not empty
localparam integer HW_NI_CTRL_TX_SPACE_IRQ_LSB = 3;
localparam integer HW_NI_CTRL_TX_SPACE_IRQ_WIDTH = 1;
localparam [31:0] HW_NI_CTRL_TX_SPACE_IRQ_MASK = 32'h00000008; // HW_IRQ_NI_TX while TX_FREE > 0
localparam integer HW_NI_TX_PUSH_NOTIFY_LSB = 0;
localparam integer HW_NI_TX_PUSH_NOTIFY_WIDTH = 1;
localparam [31:0] HW_NI_TX_PUSH_NOTIFY_MASK = 32'h00000001; // put TX_COOKIE into the done FIFO on completion
localparam integer HW_NI_RX_CMD_HANDLE_LSB = 0;
localparam integer HW_NI_RX_CMD_HANDLE_WIDTH = 24;
localparam [31:0] HW_NI_RX_CMD_HANDLE_MASK = 32'h00ffffff; // handle of the message answered
localparam integer HW_NI_RX_CMD_OP_LSB = 28;
localparam integer HW_NI_RX_CMD_OP_WIDTH = 4;
localparam [31:0] HW_NI_RX_CMD_OP_MASK = 32'hf0000000; // HW_NI_RX_ACCEPT, HW_NI_RX_ACCEPT_NOTIFY, HW_NI_RX_DISCARD
