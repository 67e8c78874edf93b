// fixed_cast: converts a stream of fixed-point words from one format to another.
//
// Function: each word x in <IN_WIDTH, IN_FRAC_WIDTH> becomes y in
//   <OUT_WIDTH, OUT_FRAC_WIDTH> (docs/Hardware.md, "Fixed-point arithmetic"):
//     IN_FRAC_WIDTH >= OUT_FRAC_WIDTH: y = sat(rne(x / 2^(IN_FRAC_WIDTH - OUT_FRAC_WIDTH)))
//     IN_FRAC_WIDTH <  OUT_FRAC_WIDTH: y = sat(x * 2^(OUT_FRAC_WIDTH - IN_FRAC_WIDTH))
//   with rounding half to even and saturation to OUT_WIDTH bits. Widening and
//   narrowing of both the width and the fraction are allowed: x is first
//   sign-extended (and shifted left when the fraction grows), exactly, then
//   requantised by fixed_round_sat.
// Parameters: IN_WIDTH, IN_FRAC_WIDTH (input format, 0 <= IN_FRAC_WIDTH < IN_WIDTH),
//   OUT_WIDTH, OUT_FRAC_WIDTH (output format, 0 <= OUT_FRAC_WIDTH < OUT_WIDTH),
//   PARALLELISM (words per beat, the same on both sides).
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous.
//   Registered output (fixed_skid_buffer): latency 1 cycle, one beat per cycle.
module fixed_cast #(
  parameter int IN_WIDTH       = 16,
  parameter int IN_FRAC_WIDTH  = 8,
  parameter int OUT_WIDTH      = 8,
  parameter int OUT_FRAC_WIDTH = 4,
  parameter int PARALLELISM    = 1
) (
  input  logic                             clk,
  input  logic                             rst,
  input  logic [IN_WIDTH*PARALLELISM-1:0]  data_in_0,
  input  logic                             data_in_0_valid,
  output logic                             data_in_0_ready,
  output logic [OUT_WIDTH*PARALLELISM-1:0] data_out_0,
  output logic                             data_out_0_valid,
  input  logic                             data_out_0_ready
);
  localparam int IW = IN_WIDTH;
  localparam int OW = OUT_WIDTH;
  // Fraction bits gained (L) or dropped (S); one of them is 0.
  localparam int L  = (OUT_FRAC_WIDTH > IN_FRAC_WIDTH) ? OUT_FRAC_WIDTH - IN_FRAC_WIDTH : 0;
  localparam int S  = (IN_FRAC_WIDTH > OUT_FRAC_WIDTH) ? IN_FRAC_WIDTH - OUT_FRAC_WIDTH : 0;
  // x * 2^L held exactly, wider than both formats (so that EW > IW and EW > OW).
  localparam int EW = ((IW + L > OW) ? IW + L : OW) + 1;

  generate
    if (IW < 1 || IN_FRAC_WIDTH < 0 || IN_FRAC_WIDTH >= IW || OW < 1 ||
        OUT_FRAC_WIDTH < 0 || OUT_FRAC_WIDTH >= OW || PARALLELISM < 1) begin : g_bad_params
      initial $display("ERROR: fixed_cast: need 0 <= IN_FRAC_WIDTH < IN_WIDTH, 0 <= OUT_FRAC_WIDTH < OUT_WIDTH, PARALLELISM >= 1");
    end
  endgenerate

  logic [OW*PARALLELISM-1:0] result;

  genvar j;
  generate
    for (j = 0; j < PARALLELISM; j = j + 1) begin : g_word
      logic [IW-1:0] x;
      logic [EW-1:0] wide;
      assign x    = data_in_0[j*IW +: IW];
      assign wide = {{(EW - IW){x[IW-1]}}, x} << L;
      fixed_round_sat #(.IN_WIDTH(EW), .SHIFT(S), .OUT_WIDTH(OW)) u_rs (
        .data_in(wide), .data_out(result[j*OW +: OW]));
    end
  endgenerate

  fixed_skid_buffer #(
    .DATA_WIDTH(OUT_WIDTH), .FRAC_WIDTH(OUT_FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_out (
    .clk(clk), .rst(rst),
    .data_in_0(result), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid), .data_out_0_ready(data_out_0_ready)
  );
endmodule
