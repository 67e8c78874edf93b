// fixed_clamp: elementwise clamp of a stream of fixed-point words (ReLU6,
// Hardtanh).
//
// Function: each word x in <DATA_WIDTH, FRAC_WIDTH> becomes
//   y = min(max(x, MIN_WORD), MAX_WORD), same format (docs/Hardware.md,
//   "Per operation"). MIN_WORD and MAX_WORD are words of the format (the q
//   values, e.g. ReLU6 at <8,4>: MIN_WORD = 0, MAX_WORD = 6 * 2^4 = 96).
//   The result is one of x, MIN_WORD, MAX_WORD: no rounding, no saturation.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format, the logic does not depend on it),
//   PARALLELISM (words per beat), MIN_WORD, MAX_WORD (signed,
//   -2^(DATA_WIDTH-1) <= MIN_WORD <= MAX_WORD <= 2^(DATA_WIDTH-1) - 1, checked).
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous.
//   Registered output (fixed_skid_buffer): latency 1 cycle, one beat per cycle;
//   with no stalls, the beat taken at the edge ending cycle k is on data_out_0
//   in cycle k + 1, so a tensor of N words takes N/PARALLELISM cycles + 1.
module fixed_clamp #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int MIN_WORD    = 0,
  parameter int MAX_WORD    = 96
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
  localparam int W = DATA_WIDTH;
  localparam logic signed [W-1:0] LO = W'(MIN_WORD);
  localparam logic signed [W-1:0] HI = W'(MAX_WORD);

  generate
    if (64'(MIN_WORD) < -(64'sd1 <<< (W - 1)) || 64'(MAX_WORD) > (64'sd1 <<< (W - 1)) - 64'sd1 ||
        MIN_WORD > MAX_WORD) begin : g_bad_params
      initial $display("ERROR: fixed_clamp: need MIN(W) <= MIN_WORD <= MAX_WORD <= MAX(W)");
    end
  endgenerate

  logic [W*PARALLELISM-1:0] result;

  genvar j;
  generate
    for (j = 0; j < PARALLELISM; j = j + 1) begin : g_word
      logic signed [W-1:0] x;
      assign x = data_in_0[j*W +: W];
      assign result[j*W +: W] = (x < LO) ? LO : (x > HI) ? HI : x;
    end
  endgenerate

  fixed_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_out (
    .clk(clk), .rst(rst),
    .data_in_0(result), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready)
  );
endmodule
