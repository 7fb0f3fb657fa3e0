// Round-robin arbiter: grants the first requester after the one granted last,
// in index order modulo N (docs/network.md, "Timing contract": link arbitration
// over VCs and VC allocation over input keys both rotate this way). The grant is
// combinational; the pointer moves to the granted index when `advance` is high
// (the grant was used this cycle). After reset index 0 has the highest priority.
module rr_arbiter #(
    parameter integer N = 4,
    parameter integer IW = (N > 1) ? $clog2(N) : 1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [N-1:0]  req,
    input  wire          advance,
    output reg  [N-1:0]  grant,
    output reg  [IW-1:0] grant_idx,
    output reg           any
);
  reg [IW-1:0] last;
  integer k;
  integer idx;

  always @* begin
    grant = {N{1'b0}};
    grant_idx = {IW{1'b0}};
    any = 1'b0;
    for (k = 1; k <= N; k = k + 1) begin
      idx = {{(32 - IW) {1'b0}}, last} + k;
      if (idx >= N) idx = idx - N;
      if (!any && req[idx]) begin
        any = 1'b1;
        grant[idx] = 1'b1;
        grant_idx = idx[IW-1:0];
      end
    end
  end

  always @(posedge clk) begin
    if (rst) last <= IW'(N - 1);
    else if (advance && any) last <= grant_idx;
  end
endmodule
