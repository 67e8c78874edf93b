// fixed_hardswish: elementwise Hardswish, x * relu6(x + 3) / 6, on a stream of
// fixed-point words.
//
// Function: each word x in <DATA_WIDTH, FRAC_WIDTH> (W, F) becomes, in the same
//   format (docs/Hardware.md, "Per operation"):
//     t = clamp(x + 3 * 2^F, 0, 6 * 2^F)            exact, W + 4 bits
//     R = floor((2^RF + 3) / 6)                      1/6 with RF = RECIP_FRAC
//                                                    fraction bits (reciprocal(6, RF))
//     y = sat_W(rne(x * t * R, F + RF))              requant_W(x * t * R, F + RF)
//   The product is exact: |x| <= 2^(W-1), 0 <= t <= 6 * 2^F < 3 * 2^W, and
//   0 <= R < 2^(RF-1) (because 2^RF + 3 < 3 * 2^RF), so
//     |x * t|     < 3 * 2^(2W-1) < 2^(2W+1)        (2W + 4 bits hold it),
//     |x * t * R| < 3 * 2^(2W+RF-2) < 2^(2W+RF)    (2W + RF + 1 signed bits),
//   and the intermediate has 2W + RF + 4 bits, more than enough. It has
//   fraction F + F + RF; dropping F + RF bits returns to <W, F>.
// Parameters: DATA_WIDTH, FRAC_WIDTH (0 <= F < W), PARALLELISM (words per
//   beat), RECIP_FRAC (RF, 1..30, checked; the flow uses min(30, W + 4)).
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous.
//   Registered output (fixed_skid_buffer): latency 1 cycle, one beat per cycle;
//   with no stalls, the beat taken at the edge ending cycle k is on data_out_0
//   in cycle k + 1, so a tensor of N words takes N/PARALLELISM cycles + 1.
module fixed_hardswish #(
  parameter int DATA_WIDTH  = 8,
  parameter int FRAC_WIDTH  = 4,
  parameter int PARALLELISM = 1,
  parameter int RECIP_FRAC  = 12
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
  localparam int RF = RECIP_FRAC;
  localparam int TW = W + 4;                 // x + 3, t
  localparam int XW = 2 * W + 4;             // x * t
  localparam int PW = XW + RF;               // x * t * R
  localparam logic signed [TW-1:0] THREE = TW'(64'd3 << FRAC_WIDTH);
  localparam logic signed [TW-1:0] SIX   = TW'(64'd6 << FRAC_WIDTH);
  localparam logic [RF-1:0]        RECIP = RF'(((64'd1 << RF) + 64'd3) / 64'd6);

  generate
    if (RECIP_FRAC < 1 || RECIP_FRAC > 30) begin : g_bad_params
      initial $display("ERROR: fixed_hardswish: need 1 <= RECIP_FRAC <= 30");
    end
  endgenerate

  logic [W*PARALLELISM-1:0] result;

  genvar j;
  generate
    for (j = 0; j < PARALLELISM; j = j + 1) begin : g_word
      logic [W-1:0]         x;
      logic signed [TW-1:0] sum;
      logic signed [TW-1:0] t;
      logic [XW-1:0]        xt;
      logic [PW-1:0]        scaled;
      assign x      = data_in_0[j*W +: W];
      assign sum    = {{4{x[W-1]}}, x} + THREE;
      assign t      = (sum < 0) ? '0 : (sum > SIX) ? SIX : sum;
      // Two's complement products modulo 2^XW and 2^PW: exact, see above.
      assign xt     = {{(W + 4){x[W-1]}}, x} * {{W{1'b0}}, t};
      assign scaled = {{RF{xt[XW-1]}}, xt} * {{XW{1'b0}}, RECIP};
      fixed_round_sat #(.IN_WIDTH(PW), .SHIFT(FRAC_WIDTH + RF), .OUT_WIDTH(W)) u_rs (
        .data_in(scaled), .data_out(result[j*W +: W]));
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
