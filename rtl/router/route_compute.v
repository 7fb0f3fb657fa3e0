// Dimension-order route computation on the torus (docs/network.md, "Topology and
// routing"): all X hops, then all Y hops, each the shorter way round its ring; on
// an even ring a destination exactly half-way is reached going + when the
// source coordinate is even, going - when it is odd. The VC class is 0 until the
// packet takes the ring's wrap-around link and 1 from there on (the dateline);
// it starts again at 0 in Y. Everything is decided from the route flit, which
// carries the source, so every router computes its own step.
module route_compute (
    input  wire [7:0] cfg_width,
    input  wire [7:0] cfg_height,
    input  wire [7:0] here_x,
    input  wire [7:0] here_y,
    input  wire [7:0] dest_x,
    input  wire [7:0] dest_y,
    input  wire [7:0] src_x,
    input  wire [7:0] src_y,
    output reg  [2:0] out_port,  // 0 E (+x), 1 W (-x), 2 N (+y), 3 S (-y), 4 local
    output reg        vc_class
);
  // Direction along one ring: 1 for +, 2 for -, 0 when arrived.
  function automatic [1:0] ring_direction(input [7:0] here, input [7:0] to, input src_odd,
                                          input [7:0] n);
    reg [8:0] plus;
    reg [8:0] minus;
    begin
      plus = (to >= here) ? {1'b0, to - here} : {1'b0, to} + {1'b0, n} - {1'b0, here};
      minus = {1'b0, n} - plus;
      if (plus == 9'd0) ring_direction = 2'd0;
      else if (plus < minus) ring_direction = 2'd1;
      else if (plus > minus) ring_direction = 2'd2;
      else ring_direction = src_odd ? 2'd2 : 2'd1;
    end
  endfunction

  // Class 1 once past the wrap link: going + it leaves n-1, going - it leaves 0.
  function automatic dateline_class(input [7:0] here, input [7:0] src, input [1:0] dir,
                                    input [7:0] n);
    begin
      if (dir == 2'd1) dateline_class = (here == n - 8'd1) || (here < src);
      else dateline_class = (here == 8'd0) || (here > src);
    end
  endfunction

  reg [1:0] dir_x;
  reg [1:0] dir_y;

  always @* begin
    dir_x = ring_direction(here_x, dest_x, src_x[0], cfg_width);
    dir_y = ring_direction(here_y, dest_y, src_y[0], cfg_height);
    if (dir_x != 2'd0) begin
      out_port = (dir_x == 2'd1) ? 3'd0 : 3'd1;
      vc_class = dateline_class(here_x, src_x, dir_x, cfg_width);
    end else if (dir_y != 2'd0) begin
      out_port = (dir_y == 2'd1) ? 3'd2 : 3'd3;
      vc_class = dateline_class(here_y, src_y, dir_y, cfg_height);
    end else begin
      out_port = 3'd4;
      vc_class = 1'b0;
    end
  end
endmodule
