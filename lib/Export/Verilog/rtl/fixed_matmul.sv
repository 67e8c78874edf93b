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
// Parameters: DATA_WIDTH, FRAC_WIDTH, ROWS (M), INNER (K), COLS (N), all >= 1,
//   0 <= FRAC_WIDTH < DATA_WIDTH (checked). One word per beat on every port.
// Implementation: two buffers, (M*K + K*N) * DATA_WIDTH bits, and one
//   multiplier. Load all of A (data_in_0_ready high, data_in_1_ready low,
//   one beat per cycle), then all of B (data_in_1_ready high, data_in_0_ready
//   low); then, for each output in row-major order, K multiply-accumulate
//   cycles (one product per cycle), then the output beat is held until taken.
//   Not pipelined: the next item's first A beat is taken on the edge after
//   the last output beat moved.
// Protocol: valid/ready; a beat moves on a rising edge where valid && ready;
//   rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), with
//   L = M*K + K*N load beats (both ports), C = K, E = M*N output beats:
//     T = M*K + K*N + M*N * (K + 1)
//   The first output beat moves C + 1 = K + 1 edges after the edge of the
//   last B beat; each further output beat moves K + 1 edges after the
//   previous one (K MAC cycles and one emit cycle before every output beat).
//   An item whose first A beat moves on clock edge t0 has its last output
//   beat move on edge t0 + T - 1, and the next item's first A beat can move
//   on edge t0 + T: the initiation interval is also T (N items: N*T cycles).
//   A stalled input or output beat adds its stall cycles.
module fixed_matmul #(
  parameter int DATA_WIDTH = 8,
  parameter int FRAC_WIDTH = 4,
  parameter int ROWS       = 4,
  parameter int INNER      = 4,
  parameter int COLS       = 4
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic [DATA_WIDTH-1:0] data_in_0,
  input  logic                  data_in_0_valid,
  output logic                  data_in_0_ready,
  input  logic [DATA_WIDTH-1:0] data_in_1,
  input  logic                  data_in_1_valid,
  output logic                  data_in_1_ready,
  output logic [DATA_WIDTH-1:0] data_out_0,
  output logic                  data_out_0_valid,
  input  logic                  data_out_0_ready
);
  localparam int W   = DATA_WIDTH;
  localparam int F   = FRAC_WIDTH;
  localparam int M   = ROWS;
  localparam int K   = INNER;
  localparam int N   = COLS;
  localparam int ACC = 2 * W + $clog2(K + 1); // accumulator width, see docs
  localparam int AA  = (M * K > 1) ? $clog2(M * K) : 1;
  localparam int BA  = (K * N > 1) ? $clog2(K * N) : 1;
  localparam int KA  = (K > 1) ? $clog2(K) : 1;
  localparam int RA  = (M > 1) ? $clog2(M) : 1;
  localparam int CA  = (N > 1) ? $clog2(N) : 1;

  generate
    if (F < 0 || F >= W || M < 1 || K < 1 || N < 1) begin : g_bad_params
      initial $display("ERROR: fixed_matmul: need 0 <= FRAC_WIDTH < DATA_WIDTH, sizes >= 1");
    end
  endgenerate

  localparam logic [1:0] S_LOADA = 2'd0;
  localparam logic [1:0] S_LOADB = 2'd1;
  localparam logic [1:0] S_MAC   = 2'd2;
  localparam logic [1:0] S_EMIT  = 2'd3;

  logic [1:0]    state;
  logic [W-1:0]  amem [0:M*K-1];  // A, row-major
  logic [W-1:0]  bmem [0:K*N-1];  // B, row-major
  logic [W-1:0]  obuf;            // the output beat being emitted
  logic [AA-1:0] aaddr;           // load: next A word; MAC: a_{row,k}
  logic [BA-1:0] baddr;           // load: next B word; MAC: b_{k,col}
  logic [KA-1:0] k;               // MAC step
  logic [RA-1:0] row;             // output row m
  logic [CA-1:0] col;             // output column n

  logic first_k;
  logic last_k;
  logic last_col;
  logic last_row;
  assign first_k  = (k == '0);
  assign last_k   = (k == KA'(K - 1));
  assign last_col = (col == CA'(N - 1));
  assign last_row = (row == RA'(M - 1));

  // The multiply-accumulate: one product a_{row,k} * b_{k,col} per cycle.
  logic [W-1:0]   a_word;
  logic [W-1:0]   b_word;
  logic [2*W-1:0] prod;
  logic [ACC-1:0] acc;
  logic [ACC-1:0] acc_next;
  logic [W-1:0]   y_word;
  assign a_word   = amem[aaddr];
  assign b_word   = bmem[baddr];
  assign prod     = {{W{a_word[W-1]}}, a_word} * {{W{b_word[W-1]}}, b_word};
  assign acc_next = (first_k ? '0 : acc) + {{(ACC - 2 * W){prod[2*W-1]}}, prod};

  fixed_round_sat #(.IN_WIDTH(ACC), .SHIFT(F), .OUT_WIDTH(W)) u_rs (
    .data_in(acc_next), .data_out(y_word));

  assign data_in_0_ready  = (state == S_LOADA);
  assign data_in_1_ready  = (state == S_LOADB);
  assign data_out_0_valid = (state == S_EMIT);
  assign data_out_0       = obuf;

  always_ff @(posedge clk) begin
    if (state == S_LOADA && data_in_0_valid) amem[aaddr] <= data_in_0;
    if (state == S_LOADB && data_in_1_valid) bmem[baddr] <= data_in_1;
    if (state == S_MAC) acc <= acc_next;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_LOADA;
      aaddr <= '0;
      baddr <= '0;
      k     <= '0;
      row   <= '0;
      col   <= '0;
    end else begin
      case (state)
        S_LOADA: if (data_in_0_valid) begin
          if (aaddr == AA'(M * K - 1)) begin
            aaddr <= '0;
            state <= S_LOADB;
          end else begin
            aaddr <= aaddr + 1'b1;
          end
        end
        S_LOADB: if (data_in_1_valid) begin
          if (baddr == BA'(K * N - 1)) begin
            baddr <= '0;
            k     <= '0;
            state <= S_MAC;
          end else begin
            baddr <= baddr + 1'b1;
          end
        end
        S_MAC: begin
          if (last_k) begin
            k     <= '0;
            obuf  <= y_word;
            state <= S_EMIT;
            // Addresses of the next output's first product.
            if (last_col) begin
              aaddr <= last_row ? '0 : aaddr + 1'b1;   // a_{row+1,0}
              baddr <= '0;                              // b_{0,0}
            end else begin
              aaddr <= AA'(32'(aaddr) - (K - 1));       // a_{row,0}
              baddr <= BA'(32'(col) + 1);               // b_{0,col+1}
            end
          end else begin
            k     <= k + 1'b1;
            aaddr <= aaddr + 1'b1;
            baddr <= BA'(32'(baddr) + N);
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
