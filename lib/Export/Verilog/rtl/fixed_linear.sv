// fixed_linear: y = W x + b (torch.nn.Linear) on a stream of fixed-point vectors.
//
// Function: for every input vector x of IN_FEATURES words (arriving as
//   IN_FEATURES/IN_PARALLELISM beats, element 0 first, word 0 in the low bits),
//   emits the vector y of OUT_FEATURES words (OUT_FEATURES/OUT_PARALLELISM
//   beats, element 0 first) with
//     acc_o = (b_o << FRAC_WIDTH) + sum_i w_{o,i} * x_i     (exact, ACC_WIDTH bits)
//     y_o   = sat(rne(acc_o / 2^FRAC_WIDTH))                (docs/Hardware.md)
//   x, w, b and y are all <DATA_WIDTH, FRAC_WIDTH>. Vectors follow each other
//   back to back (a batch is a sequence of vectors).
// Weights and bias: ROMs loaded with $readmemh from WEIGHTS_FILE
//   (OUT_FEATURES*IN_FEATURES lines, row-major like torch: line o*IN_FEATURES+i
//   holds w_{o,i}) and BIAS_FILE (OUT_FEATURES lines); one two's-complement
//   word of DATA_WIDTH bits per line, in hex. The weight ROM is one array read
//   at IN_PARALLELISM*OUT_PARALLELISM addresses per cycle.
// Parameters: DATA_WIDTH, FRAC_WIDTH, IN_FEATURES, OUT_FEATURES,
//   IN_PARALLELISM (P_in: words per input beat, divides IN_FEATURES),
//   OUT_PARALLELISM (P_out: words per output beat, divides OUT_FEATURES),
//   WEIGHTS_FILE, BIAS_FILE.
// Implementation: load the whole vector into a buffer (ready high, one beat
//   of P_in words per cycle);
//   then, for each group of P_out outputs, IN_FEATURES/P_in cycles of
//   P_in*P_out multiply-accumulates (P_out accumulators, each adding P_in
//   products per cycle), then the group's output beat is held until taken.
//   Not pipelined: the next vector is taken after the last output beat.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   IB = IN_FEATURES/P_in, OB = OUT_FEATURES/P_out:
//     T = IB + OB * (IN_FEATURES/P_in + 1)
//   A vector whose first input beat moves on clock edge t0 has its last output
//   beat move on edge t0 + T - 1, and the next vector's first beat can move on
//   edge t0 + T: the initiation interval is also T (N vectors: N*T cycles).
//   (IB load cycles; per output beat, IN_FEATURES/P_in MAC cycles and one emit
//   cycle.) A stalled output beat adds its stall cycles.
module fixed_linear #(
  parameter int DATA_WIDTH      = 8,
  parameter int FRAC_WIDTH      = 4,
  parameter int IN_FEATURES     = 4,
  parameter int OUT_FEATURES    = 4,
  parameter int IN_PARALLELISM  = 1,
  parameter int OUT_PARALLELISM = 1,
  parameter     WEIGHTS_FILE    = "",
  parameter     BIAS_FILE       = ""
) (
  input  logic                                 clk,
  input  logic                                 rst,
  input  logic [DATA_WIDTH*IN_PARALLELISM-1:0]  data_in_0,
  input  logic                                 data_in_0_valid,
  output logic                                 data_in_0_ready,
  output logic [DATA_WIDTH*OUT_PARALLELISM-1:0] data_out_0,
  output logic                                 data_out_0_valid,
  input  logic                                 data_out_0_ready
);
  localparam int W   = DATA_WIDTH;
  localparam int F   = FRAC_WIDTH;
  localparam int PI  = IN_PARALLELISM;
  localparam int PO  = OUT_PARALLELISM;
  localparam int N   = IN_FEATURES;
  localparam int M   = OUT_FEATURES;
  localparam int IB  = N / PI;                // input beats per vector = MAC cycles per output beat
  localparam int OB  = M / PO;                // output beats per vector
  localparam int ACC = 2 * W + $clog2(N + 1); // accumulator width, see docs
  localparam int XA  = (N > 1) ? $clog2(N) : 1;
  localparam int OW  = PO * W;
  localparam int WA  = (M * N > 1) ? $clog2(M * N) : 1;
  localparam int BA  = (M > 1) ? $clog2(M) : 1;
  localparam int IBA = $clog2(IB + 1);
  localparam int OBA = $clog2(OB + 1);
  // Address step from the last chunk of one output group to the first chunk
  // of the next: to the next group's first row.
  localparam int GSTEP = (PO - 1) * N + PI;

  generate
    if (F < 0 || F >= W || PI < 1 || PO < 1 || N < 1 || M < 1 || N % PI != 0 || M % PO != 0) begin : g_bad_params
      initial $display("ERROR: fixed_linear: bad parameters (need 0 <= FRAC_WIDTH < DATA_WIDTH, features >= 1, IN_PARALLELISM dividing IN_FEATURES, OUT_PARALLELISM dividing OUT_FEATURES)");
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
  logic [W-1:0]   xmem [0:N-1];  // the input vector
  logic [OW-1:0]  obuf;    // the output beat being emitted
  logic [IBA-1:0] cnt;     // input beat (load) or input chunk (MAC)
  logic [OBA-1:0] grp;     // output group
  logic [WA-1:0]  wbase;   // address of w_{group*P_out, chunk*P_in}
  logic [BA-1:0]  bbase;   // address of b_{group*P_out}

  logic           first_chunk;
  logic           last_chunk;
  assign first_chunk = (cnt == '0);
  assign last_chunk  = (cnt == IBA'(IB - 1));

  // P_out accumulators, each adding P_in products per cycle.
  logic [PO*ACC-1:0] acc;
  logic [OW-1:0]     y_beat;

  genvar gj, gk;
  generate
    for (gj = 0; gj < PO; gj++) begin : g_out
      logic [W-1:0]       b_word;
      logic [ACC-1:0]     base;
      logic [PI*2*W-1:0]  prods;
      logic [ACC-1:0]     acc_next;
      assign b_word = brom[BA'(32'(bbase) + gj)];
      assign base   = first_chunk ? ({{(ACC - W){b_word[W-1]}}, b_word} << F) : acc[gj*ACC +: ACC];
      for (gk = 0; gk < PI; gk++) begin : g_in
        logic [W-1:0] w_word;
        logic [W-1:0] x_word;
        assign w_word = wrom[WA'(32'(wbase) + gj * N + gk)];
        assign x_word = xmem[XA'(32'(cnt) * PI + gk)];
        assign prods[gk*2*W +: 2*W] = {{W{w_word[W-1]}}, w_word} * {{W{x_word[W-1]}}, x_word};
      end
      always_comb begin
        acc_next = base;
        for (int k = 0; k < PI; k++)
          acc_next = acc_next + {{(ACC - 2 * W){prods[k*2*W + 2*W - 1]}}, prods[k*2*W +: 2*W]};
      end
      fixed_round_sat #(.IN_WIDTH(ACC), .SHIFT(F), .OUT_WIDTH(W)) u_rs (
        .data_in(acc_next), .data_out(y_beat[gj*W +: W]));
      always_ff @(posedge clk) begin
        if (state == S_MAC) acc[gj*ACC +: ACC] <= acc_next;
      end
    end
  endgenerate

  assign data_in_0_ready  = (state == S_LOAD);
  assign data_out_0_valid = (state == S_EMIT);
  assign data_out_0       = obuf;

  // Each input beat's P_in words go to consecutive addresses.
  always_ff @(posedge clk) begin
    if (state == S_LOAD && data_in_0_valid)
      for (int k = 0; k < PI; k++) xmem[XA'(32'(cnt) * PI + k)] <= data_in_0[k*W +: W];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_LOAD;
      cnt   <= '0;
      grp   <= '0;
      wbase <= '0;
      bbase <= '0;
    end else begin
      case (state)
        S_LOAD: if (data_in_0_valid) begin
          if (last_chunk) begin
            cnt   <= '0;
            state <= S_MAC;
          end else begin
            cnt <= cnt + 1'b1;
          end
        end
        S_MAC: begin
          if (last_chunk) begin
            cnt   <= '0;
            obuf  <= y_beat;
            state <= S_EMIT;
            if (grp == OBA'(OB - 1)) begin
              wbase <= '0;
              bbase <= '0;
            end else begin
              wbase <= WA'(32'(wbase) + GSTEP);
              bbase <= BA'(32'(bbase) + PO);
            end
          end else begin
            cnt   <= cnt + 1'b1;
            wbase <= WA'(32'(wbase) + PI);
          end
        end
        S_EMIT: if (data_out_0_ready) begin
          if (grp == OBA'(OB - 1)) begin
            grp   <= '0;
            state <= S_LOAD;
          end else begin
            grp   <= grp + 1'b1;
            state <= S_MAC;
          end
        end
        default: state <= S_LOAD;
      endcase
    end
  end
endmodule
