// Includes the generated register map (rtl/include/hw_ni_regs.vh) the way RTL will,
// so that Verilator checks it is valid Verilog (the hw_ni_regs_vh_lint test).
module hw_ni_regs_include;
`include "hw_ni_regs.vh"
endmodule
