// fixed_round_sat: combinational requantisation (docs/Hardware.md,
// "Fixed-point arithmetic").
//
// Function: data_out = saturate(round_half_even(data_in / 2^SHIFT)) where
//   data_in  is a two's-complement integer of IN_WIDTH bits,
//   rounding is to nearest, ties to even,
//   saturation clamps to [-2^(OUT_WIDTH-1), 2^(OUT_WIDTH-1)-1].
// Parameters:
//   IN_WIDTH  width of data_in (IN_WIDTH >= OUT_WIDTH)
//   SHIFT     number of fraction bits dropped (0 <= SHIFT < IN_WIDTH)
//   OUT_WIDTH width of data_out
// Protocol: none (pure combinational helper used by the other components).
module fixed_round_sat #(
  parameter int IN_WIDTH  = 16,
  parameter int SHIFT     = 4,
  parameter int OUT_WIDTH = 8
) (
  input  logic [IN_WIDTH-1:0]  data_in,
  output logic [OUT_WIDTH-1:0] data_out
);
  localparam int EW = IN_WIDTH + 1;
  // The constants are computed at EW bits, so any IN_WIDTH works (not only
  // up to 64 bits).
  localparam logic signed [EW-1:0] ONE  = EW'(1);
  localparam logic signed [EW-1:0] MAXV = (ONE <<< (OUT_WIDTH - 1)) - ONE;
  localparam logic signed [EW-1:0] MINV = -(ONE <<< (OUT_WIDTH - 1));

  generate
    if (IN_WIDTH < OUT_WIDTH || SHIFT < 0 || SHIFT >= IN_WIDTH) begin : g_bad_params
      initial $display("ERROR: fixed_round_sat: need IN_WIDTH >= OUT_WIDTH and 0 <= SHIFT < IN_WIDTH");
    end
  endgenerate

  logic signed [EW-1:0] ext;
  logic signed [EW-1:0] shifted;
  assign ext = {data_in[IN_WIDTH-1], data_in};

  generate
    if (SHIFT == 0) begin : g_noshift
      assign shifted = ext;
    end else begin : g_shift
      // floor((x + 2^(SHIFT-1) - 1 + lsb) / 2^SHIFT), lsb = bit 0 of floor(x / 2^SHIFT),
      // is round half to even of x / 2^SHIFT.
      localparam logic [EW-1:0] HALF_M1 = (ONE <<< (SHIFT - 1)) - ONE;
      logic signed [EW-1:0] biased;
      assign biased  = ext + HALF_M1 + {{(EW - 1){1'b0}}, ext[SHIFT]};
      assign shifted = biased >>> SHIFT;
    end
  endgenerate

  assign data_out = (shifted > MAXV) ? MAXV[OUT_WIDTH-1:0] :
                    (shifted < MINV) ? MINV[OUT_WIDTH-1:0] :
                    shifted[OUT_WIDTH-1:0];
endmodule
