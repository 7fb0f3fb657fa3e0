// Register front end of the NI's DMA engine: the CTRL register of hw/ni_regs.h
// (its defined bits, through the generated include) and the two interrupt
// lines, level-sensitive:
//   irq_rx  while records wait in the ring and CTRL.RX_IRQ;
//   irq_tx  while the done FIFO holds a cookie and CTRL.TX_IRQ, or while the
//           send queue has a free slot and CTRL.TX_SPACE_IRQ.
// The register write port takes the value CTRL holds after a write (the
// descriptor bookkeeping validates the ring first); writes to other offsets
// are not this block's. A write is latched at the next edge and acts on the
// interrupt lines at once (the lines follow a register access in the same
// cycle, docs/node.md).
module ni_dma_ctrl (
    input  wire        clk,
    input  wire        rst,
    input  wire        reg_we,
    input  wire [11:0] reg_addr,
    input  wire [31:0] reg_wdata,
    input  wire        rx_records,      // RX_COUNT > 0
    input  wire        tx_done_waiting, // the done FIFO is not empty
    input  wire        tx_space,        // TX_FREE > 0
    output reg  [31:0] ctrl,
    output wire        irq_rx,
    output wire        irq_tx
);
  // The whole register map comes in; this block uses CTRL's offset and bits.
  /* verilator lint_off UNUSEDPARAM */
`include "hw_ni_regs.vh"
  /* verilator lint_on UNUSEDPARAM */
  localparam [31:0] CTRL_DEFINED = HW_NI_CTRL_ENABLE_MASK | HW_NI_CTRL_RX_IRQ_MASK |
      HW_NI_CTRL_TX_IRQ_MASK | HW_NI_CTRL_TX_SPACE_IRQ_MASK;

  wire ctrl_write = reg_we && {20'd0, reg_addr} == HW_NI_REG_CTRL;
  wire [31:0] ctrl_now = ctrl_write ? reg_wdata & CTRL_DEFINED : ctrl;
  always @(posedge clk) begin
    if (rst) ctrl <= HW_NI_RESET_CTRL;
    else if (ctrl_write) ctrl <= ctrl_now;
  end

  assign irq_rx = rx_records && (ctrl_now & HW_NI_CTRL_RX_IRQ_MASK) != 32'd0;
  assign irq_tx = (tx_done_waiting && (ctrl_now & HW_NI_CTRL_TX_IRQ_MASK) != 32'd0) ||
                  (tx_space && (ctrl_now & HW_NI_CTRL_TX_SPACE_IRQ_MASK) != 32'd0);
endmodule
