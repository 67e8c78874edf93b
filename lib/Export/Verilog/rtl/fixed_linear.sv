// fixed_linear: y = W x + b (torch.nn.Linear) on a stream of fixed-point vectors.
//
// Function: for every input vector x of IN_FEATURES words (arriving as
//   IN_FEATURES/PARALLELISM beats, element 0 first), emits the vector y of
//   OUT_FEATURES words (OUT_FEATURES/PARALLELISM beats, element 0 first) with
//     acc_o = (b_o << FRAC_WIDTH) + sum_i w_{o,i} * x_i     (exact, ACC_WIDTH bits)
//     y_o   = sat(rne(acc_o / 2^FRAC_WIDTH))                (docs/Hardware.md)
//   x, w, b and y are all <DATA_WIDTH, FRAC_WIDTH>. Vectors follow each other
//   back to back (a batch is a sequence of vectors).
// Weights and bias: ROMs loaded with $readmemh from WEIGHTS_FILE
//   (OUT_FEATURES*IN_FEATURES lines, row-major like torch: line o*IN_FEATURES+i
//   holds w_{o,i}) and BIAS_FILE (OUT_FEATURES lines); one two's-complement
//   word of DATA_WIDTH bits per line, in hex.
// Parameters: DATA_WIDTH, FRAC_WIDTH, IN_FEATURES, OUT_FEATURES,
//   PARALLELISM (words per beat on both streams; divides IN_FEATURES and
//   OUT_FEATURES), WEIGHTS_FILE, BIAS_FILE.
// Implementation: load the whole vector (ready high), then one multiply-accumulate
//   per cycle, then hold each output beat until it is taken. Not pipelined.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Latency per vector: IN_FEATURES/PARALLELISM input beats, then
//   OUT_FEATURES*IN_FEATURES MAC cycles interleaved with OUT_FEATURES/PARALLELISM
//   output beats (each beat at least one cycle).
module fixed_linear #(
  parameter int DATA_WIDTH   = 8,
  parameter int FRAC_WIDTH   = 4,
  parameter int IN_FEATURES  = 4,
  parameter int OUT_FEATURES = 4,
  parameter int PARALLELISM  = 1,
  parameter     WEIGHTS_FILE = "",
  parameter     BIAS_FILE    = ""
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
  localparam int W   = DATA_WIDTH;
  localparam int F   = FRAC_WIDTH;
  localparam int P   = PARALLELISM;
  localparam int N   = IN_FEATURES;
  localparam int M   = OUT_FEATURES;
  localparam int IB  = N / P;                 // input beats per vector
  localparam int OB  = M / P;                 // output beats per vector
  localparam int ACC = 2 * W + $clog2(N + 1); // accumulator width, see docs
  localparam int XW  = N * W;
  localparam int OW  = P * W;
  localparam int NA  = (N > 1) ? $clog2(N) : 1;
  localparam int WA  = (M * N > 1) ? $clog2(M * N) : 1;
  localparam int BA  = (M > 1) ? $clog2(M) : 1;
  localparam int IBA = $clog2(IB + 1);
  localparam int OBA = $clog2(OB + 1);
  localparam int PA  = $clog2(P + 1);

  generate
    if (F < 0 || F >= W || P < 1 || N < 1 || M < 1 || N % P != 0 || M % P != 0) begin : g_bad_params
      initial $display("ERROR: fixed_linear: bad parameters (need 0 <= FRAC_WIDTH < DATA_WIDTH, features >= 1, PARALLELISM dividing both)");
    end
  endgenerate

  localparam logic [1:0] S_LOAD = 2'd0;
  localparam logic [1:0] S_MAC  = 2'd1;
  localparam logic [1:0] S_EMIT = 2'd2;

  logic [W-1:0] wrom [0:M*N-1];
  logic [W-1:0] brom [0:M-1];
  // Without files (a tool elaborating the defaults, as yosys's read_verilog
  // does) the ROMs stay unloaded; every instance mav exports names both.
  initial if (WEIGHTS_FILE != "") $readmemh(WEIGHTS_FILE, wrom);
  initial if (BIAS_FILE != "") $readmemh(BIAS_FILE, brom);

  logic [1:0]     state;
  logic [XW-1:0]  xv;      // the input vector; word 0 in the low bits, rotated during MAC
  logic [OW-1:0]  obuf;    // the output beat being assembled / emitted
  logic [ACC-1:0] acc;
  logic [IBA-1:0] in_beat;
  logic [NA-1:0]  i;
  logic [WA-1:0]  waddr;
  logic [BA-1:0]  bidx;
  logic [PA-1:0]  pcnt;
  logic [OBA-1:0] out_beat;

  // Combinational MAC datapath.
  logic [W-1:0]   w_word;
  logic [W-1:0]   x_word;
  logic [2*W-1:0] prod;
  logic [ACC-1:0] acc_next;
  logic [W-1:0]   y_word;
  logic [BA-1:0]  bidx_next;
  logic [W-1:0]   b_next;
  logic [ACC-1:0] acc_bias;

  assign w_word    = wrom[waddr];
  assign x_word    = xv[W-1:0];
  assign prod      = {{W{w_word[W-1]}}, w_word} * {{W{x_word[W-1]}}, x_word};
  assign acc_next  = acc + {{(ACC - 2 * W){prod[2*W-1]}}, prod};
  assign bidx_next = (bidx == BA'(M - 1)) ? '0 : bidx + 1'b1;
  assign b_next    = brom[(state == S_LOAD) ? bidx : bidx_next];
  assign acc_bias  = {{(ACC - W){b_next[W-1]}}, b_next} << F;

  fixed_round_sat #(.IN_WIDTH(ACC), .SHIFT(F), .OUT_WIDTH(W)) u_rs (
    .data_in(acc_next), .data_out(y_word));

  assign data_in_0_ready  = (state == S_LOAD);
  assign data_out_0_valid = (state == S_EMIT);
  assign data_out_0       = obuf;

  always_ff @(posedge clk) begin
    if (rst) begin
      state    <= S_LOAD;
      in_beat  <= '0;
      i        <= '0;
      waddr    <= '0;
      bidx     <= '0;
      pcnt     <= '0;
      out_beat <= '0;
    end else begin
      case (state)
        S_LOAD: if (data_in_0_valid) begin
          xv <= (xv >> OW) | (XW'(data_in_0) << (XW - OW));
          if (in_beat == IBA'(IB - 1)) begin
            in_beat <= '0;
            state   <= S_MAC;
            acc     <= acc_bias;      // bias of output bidx
          end else begin
            in_beat <= in_beat + 1'b1;
          end
        end
        S_MAC: begin
          xv    <= (xv >> W) | (XW'(x_word) << (XW - W));
          waddr <= (waddr == WA'(M * N - 1)) ? '0 : waddr + 1'b1;
          if (i == NA'(N - 1)) begin
            i    <= '0;
            obuf <= (obuf >> W) | (OW'(y_word) << (OW - W));
            bidx <= bidx_next;
            acc  <= acc_bias;         // bias of output bidx_next
            if (pcnt == PA'(P - 1)) begin
              pcnt  <= '0;
              state <= S_EMIT;
            end else begin
              pcnt <= pcnt + 1'b1;
            end
          end else begin
            i   <= i + 1'b1;
            acc <= acc_next;
          end
        end
        S_EMIT: if (data_out_0_ready) begin
          if (out_beat == OBA'(OB - 1)) begin
            out_beat <= '0;
            state    <= S_LOAD;
          end else begin
            out_beat <= out_beat + 1'b1;
            state    <= S_MAC;
          end
        end
        default: state <= S_LOAD;
      endcase
    end
  end
endmodule
