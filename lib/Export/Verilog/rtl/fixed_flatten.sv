// fixed_flatten: torch.flatten on a stream.
//
// Function: streams are in row-major (C-order) element order of the tensor
// (for an image: channel, then row, then column), so flattening does not move
// any word: the output beats are the input beats, unchanged. The component
// exists so that a generated top has one instance per graph node; it is a
// register slice (fixed_skid_buffer).
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only), PARALLELISM (words per beat,
//   the same on both sides).
// Protocol: valid/ready; rst active-high, synchronous. Latency 1 cycle, one beat
//   per cycle.
module fixed_flatten #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1
) (
  input  logic                              clk,
  input  logic                              rst,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_0,
  input  logic                              data_in_0_valid,
  output logic                              data_in_0_ready,
  output logic [DATA_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic                              data_out_0_valid,
  input  logic                              data_out_0_ready
);
  fixed_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_buf (
    .clk(clk), .rst(rst),
    .data_in_0(data_in_0), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready)
  );
endmodule
