// fixed_mul: elementwise mul of two streams of fixed-point words.
//
// Function: word j of data_out_0 is the product, rounded half to even to FRAC_WIDTH fraction bits, then saturated:
//   data_out = sat(rne(a * b / 2^FRAC_WIDTH))
//   where a, b are word j of data_in_0, data_in_1; all three in <DATA_WIDTH, FRAC_WIDTH>.
//   (docs/Hardware.md, "Fixed-point arithmetic".)
// Parameters: DATA_WIDTH, FRAC_WIDTH, PARALLELISM (words per beat, all streams).
// Protocol: valid/ready on data_in_0, data_in_1 and data_out_0. The two inputs are
//   joined (fixed_join2): a beat is taken from both at once, on a rising edge
//   where both are valid and the output stage can accept. data_in_N_ready
//   depends on the other input's valid (never on its own). rst active-high,
//   synchronous. Registered output (fixed_join2's fixed_skid_buffer): latency
//   1 cycle, one beat per cycle. fixed_join2 checks the parameters.
module fixed_mul #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1
) (
  input  logic                              clk,
  input  logic                              rst,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_0,
  input  logic                              data_in_0_valid,
  output logic                              data_in_0_ready,
  input  logic [DATA_WIDTH*PARALLELISM-1:0] data_in_1,
  input  logic                              data_in_1_valid,
  output logic                              data_in_1_ready,
  output logic [DATA_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic                              data_out_0_valid,
  input  logic                              data_out_0_ready
);
  localparam int W = DATA_WIDTH;

  logic [W*PARALLELISM-1:0] result;

  genvar j;
  generate
    for (j = 0; j < PARALLELISM; j = j + 1) begin : g_word
      logic [W-1:0]   a;
      logic [W-1:0]   b;
      logic [2*W-1:0] wide;
      assign a = data_in_0[j*W +: W];
      assign b = data_in_1[j*W +: W];
      assign wide = {{W{a[W-1]}}, a} * {{W{b[W-1]}}, b};
      fixed_round_sat #(.IN_WIDTH(2 * W), .SHIFT(FRAC_WIDTH), .OUT_WIDTH(W)) u_rs (
        .data_in(wide), .data_out(result[j*W +: W]));
    end
  endgenerate

  fixed_join2 #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_join (
    .clk(clk), .rst(rst),
    .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_in_1_valid(data_in_1_valid), .data_in_1_ready(data_in_1_ready),
    .result(result),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready)
  );
endmodule
