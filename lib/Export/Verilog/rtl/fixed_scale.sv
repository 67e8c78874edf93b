// fixed_scale: elementwise multiplication of a stream of fixed-point words by a
// constant (the attention's 1/sqrt(d)).
//
// Function: each word x in <DATA_WIDTH, FRAC_WIDTH> (W, F) becomes, in the same
//   format,
//     y = sat_W(rne(x * SCALE_WORD, F))              requant_W(x * SCALE_WORD, F)
//   where SCALE_WORD is a word of the format (the q value of the scale, e.g.
//   0.25 at <16,10>: 256). The product is exact: both factors are in
//   [-2^(W-1), 2^(W-1)], so |x * SCALE_WORD| <= 2^(2W-2) fits 2W signed bits;
//   it has fraction 2F, dropping F bits (round half to even) returns to <W, F>,
//   then it saturates.
// Parameters: DATA_WIDTH, FRAC_WIDTH (0 <= F < W), PARALLELISM (words per
//   beat), SCALE_WORD (signed, -2^(W-1) <= SCALE_WORD <= 2^(W-1) - 1, checked).
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous.
//   Registered output (fixed_skid_buffer): latency 1 cycle, one beat per cycle;
//   with no stalls, the beat taken at the edge ending cycle k is on data_out_0
//   in cycle k + 1, so a tensor of N words takes N/PARALLELISM cycles + 1.
// Resources: PARALLELISM multipliers by a constant (W x W bits); no memory.
module fixed_scale #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int SCALE_WORD  = 4
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
  localparam int W  = DATA_WIDTH;
  localparam int PW = 2 * W;                 // x * SCALE_WORD
  localparam logic [W-1:0] S = W'(SCALE_WORD);

  generate
    if (64'(SCALE_WORD) < -(64'sd1 <<< (W - 1)) ||
        64'(SCALE_WORD) > (64'sd1 <<< (W - 1)) - 64'sd1) begin : g_bad_params
      initial $display("ERROR: fixed_scale: need MIN(W) <= SCALE_WORD <= MAX(W)");
    end
  endgenerate

  logic [W*PARALLELISM-1:0] result;

  genvar j;
  generate
    for (j = 0; j < PARALLELISM; j = j + 1) begin : g_word
      logic [W-1:0]  x;
      logic [PW-1:0] prod;
      assign x    = data_in_0[j*W +: W];
      // Two's complement product modulo 2^PW: exact, see above.
      assign prod = {{W{x[W-1]}}, x} * {{W{S[W-1]}}, S};
      fixed_round_sat #(.IN_WIDTH(PW), .SHIFT(FRAC_WIDTH), .OUT_WIDTH(W)) u_rs (
        .data_in(prod), .data_out(result[j*W +: W]));
    end
  endgenerate

  fixed_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_out (
    .clk(clk), .rst(rst),
    .data_in_0(result), .data_in_0_valid(data_in_0_valid),
    .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid),
    .data_out_0_ready(data_out_0_ready)
  );
endmodule
