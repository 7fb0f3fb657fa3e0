// The crossbar: each output channel carries the front flit of the input VC the
// switch allocator chose for it (router_switch_alloc's ch_src), with the output
// VC that input VC owns.
module router_crossbar #(
    parameter integer N = 9,
    parameter integer OW = $clog2(N)
) (
    input  wire [N*34-1:0] in_flit,  // per input VC: {tail, head, data}
    input  wire [N*OW-1:0] in_ovc,   // per input VC: its output VC
    input  wire [N*32-1:0] in_wait,  // per input VC: its head's wait (statistics)
    input  wire [5*OW-1:0] ch_src,   // per output channel: the chosen input VC
    output reg  [5*34-1:0] out_flit, // per output channel
    output reg  [5*OW-1:0] out_ovc,
    output reg  [5*32-1:0] out_wait
);
  integer o;
  integer src;
  always @* begin
    for (o = 0; o < 5; o = o + 1) begin
      src = {{(32 - OW) {1'b0}}, ch_src[o*OW+:OW]};
      out_flit[o*34+:34] = in_flit[src*34+:34];
      out_ovc[o*OW+:OW] = in_ovc[src*OW+:OW];
      out_wait[o*32+:32] = in_wait[src*32+:32];
    end
  end
endmodule
