// fixed_layernorm: LayerNorm over the last dimension with an affine output
// (torch.nn.LayerNorm(D, elementwise_affine=True)) on a stream of rows.
//
// Function: every item is one row x[0..D-1] of D = LENGTH words (element 0
//   first); x, gamma, beta and y are all <DATA_WIDTH, FRAC_WIDTH>. With exact
//   integers:
//     S    = sum_i x[i]
//     c[i] = D * x[i] - S                       (D (x - mean), F fraction bits)
//     Q    = sum_i c[i]^2
//     V    = floor(Q / D) + EPS_TERM            (~ D^2 (var + eps) 2^(2F))
//     s    = isqrt(V << 16)                     (floor square root, ~ sqrt(V) 2^8)
//     K    = F + clog2(D) + 16
//     r    = (s == 0) ? 0 : floor(2^(K + 8) / s)
//     n[i] = rne(c[i] * r / 2^(K - F - 4))      ((x - mean) / sigma, F + 4 frac bits)
//     y[i] = sat_W(rne((n[i] * gamma[i] + (beta[i] << (F + 4))) / 2^(F + 4)))
//   (rne: round half to even; sat_W: clamp to the words; docs/Hardware.md).
//   Q is a multiple of D (Q = D^2 sum x^2 - D S^2), so the circuit computes
//   V = D * A - S^2 + EPS_TERM with A = sum_i x[i]^2, which is the same
//   integer; it needs no division by D and no pass over the row.
// Gamma and beta: ROMs loaded with $readmemh from WEIGHTS_FILE (gamma, D
//   lines) and BIAS_FILE (beta, D lines); one two's-complement word of
//   DATA_WIDTH bits per line, in hex.
// Parameters: DATA_WIDTH (W), FRAC_WIDTH (F), LENGTH (D >= 1), EPS_TERM
//   (>= 0, 64 bits: the compiler passes round(eps * D^2 * 2^(2F)); a value
//   of 2^31 or more needs a sized literal, 64'd...), WEIGHTS_FILE, BIAS_FILE.
//   One word per beat (no PARALLELISM).
// Widths (KD = clog2(D)): S W+KD (signed); A 2W-1+KD; the squarer
//   (W+KD)x(W+KD) -> 2W+2KD; V VW = max(2W+2KD-2, clog2(EPS_TERM+1)) + 1
//   (D^2 var < 2^(2W+2KD-2)); the root s NS = ceil((VW+16)/2) bits; r K+1
//   bits (s >= 256 when s != 0, so r <= 2^K); c W+KD+1 (signed); c * r
//   PW = W+F+2KD+18 bits (signed, the exact product); n NW = PW-(KD+12)+1
//   = W+F+KD+7 bits (the exact rounded quotient: never saturates);
//   n * gamma + beta NW+W+1 bits (exact), requantised by fixed_round_sat.
// Implementation: load the row into a buffer (ready high, one word per
//   cycle) while accumulating S and A (the squarer squares each word);
//   one cycle computes V (the squarer squares S); NS cycles of a restoring
//   square root (one bit of s per cycle); K+1 cycles of a restoring division
//   (one bit of r per cycle); then a two-stage emit pipeline: stage 1 forms
//   c[i] and n[i] (multiplier c x r), stage 2 y[i] (multiplier n x gamma)
//   into the output register, which holds while stalled. Not pipelined
//   across rows: the next row is taken after the last output beat.
//   Memory: the row, D x W bits; gamma and beta ROMs, 2 x D x W bits.
//   Multipliers: the squarer (W+KD)x(W+KD), c x r (W+KD+1)x(K+1) signed by
//   unsigned, n x gamma NW x W; D * x and D * A are by the constant D.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high): buffered with
//   L = D load beats, E = D output beats and
//     C = NS + (K + 1) + 3,  NS = ceil((VW + 16) / 2),  K = F + clog2(D) + 16,
//     VW = max(2W + 2 clog2(D) - 2, clog2(EPS_TERM + 1)) + 1
//   (1 cycle for V, NS root cycles, K+1 division cycles, 2 pipeline fills):
//   the first output beat moves C + 1 edges after the edge of the last load
//   beat, and T = D + C + D cycles per row (first input beat to last output
//   beat inclusive; N rows: N * T). E.g. W 16, F 10, D 64, EPS_TERM 42950:
//   VW 43, NS 30, K 32, C 66, T 194. A stalled output beat adds its stall
//   cycles.
module fixed_layernorm #(
  parameter int     DATA_WIDTH   = 8,
  parameter int     FRAC_WIDTH   = 4,
  parameter int     LENGTH       = 4,
  parameter longint EPS_TERM     = 0,
  parameter         WEIGHTS_FILE = "",
  parameter         BIAS_FILE    = ""
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [DATA_WIDTH-1:0] data_in_0,
  input  logic                  data_in_0_valid,
  output logic                  data_in_0_ready,
  output logic [DATA_WIDTH-1:0] data_out_0,
  output logic                  data_out_0_valid,
  input  logic                  data_out_0_ready
);
  localparam int W   = DATA_WIDTH;
  localparam int F   = FRAC_WIDTH;
  localparam int D   = LENGTH;
  localparam int KD  = $clog2(D);
  localparam int K   = F + KD + 16;
  localparam int SW  = W + KD;                      // S, squarer input
  localparam int AW  = 2 * W - 1 + KD;              // A = sum x^2
  localparam int MW  = 2 * SW;                      // squarer output, D * A, S^2
  localparam int EW  = $clog2(EPS_TERM + 64'sd1);   // bits of EPS_TERM
  localparam int VW  = ((MW - 2 > EW) ? MW - 2 : EW) + 1;
  localparam int TW  = ((MW > VW) ? MW : VW) + 1;   // where V is computed
  localparam int NS  = (VW + 17) / 2;               // bits of s = root steps
  localparam int RE  = 2 * NS;                      // radicand V << 16 (even width)
  localparam int ND  = K + 1;                       // bits of r = division steps
  localparam int CW  = W + KD + 1;                  // c
  localparam int PW  = CW + ND;                     // c * r
  localparam int NSH = K - F - 4;                   // = KD + 12
  localparam int NW  = PW - NSH + 1;                // n
  localparam int YW  = NW + W + 1;                  // n * gamma + (beta << (F + 4))
  localparam int XA  = (D > 1) ? $clog2(D) : 1;     // row address
  localparam int MX  = (D > NS) ? ((D > ND) ? D : ND) : ((NS > ND) ? NS : ND);
  localparam int CNW = $clog2(MX + 1);              // step counter

  generate
    if (F < 0 || F >= W || D < 1 || EPS_TERM < 0) begin : g_bad_params
      initial $display({"ERROR: fixed_layernorm: need 0 <= FRAC_WIDTH < DATA_WIDTH, ",
                        "LENGTH >= 1, EPS_TERM >= 0"});
    end
  endgenerate

  localparam logic [2:0] S_LOAD = 3'd0;
  localparam logic [2:0] S_VAR  = 3'd1;
  localparam logic [2:0] S_SQRT = 3'd2;
  localparam logic [2:0] S_DIV  = 3'd3;
  localparam logic [2:0] S_EMIT = 3'd4;

  logic [W-1:0] grom [0:D-1];
  logic [W-1:0] brom [0:D-1];
  // Without files (a tool elaborating the defaults, as yosys's read_verilog
  // does) the ROMs stay unloaded; every instance mav exports names both.
  initial if (WEIGHTS_FILE != "") $readmemh(WEIGHTS_FILE, grom);
  initial if (BIAS_FILE != "") $readmemh(BIAS_FILE, brom);

  logic [W-1:0]    xmem [0:D-1];  // the row
  logic [2:0]      state;
  logic [CNW-1:0]  cnt;           // load beat, root or division step
  logic [XA-1:0]   idx;           // emit stage 1: next element
  logic            feed;          // emit stage 1: elements left
  logic [XA-1:0]   n_idx;         // emit stage 2: its element
  logic            n_v;
  logic signed [NW-1:0] n_q;
  logic [W-1:0]    obuf;          // the output beat
  logic            out_v;
  logic [XA-1:0]   ocnt;          // output beats moved
  logic signed [SW-1:0] s_acc;    // S
  logic [AW-1:0]   a_acc;         // A
  logic [RE-1:0]   rad;           // radicand, consumed two bits per root step
  logic [NS:0]     srem;          // root remainder (<= 2 s)
  logic [NS-1:0]   root;          // s
  logic [NS-1:0]   drem;          // division remainder (< s)
  logic [ND-2:0]   quo;           // r but its last bit, built one bit per step
  logic [ND-1:0]   r_q;           // r

  logic in_fire;
  logic out_fire;
  logic adv;  // the emit pipeline moves
  assign in_fire  = (state == S_LOAD) && data_in_0_valid;
  assign out_fire = out_v && data_out_0_ready;
  assign adv      = !out_v || data_out_0_ready;

  assign data_in_0_ready  = (state == S_LOAD);
  assign data_out_0_valid = out_v;
  assign data_out_0       = obuf;

  // The squarer: each input word while loading, S in S_VAR.
  logic signed [W-1:0]  x_in;
  logic signed [SW-1:0] sq_in;
  logic        [MW-1:0] sq;
  assign x_in  = data_in_0;
  assign sq_in = (state == S_LOAD) ? SW'(x_in) : s_acc;
  assign sq    = MW'(sq_in) * MW'(sq_in);

  // V = D * A - S^2 + EPS_TERM (D * A >= S^2), computed at TW bits.
  logic [VW-1:0] v_word;
  assign v_word = VW'(TW'(D) * TW'(a_acc) - TW'(sq) + TW'(EPS_TERM));

  // One restoring square-root step.
  logic [NS+2:0] sq_rem;
  logic [NS+2:0] sq_trial;
  logic          sq_ge;
  assign sq_rem   = {srem, rad[RE-1:RE-2]};
  assign sq_trial = {1'b0, root, 2'b01};
  assign sq_ge    = (sq_rem >= sq_trial);

  // One restoring division step of 2^(K+8) / s.
  logic [NS:0] dv_rem;
  logic        dv_ge;
  assign dv_rem = {drem, 1'b0};
  assign dv_ge  = (dv_rem >= {1'b0, root});

  // Emit stage 1: c = D x - S, n = rne(c r / 2^(K-F-4)) (exact, no saturation).
  logic signed [W-1:0]  x_word;
  logic signed [CW-1:0] c_word;
  logic signed [PW-1:0] p_word;
  logic [NW-1:0]        n_word;
  assign x_word = xmem[idx];
  assign c_word = CW'(D) * CW'(x_word) - CW'(s_acc);
  assign p_word = PW'(c_word) * $signed(PW'(r_q));
  fixed_round_sat #(.IN_WIDTH(PW), .SHIFT(NSH), .OUT_WIDTH(NW)) u_n (
    .data_in(p_word), .data_out(n_word));

  // Emit stage 2: y = requant(n gamma + (beta << (F + 4)), F + 4, W).
  logic signed [W-1:0]  g_word;
  logic signed [W-1:0]  b_word;
  logic signed [YW-1:0] y_acc;
  logic [W-1:0]         y_word;
  assign g_word = grom[n_idx];
  assign b_word = brom[n_idx];
  assign y_acc  = YW'(n_q) * YW'(g_word) + (YW'(b_word) <<< (F + 4));
  fixed_round_sat #(.IN_WIDTH(YW), .SHIFT(F + 4), .OUT_WIDTH(W)) u_y (
    .data_in(y_acc), .data_out(y_word));

  always_ff @(posedge clk) begin
    if (in_fire) xmem[XA'(cnt)] <= data_in_0;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_LOAD;
      cnt   <= '0;
      out_v <= 1'b0;
      n_v   <= 1'b0;
      feed  <= 1'b0;
      idx   <= '0;
      ocnt  <= '0;
    end else begin
      case (state)
        S_LOAD: if (data_in_0_valid) begin
          s_acc <= ((cnt == '0) ? '0 : s_acc) + SW'(x_in);
          a_acc <= ((cnt == '0) ? '0 : a_acc) + sq[AW-1:0];
          if (cnt == CNW'(D - 1)) begin
            cnt   <= '0;
            state <= S_VAR;
          end else begin
            cnt <= cnt + 1'b1;
          end
        end
        S_VAR: begin
          rad   <= RE'({v_word, 16'd0});
          srem  <= '0;
          root  <= '0;
          state <= S_SQRT;
        end
        S_SQRT: begin
          rad  <= rad << 2;
          srem <= sq_ge ? (NS + 1)'(sq_rem - sq_trial) : sq_rem[NS:0];
          root <= {root[NS-2:0], sq_ge};
          if (cnt == CNW'(NS - 1)) begin
            cnt   <= '0;
            drem  <= NS'(128);  // the numerator's bits above bit K: 2^7 < 256 <= s
            state <= S_DIV;
          end else begin
            cnt <= cnt + 1'b1;
          end
        end
        S_DIV: begin
          drem <= dv_ge ? NS'(dv_rem - {1'b0, root}) : dv_rem[NS-1:0];
          quo  <= {quo[ND-3:0], dv_ge};
          if (cnt == CNW'(ND - 1)) begin
            cnt   <= '0;
            // s == 0 only when V == 0 (else s >= 256): then r = 0.
            r_q   <= (root == '0) ? '0 : {quo, dv_ge};
            feed  <= 1'b1;
            idx   <= '0;
            ocnt  <= '0;
            state <= S_EMIT;
          end else begin
            cnt <= cnt + 1'b1;
          end
        end
        S_EMIT: begin
          if (adv) begin
            out_v <= n_v;
            n_v   <= feed;
            if (feed) begin
              if (idx == XA'(D - 1)) begin
                feed <= 1'b0;
                idx  <= '0;
              end else begin
                idx <= idx + 1'b1;
              end
            end
          end
          if (out_fire) begin
            if (ocnt == XA'(D - 1)) begin
              ocnt  <= '0;
              state <= S_LOAD;
            end else begin
              ocnt <= ocnt + 1'b1;
            end
          end
        end
        default: state <= S_LOAD;
      endcase
    end
  end

  // Emit pipeline data (no reset needed: the valid bits above guard it).
  always_ff @(posedge clk) begin
    if (state == S_EMIT && adv) begin
      obuf  <= y_word;
      n_q   <= n_word;
      n_idx <= idx;
    end
  end
endmodule
