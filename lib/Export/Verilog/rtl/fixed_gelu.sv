// fixed_gelu: elementwise GELU in the exact erf form, x * Phi(x), on a stream of
// fixed-point words.
//
// Function: each word x in <DATA_WIDTH, FRAC_WIDTH> (W, F) becomes, in the same
//   format, with T the table of Phi below (16 fraction bits, step 1/16):
//     a    = |x|                                W bits, unsigned (|MIN| fits)
//     u    = a << (16 - F)                      |x| with 16 fraction bits
//     idx  = u >> 12, fr = u & 4095             segment, 12-bit weight
//     phi  = idx >= 64 ? 65536                  Phi(|x|), 16 fraction bits
//          : T[idx] + floor((T[idx+1] - T[idx]) * fr / 2^12)
//     phis = x < 0 ? 65536 - phi : phi          Phi(x) = 1 - Phi(-x)
//     y    = sat_W(rne(x * phis, 16))           requant_W(x * phis, 16)
//   T[k] = round(Phi(k/16) * 2^16), k = 0..64, Phi(z) = (1 + erf(z/sqrt(2)))/2,
//   is increasing (differences 0..1633 < 2^11), T[64] = 65534 < 2^16, so
//   0 <= phi <= 65536 and 0 <= phis <= 65536 (17 bits). The product is exact:
//   |x * phis| <= 2^(W-1) * 2^16 fits W + 17 signed bits. Since phis <= 2^16,
//   |y| <= |x|: the result never saturates.
// Parameters: DATA_WIDTH, FRAC_WIDTH (0 <= F < W, F <= 16, checked),
//   PARALLELISM (words per beat).
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous.
//   Registered output (fixed_skid_buffer): latency 1 cycle, one beat per cycle;
//   with no stalls, the beat taken at the edge ending cycle k is on data_out_0
//   in cycle k + 1, so a tensor of N words takes N/PARALLELISM cycles + 1.
// Resources: per word two table look-ups (combinational, 65 x 16 constant
//   bits, no memory) and two multipliers: (T[idx+1] - T[idx]) x fr (11 x 12
//   bits) and x x phis (W x 17 bits).
module fixed_gelu #(
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
  localparam int W  = DATA_WIDTH;
  localparam int SH = 16 - FRAC_WIDTH;       // u = a << SH
  localparam int UW = (W + SH > 18) ? W + SH : 18;  // u, at least idx and fr
  localparam int PW = W + 17;                // x * phis

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH > 16 || FRAC_WIDTH >= W) begin : g_bad_params
      initial $display("ERROR: fixed_gelu: need 0 <= FRAC_WIDTH <= 16, FRAC_WIDTH < DATA_WIDTH");
    end
  endgenerate

  // T[k] = round(Phi(k/16) * 2^16) = round((1 + erf(k / (16 * sqrt(2)))) * 2^15),
  // k = 0..64 (Python: round(0.5 * (1 + math.erf(k / 16 / math.sqrt(2))) * 65536)).
  function automatic logic [15:0] phi_table(input logic [6:0] k);
    case (k)
      7'd0:  phi_table = 16'd32768;  7'd1:  phi_table = 16'd34401;  7'd2:  phi_table = 16'd36028;
      7'd3:  phi_table = 16'd37642;  7'd4:  phi_table = 16'd39237;  7'd5:  phi_table = 16'd40807;
      7'd6:  phi_table = 16'd42347;  7'd7:  phi_table = 16'd43852;  7'd8:  phi_table = 16'd45316;
      7'd9:  phi_table = 16'd46735;  7'd10: phi_table = 16'd48104;  7'd11: phi_table = 16'd49422;
      7'd12: phi_table = 16'd50684;  7'd13: phi_table = 16'd51888;  7'd14: phi_table = 16'd53033;
      7'd15: phi_table = 16'd54116;  7'd16: phi_table = 16'd55138;  7'd17: phi_table = 16'd56099;
      7'd18: phi_table = 16'd56997;  7'd19: phi_table = 16'd57835;  7'd20: phi_table = 16'd58612;
      7'd21: phi_table = 16'd59331;  7'd22: phi_table = 16'd59994;  7'd23: phi_table = 16'd60602;
      7'd24: phi_table = 16'd61158;  7'd25: phi_table = 16'd61664;  7'd26: phi_table = 16'd62123;
      7'd27: phi_table = 16'd62537;  7'd28: phi_table = 16'd62911;  7'd29: phi_table = 16'd63245;
      7'd30: phi_table = 16'd63544;  7'd31: phi_table = 16'd63810;  7'd32: phi_table = 16'd64045;
      7'd33: phi_table = 16'd64253;  7'd34: phi_table = 16'd64435;  7'd35: phi_table = 16'd64595;
      7'd36: phi_table = 16'd64735;  7'd37: phi_table = 16'd64856;  7'd38: phi_table = 16'd64961;
      7'd39: phi_table = 16'd65051;  7'd40: phi_table = 16'd65129;  7'd41: phi_table = 16'd65195;
      7'd42: phi_table = 16'd65252;  7'd43: phi_table = 16'd65300;  7'd44: phi_table = 16'd65341;
      7'd45: phi_table = 16'd65375;  7'd46: phi_table = 16'd65404;  7'd47: phi_table = 16'd65428;
      7'd48: phi_table = 16'd65448;  7'd49: phi_table = 16'd65464;  7'd50: phi_table = 16'd65478;
      7'd51: phi_table = 16'd65489;  7'd52: phi_table = 16'd65498;  7'd53: phi_table = 16'd65506;
      7'd54: phi_table = 16'd65512;  7'd55: phi_table = 16'd65517;  7'd56: phi_table = 16'd65521;
      7'd57: phi_table = 16'd65524;  7'd58: phi_table = 16'd65527;  7'd59: phi_table = 16'd65529;
      7'd60: phi_table = 16'd65530;  7'd61: phi_table = 16'd65531;  7'd62: phi_table = 16'd65533;
      7'd63: phi_table = 16'd65533;  7'd64: phi_table = 16'd65534;
      default: phi_table = 16'd65535;          // unused (k <= 64)
    endcase
  endfunction

  logic [W*PARALLELISM-1:0] result;

  genvar j;
  generate
    for (j = 0; j < PARALLELISM; j = j + 1) begin : g_word
      logic [W-1:0]  x;
      logic [W-1:0]  a;
      logic [UW-1:0] u;
      logic          big;
      logic [5:0]    idx;
      logic [11:0]   fr;
      logic [15:0]   t0;
      logic [15:0]   t1;
      logic [10:0]   d;
      logic [10:0]   step;
      logic [16:0]   phi;
      logic [16:0]   phis;
      logic [PW-1:0] prod;
      assign x    = data_in_0[j*W +: W];
      assign a    = x[W-1] ? -x : x;
      assign u    = UW'(a) << SH;
      if (UW > 18) begin : g_big
        assign big = |u[UW-1:18];
      end else begin : g_nobig
        assign big = 1'b0;
      end
      assign idx  = u[17:12];
      assign fr   = u[11:0];
      assign t0   = phi_table({1'b0, idx});
      assign t1   = phi_table({1'b0, idx} + 7'd1);
      // 0 <= t1 - t0 < 2^11 (T increasing), t0 + floor(d * fr / 2^12) <= t1.
      assign d    = 11'(t1 - t0);
      assign step = 11'(({12'd0, d} * {11'd0, fr}) >> 12);
      assign phi  = big ? 17'h10000 : {1'b0, t0} + {6'd0, step};
      assign phis = x[W-1] ? 17'h10000 - phi : phi;
      // Two's complement product modulo 2^PW: exact, see above.
      assign prod = {{17{x[W-1]}}, x} * {{W{1'b0}}, phis};
      fixed_round_sat #(.IN_WIDTH(PW), .SHIFT(16), .OUT_WIDTH(W)) u_rs (
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
