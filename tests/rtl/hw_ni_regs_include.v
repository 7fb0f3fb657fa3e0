// Includes the generated register map (rtl/include/hw_ni_regs.vh) and frame and
// record formats (rtl/include/hw_ni_frame.vh) the way RTL will, so that Verilator
// checks they are valid Verilog (the hw_ni_regs_vh_lint test).
`include "hw_ni_frame.vh"
module hw_ni_regs_include;
`include "hw_ni_regs.vh"
  localparam integer FRAME_BITS = 8 * `HW_NI_FRAME_BYTES;
  localparam integer RECORD_BITS = 8 * `HW_NI_RX_RECORD_BYTES;
endmodule
