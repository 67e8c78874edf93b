// fixed_softmax: softmax along the last dimension (torch.softmax(x, -1)) on a
// stream of fixed-point rows.
//
// Function: for every row x[0..N-1] of N = LENGTH words (one word per beat,
//   element 0 first), emits the row y[0..N-1] with, in integers (all shifts
//   floor, >>> arithmetic):
//     m    = max_i x[i]
//     d    = x[i] - m                                   (<= 0)
//     t    = d * 94548        (94548 = round(log2(e) * 2^16); F + 16 fraction bits)
//     n    = t >>> (F + 16)                             (<= 0)
//     f    = (t - (n << (F + 16))) >> F                 (bits F+15..F of t, < 2^16)
//     p    = 2^16 + ((f * (45555 + ((f * (14919 + ((f * 5050) >> 16))) >> 16))) >> 16)
//                                                       (2^(f / 2^16) in 16 fraction bits)
//     e[i] = (-n >= 32) ? 0 : p >> (-n)                 (exp(d), 16 fraction bits)
//     S    = sum_i e[i],  R = floor(2^48 / S)           (2^16 <= S <= N * 2^16, R <= 2^32)
//     y[i] = sat(rne(e[i] * R / 2^(48 - F)))           (fixed_round_sat)
//   x and y are <DATA_WIDTH, FRAC_WIDTH> (F = FRAC_WIDTH). The maximum's e is
//   exactly 2^16, so 1.0 saturates to the largest word when F = DATA_WIDTH - 1.
//   Rows follow each other back to back (a batch of rows is a sequence).
// Parameters: DATA_WIDTH, FRAC_WIDTH (0 <= FRAC_WIDTH < DATA_WIDTH,
//   FRAC_WIDTH <= 40, checked), LENGTH (N, words per row, >= 1). One word per
//   beat (no PARALLELISM).
// Implementation: load the row into the x buffer (ready high, one word per
//   cycle), tracking the maximum; then N cycles computing e[i] (one per cycle,
//   combinational: the multiply by 94548 and the three Horner multiplies) into
//   the e buffer while summing S; one cycle for R (a combinational restoring
//   divider, 33 quotient bits); one cycle for y[0] (e[0] * R, fixed_round_sat)
//   into the output register; then each y[i] is held until taken, y[i + 1]
//   being loaded as y[i] moves. Not pipelined: the next row is taken after the
//   last output beat.
//   Memory: N * DATA_WIDTH bits (x) + N * 17 bits (e).
//   Multipliers: d * 94548 ((W + 1) bits by a constant), f * 5050 (constant),
//   f * (14919 + ...) (16 x 15 bits), f * (45555 + ...) (16 x 16 bits),
//   e * R (17 x 33 bits).
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high):
//     T = L + C + E = N + (N + 2) + N = 3 * N + 2
//   L = N load beats; the first output beat moves C + 1 = N + 3 edges after
//   the edge of the last load beat (N exp cycles, the divide cycle, the y[0]
//   cycle, then the beat); E = N output beats on consecutive edges. A row
//   whose first input beat moves on clock edge t0 has its last output beat
//   move on edge t0 + T - 1, and the next row's first beat can move on edge
//   t0 + T: the initiation interval is also T. A stalled output beat adds its
//   stall cycles.
module fixed_softmax #(
  parameter int DATA_WIDTH = 8,
  parameter int FRAC_WIDTH = 4,
  parameter int LENGTH     = 8
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
  localparam int W  = DATA_WIDTH;
  localparam int F  = FRAC_WIDTH;
  localparam int N  = LENGTH;
  localparam int TW = W + 18;                // t: d has W + 1 bits, 94548 < 2^17
  localparam int NW = TW - F - 16;           // n = t >>> (F + 16)
  localparam int KW = (NW + 1 > 6) ? NW + 1 : 6;  // -n, wide enough to compare with 32
  localparam int EW = 17;                    // e in [0, 2^16]
  localparam int SW = EW + $clog2(N);        // S <= N * 2^16
  localparam int RW = 33;                    // R <= 2^32
  localparam int PW = (W > 50) ? W : 50;     // e * R <= 2^48, signed for fixed_round_sat
  localparam int XA = (N > 1) ? $clog2(N) : 1;
  localparam int CW = $clog2(N + 1);         // idx in 0..N
  localparam logic signed [TW-1:0] LOG2E = TW'(94548);
  // Restoring division of 2^48 by S >= 2^16: the quotient bits above bit 32
  // are 0 and the partial remainder before bit 32 is 2^48 >> 33 = 2^15.
  localparam logic [SW:0] REM0 = (SW + 1)'(1 << 15);

  generate
    if (F < 0 || F >= W || F > 40 || N < 1) begin : g_bad_params
      initial $display("ERROR: fixed_softmax: need 0 <= FRAC_WIDTH < DATA_WIDTH, ",
                       "FRAC_WIDTH <= 40, LENGTH >= 1");
    end
  endgenerate

  localparam logic [2:0] S_LOAD = 3'd0;  // take the row, track the maximum
  localparam logic [2:0] S_EXP  = 3'd1;  // e[idx] into the e buffer, S
  localparam logic [2:0] S_DIV  = 3'd2;  // R = 2^48 / S
  localparam logic [2:0] S_Y0   = 3'd3;  // y[0] into the output register
  localparam logic [2:0] S_EMIT = 3'd4;  // y[idx - 1] held until taken

  function automatic logic [RW-1:0] recip(input logic [SW-1:0] s);
    logic [SW:0]   rem;
    logic [RW-1:0] q;
    rem = REM0;
    for (int i = RW - 1; i >= 0; i--) begin
      rem = rem << 1;
      if (rem >= {1'b0, s}) begin
        rem  = rem - {1'b0, s};
        q[i] = 1'b1;
      end else begin
        q[i] = 1'b0;
      end
    end
    recip = q;
  endfunction

  logic [2:0]    state;
  logic [CW-1:0] idx;      // word loaded, e computed, or next y to emit
  logic [XA-1:0] addr;
  logic [W-1:0]  xmem [0:N-1];   // the row
  logic [EW-1:0] emem [0:N-1];   // e[i]
  logic [W-1:0]  xmax;
  logic [SW-1:0] sum_q;
  logic [RW-1:0] recip_q;
  logic [W-1:0]  obuf;

  assign addr = (idx == CW'(N)) ? '0 : XA'(idx);

  // e[addr] = exp(x[addr] - m) in 16 fraction bits.
  logic [W-1:0]         xr;
  logic signed [W:0]    d;
  logic signed [TW-1:0] dx;
  logic [TW-F-1:0]      tf;      // t >>> F: n and f
  logic [NW-1:0]        n;
  logic [KW-1:0]        negn;
  logic [15:0]          f;
  logic [12:0]          h1;      // (f * 5050) >> 16
  logic [15:0]          a1;
  logic [15:0]          h2;
  logic [15:0]          a2;
  logic [15:0]          h3;
  logic [EW-1:0]        p;
  logic [EW-1:0]        e;
  assign xr   = xmem[addr];
  assign d    = $signed({xr[W-1], xr}) - $signed({xmax[W-1], xmax});
  assign dx   = {{(TW - W - 1){d[W]}}, d};
  assign tf   = (TW - F)'((dx * LOG2E) >>> F);
  assign n    = tf[TW-F-1:16];
  assign negn = KW'(0) - {{(KW - NW){n[NW-1]}}, n};
  assign f    = tf[15:0];
  assign h1   = 13'(({13'd0, f} * 29'd5050) >> 16);
  assign a1   = 16'd14919 + {3'd0, h1};
  assign h2   = 16'(({16'd0, f} * {16'd0, a1}) >> 16);
  assign a2   = 16'd45555 + h2;
  assign h3   = 16'(({16'd0, f} * {16'd0, a2}) >> 16);
  assign p    = {1'b1, h3};
  assign e    = (negn > KW'(31)) ? '0 : (p >> negn[4:0]);

  // y[addr] = requant(e[addr] * R, 48 - F, W).
  logic [EW-1:0] er;
  logic [PW-1:0] prod;
  logic [W-1:0]  y;
  assign er   = emem[addr];
  assign prod = PW'(er) * PW'(recip_q);
  fixed_round_sat #(.IN_WIDTH(PW), .SHIFT(48 - F), .OUT_WIDTH(W)) u_rs (
    .data_in(prod), .data_out(y));

  assign data_in_0_ready  = (state == S_LOAD);
  assign data_out_0_valid = (state == S_EMIT);
  assign data_out_0       = obuf;

  always_ff @(posedge clk) begin
    if (state == S_LOAD && data_in_0_valid) xmem[addr] <= data_in_0;
    if (state == S_EXP) emem[addr] <= e;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_LOAD;
      idx   <= '0;
    end else begin
      case (state)
        S_LOAD: if (data_in_0_valid) begin
          if (idx == '0 || $signed(data_in_0) > $signed(xmax)) xmax <= data_in_0;
          if (idx == CW'(N - 1)) begin
            idx   <= '0;
            state <= S_EXP;
          end else begin
            idx <= idx + 1'b1;
          end
        end
        S_EXP: begin
          sum_q <= ((idx == '0) ? '0 : sum_q) + SW'(e);
          if (idx == CW'(N - 1)) begin
            idx   <= '0;
            state <= S_DIV;
          end else begin
            idx <= idx + 1'b1;
          end
        end
        S_DIV: begin
          recip_q <= recip(sum_q);
          state   <= S_Y0;
        end
        S_Y0: begin
          obuf  <= y;
          idx   <= CW'(1);
          state <= S_EMIT;
        end
        S_EMIT: if (data_out_0_ready) begin
          if (idx == CW'(N)) begin
            idx   <= '0;
            state <= S_LOAD;
          end else begin
            obuf <= y;
            idx  <= idx + 1'b1;
          end
        end
        default: state <= S_LOAD;
      endcase
    end
  end
endmodule
