// fixed_matmul: Y = A B, the product of two streamed fixed-point matrices
// (attention's Q K^T and A V).
//
// Function: per item, A (ROWS x INNER words, row-major) arrives on data_in_0,
//   B (INNER x COLS words, row-major) on data_in_1, and Y (ROWS x COLS words,
//   row-major) leaves on data_out_0, with (M = ROWS, K = INNER, N = COLS)
//     acc_mn = sum_k a_{m,k} * b_{k,n}                 (exact, ACC_WIDTH bits)
//     y_mn   = sat(rne(acc_mn / 2^FRAC_WIDTH))         (docs/Hardware.md)
//   ACC_WIDTH = 2 * DATA_WIDTH + clog2(K + 1); a, b and y are all
//   <DATA_WIDTH, FRAC_WIDTH> (fixed_linear without a bias). Items (matrix
//   pairs) follow each other back to back.
// Parameters: DATA_WIDTH, FRAC_WIDTH, ROWS (M), INNER (K), COLS (N),
//   IN_PARALLELISM (P_in: words per data_in_0 beat, divides INNER),
//   OUT_PARALLELISM (P_out: words per data_in_1 and data_out_0 beat, divides
//   COLS); all >= 1, 0 <= FRAC_WIDTH < DATA_WIDTH (checked). A beat carries
//   consecutive words of one row (of A: P_in, of B and Y: P_out), word 0 in
//   the low bits.
// Implementation: (M*K + K*N) * DATA_WIDTH bits of buffers, and
//   P_in * P_out multipliers. A is kept as M*K/P_in entries of P_in words
//   (one per A beat; entry m*K/P_in + c holds a_{m,c*P_in..c*P_in+P_in-1}).
//   B is kept in P_in banks of K*N/(P_in*P_out) entries of P_out words: row
//   k of B goes to bank k % P_in, entry (k / P_in) * N/P_out + j holding
//   b_{k,j*P_out..j*P_out+P_out-1}. A MAC cycle reads one A entry and the
//   same entry of every bank: P_in words of A and P_in x P_out words of B.
//   Load all of A (data_in_0_ready high, data_in_1_ready low, one beat per
//   cycle), then all of B (data_in_1_ready high, data_in_0_ready low); then,
//   for each row m and each block of P_out columns in order, K/P_in
//   multiply-accumulate cycles (P_out accumulators, each adding P_in products
//   per cycle), then the output beat of P_out words is held until taken.
//   Not pipelined: the next item's first A beat is taken on the edge after
//   the last output beat moved.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   L = M*K/P_in + K*N/P_out load beats (both ports), C = K/P_in,
//   E = M*N/P_out output beats:
//     T = M*K/P_in + K*N/P_out + M*(N/P_out) * (K/P_in + 1)
//   The first output beat moves C + 1 = K/P_in + 1 edges after the edge of
//   the last B beat; each further output beat moves K/P_in + 1 edges after
//   the previous one (K/P_in MAC cycles and one emit cycle before every
//   output beat). An item whose first A beat moves on clock edge t0 has its
//   last output beat move on edge t0 + T - 1, and the next item's first A
//   beat can move on edge t0 + T: the initiation interval is also T (N items:
//   N*T cycles). A stalled input or output beat adds its stall cycles.
module fixed_matmul #(
  parameter int DATA_WIDTH      = 8,
  parameter int FRAC_WIDTH      = 4,
  parameter int ROWS            = 4,
  parameter int INNER           = 4,
  parameter int COLS            = 4,
  parameter int IN_PARALLELISM  = 1,
  parameter int OUT_PARALLELISM = 1
) (
  input  logic                                  clk,
  input  logic                                  rst,
  input  logic [DATA_WIDTH*IN_PARALLELISM-1:0]  data_in_0,
  input  logic                                  data_in_0_valid,
  output logic                                  data_in_0_ready,
  input  logic [DATA_WIDTH*OUT_PARALLELISM-1:0] data_in_1,
  input  logic                                  data_in_1_valid,
  output logic                                  data_in_1_ready,
  output logic [DATA_WIDTH*OUT_PARALLELISM-1:0] data_out_0,
  output logic                                  data_out_0_valid,
  input  logic                                  data_out_0_ready
);
  localparam int W   = DATA_WIDTH;
  localparam int F   = FRAC_WIDTH;
  localparam int M   = ROWS;
  localparam int K   = INNER;
  localparam int N   = COLS;
  localparam int PI  = IN_PARALLELISM;
  localparam int PO  = OUT_PARALLELISM;
  localparam int KC  = (PI >= 1 && K >= PI) ? K / PI : 1;  // chunks of a row of A
  localparam int NB  = (PO >= 1 && N >= PO) ? N / PO : 1;  // column blocks
  localparam int ACC = 2 * W + $clog2(K + 1); // accumulator width, see docs
  localparam int AA  = (M * KC > 1) ? $clog2(M * KC) : 1;
  localparam int BA  = (KC * NB > 1) ? $clog2(KC * NB) : 1;
  localparam int KA  = (KC > 1) ? $clog2(KC) : 1;
  localparam int RA  = (M > 1) ? $clog2(M) : 1;
  localparam int CA  = (NB > 1) ? $clog2(NB) : 1;
  localparam int SA  = (PI > 1) ? $clog2(PI) : 1;

  generate
    if (F < 0 || F >= W || M < 1 || K < 1 || N < 1 || PI < 1 || PO < 1 ||
        K % PI != 0 || N % PO != 0) begin : g_bad_params
      initial $display("ERROR: fixed_matmul: need 0 <= FRAC_WIDTH < DATA_WIDTH, sizes >= 1, ",
                       "IN_PARALLELISM dividing INNER, OUT_PARALLELISM dividing COLS");
    end
  endgenerate

  localparam logic [1:0] S_LOADA = 2'd0;
  localparam logic [1:0] S_LOADB = 2'd1;
  localparam logic [1:0] S_MAC   = 2'd2;
  localparam logic [1:0] S_EMIT  = 2'd3;

  logic [1:0]      state;
  logic [PI*W-1:0] amem [0:M*KC-1];  // A, one entry per A beat
  logic [PO*W-1:0] obuf;             // the output beat being emitted
  logic [AA-1:0]   aaddr;            // load: next A entry; MAC: a_{row,chunk}
  logic [BA-1:0]   baddr;            // load: bank entry; MAC: b_{chunk,col}
  logic [SA-1:0]   bsel;             // load: bank of the B row (k % P_in)
  logic [KA-1:0]   k;                // MAC step (chunk of P_in)
  logic [RA-1:0]   row;              // output row m
  logic [CA-1:0]   col;              // load: B block; MAC: output block

  logic first_k;
  logic last_k;
  logic last_col;
  logic last_row;
  logic last_bank;
  assign first_k   = (k == '0);
  assign last_k    = (k == KA'(KC - 1));
  assign last_col  = (col == CA'(NB - 1));
  assign last_row  = (row == RA'(M - 1));
  assign last_bank = (bsel == SA'(PI - 1));

  // B banks: bank gi holds the rows k of B with k % P_in == gi.
  logic [PI*W-1:0]    a_beat;  // a_{row, k*P_in + i}, i < P_in
  logic [PI*PO*W-1:0] b_beats; // bank i: b_{k*P_in + i, col*P_out + o}
  assign a_beat = amem[aaddr];

  genvar gi, go;
  generate
    for (gi = 0; gi < PI; gi++) begin : g_bank
      logic [PO*W-1:0] bmem [0:KC*NB-1];
      assign b_beats[gi*PO*W +: PO*W] = bmem[baddr];
      always_ff @(posedge clk) begin
        if (state == S_LOADB && data_in_1_valid && bsel == SA'(gi))
          bmem[baddr] <= data_in_1;
      end
    end
  endgenerate

  // P_out accumulators, each adding P_in products per cycle.
  logic [PO*ACC-1:0] acc;
  logic [PO*W-1:0]   y_beat;

  generate
    for (go = 0; go < PO; go++) begin : g_out
      logic [PI*2*W-1:0] prods;
      logic [ACC-1:0]    base;
      logic [ACC-1:0]    acc_next;
      assign base = first_k ? '0 : acc[go*ACC +: ACC];
      for (gi = 0; gi < PI; gi++) begin : g_in
        logic [W-1:0] a_word;
        logic [W-1:0] b_word;
        assign a_word = a_beat[gi*W +: W];
        assign b_word = b_beats[(gi*PO + go)*W +: W];
        assign prods[gi*2*W +: 2*W] =
          {{W{a_word[W-1]}}, a_word} * {{W{b_word[W-1]}}, b_word};
      end
      always_comb begin
        acc_next = base;
        for (int i = 0; i < PI; i++)
          acc_next = acc_next + {{(ACC - 2 * W){prods[i*2*W + 2*W - 1]}}, prods[i*2*W +: 2*W]};
      end
      fixed_round_sat #(.IN_WIDTH(ACC), .SHIFT(F), .OUT_WIDTH(W)) u_rs (
        .data_in(acc_next), .data_out(y_beat[go*W +: W]));
      always_ff @(posedge clk) begin
        if (state == S_MAC) acc[go*ACC +: ACC] <= acc_next;
      end
    end
  endgenerate

  assign data_in_0_ready  = (state == S_LOADA);
  assign data_in_1_ready  = (state == S_LOADB);
  assign data_out_0_valid = (state == S_EMIT);
  assign data_out_0       = obuf;

  always_ff @(posedge clk) begin
    if (state == S_LOADA && data_in_0_valid) amem[aaddr] <= data_in_0;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_LOADA;
      aaddr <= '0;
      baddr <= '0;
      bsel  <= '0;
      k     <= '0;
      row   <= '0;
      col   <= '0;
    end else begin
      case (state)
        S_LOADA: if (data_in_0_valid) begin
          if (aaddr == AA'(M * KC - 1)) begin
            aaddr <= '0;
            state <= S_LOADB;
          end else begin
            aaddr <= aaddr + 1'b1;
          end
        end
        // B beat (row k, block col) goes to bank k % P_in, entry
        // (k / P_in) * N/P_out + col.
        S_LOADB: if (data_in_1_valid) begin
          if (!last_col) begin
            col   <= col + 1'b1;
            baddr <= baddr + 1'b1;
          end else begin
            col <= '0;
            if (!last_bank) begin
              bsel  <= bsel + 1'b1;
              baddr <= BA'(32'(baddr) - (NB - 1));   // same entries, next bank
            end else if (baddr != BA'(KC * NB - 1)) begin
              bsel  <= '0;
              baddr <= baddr + 1'b1;                  // next P_in rows
            end else begin
              bsel  <= '0;
              baddr <= '0;
              k     <= '0;
              state <= S_MAC;
            end
          end
        end
        S_MAC: begin
          if (last_k) begin
            k     <= '0;
            obuf  <= y_beat;
            state <= S_EMIT;
            // Addresses of the next output beat's first chunk.
            if (last_col) begin
              aaddr <= last_row ? '0 : aaddr + 1'b1;   // a_{row+1,0}
              baddr <= '0;                              // b_{0,0}
            end else begin
              aaddr <= AA'(32'(aaddr) - (KC - 1));      // a_{row,0}
              baddr <= BA'(32'(col) + 1);               // b_{0,col+1}
            end
          end else begin
            k     <= k + 1'b1;
            aaddr <= aaddr + 1'b1;
            baddr <= BA'(32'(baddr) + NB);
          end
        end
        S_EMIT: if (data_out_0_ready) begin
          if (last_col) begin
            col <= '0;
            if (last_row) begin
              row   <= '0;
              state <= S_LOADA;
            end else begin
              row   <= row + 1'b1;
              state <= S_MAC;
            end
          end else begin
            col   <= col + 1'b1;
            state <= S_MAC;
          end
        end
        default: state <= S_LOADA;
      endcase
    end
  end
endmodule
