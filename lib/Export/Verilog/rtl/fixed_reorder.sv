// fixed_reorder: a strided view of each item of a stream (the pure data
// movements of a transformer: slice, select, transpose, permute, expand, head
// split / merge).
//
// Function: per item, the input is IN_WORDS words x[0..IN_WORDS-1] (one word
//   per beat, word 0 first); the output is OUT_WORDS words, word k first for
//   k = 0..OUT_WORDS-1, where output word k, whose row-major multi-index over
//   (SIZE_0, ..., SIZE_5) is (j_0, ..., j_5), is
//     y_k = x[BASE + sum_d j_d * STRIDE_d]
//   (SIZE_5 is the innermost dimension). Words are copied, never changed; the
//   format <DATA_WIDTH, FRAC_WIDTH> is the same on both sides. Examples: the
//   transpose of a 2x3 item is SIZE (1,1,1,1,3,2), STRIDE (0,0,0,0,1,3);
//   repeating a 64-word item 3 times is SIZE (1,1,1,1,3,64), STRIDE
//   (0,0,0,0,0,1).
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only, not used by the logic),
//   IN_WORDS (>= 1), OUT_WORDS (>= 1), BASE (>= 0),
//   SIZE_0..SIZE_5 (>= 1, product OUT_WORDS; unused leading dimensions 1),
//   STRIDE_0..STRIDE_5 (>= 0; unused leading dimensions 0). Every index must
//   be in [0, IN_WORDS): BASE + sum_d (SIZE_d - 1) * STRIDE_d < IN_WORDS
//   (checked, like the rest).
// Implementation: load the item into a memory of IN_WORDS words (ready high,
//   one beat per cycle), then emit OUT_WORDS beats from a registered output
//   word. The read address comes from counters, with no multiplier and no
//   ROM: an odometer over the sizes steps the address by a constant for the
//   innermost dimension that does not wrap, STEP_d = STRIDE_d - sum_{e>d}
//   (SIZE_e - 1) * STRIDE_e, and back to BASE when all dimensions wrap. The
//   odometer is one word ahead of the output register, so the memory is read
//   at a registered address (one read port; a write-through path for the last
//   input word when BASE = IN_WORDS - 1). Not pipelined: the next item is
//   taken after the last output beat.
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), buffered
//   contract with L = IN_WORDS load beats, C = 0, E = OUT_WORDS output beats:
//     T = IN_WORDS + OUT_WORDS
//   An item whose first input beat moves on edge t0 has its last input beat on
//   edge t0 + IN_WORDS - 1, its first output beat on the next edge, its last
//   output beat on edge t0 + T - 1, and the next item's first beat can move on
//   edge t0 + T (N items: N*T cycles). A stalled beat adds its stall cycles.
module fixed_reorder #(
  parameter int DATA_WIDTH = 8,
  parameter int FRAC_WIDTH = 4,
  parameter int IN_WORDS   = 6,
  parameter int OUT_WORDS  = 6,
  parameter int BASE       = 0,
  parameter int SIZE_0     = 1,
  parameter int SIZE_1     = 1,
  parameter int SIZE_2     = 1,
  parameter int SIZE_3     = 1,
  parameter int SIZE_4     = 3,
  parameter int SIZE_5     = 2,
  parameter int STRIDE_0   = 0,
  parameter int STRIDE_1   = 0,
  parameter int STRIDE_2   = 0,
  parameter int STRIDE_3   = 0,
  parameter int STRIDE_4   = 1,
  parameter int STRIDE_5   = 3
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
  localparam int N  = IN_WORDS;
  localparam int AW = (N > 1) ? $clog2(N) : 1;   // memory address width
  // Sizes, dimension d in bits [32*d +: 32].
  localparam logic [191:0] SIZES = 192'(SIZE_0) | (192'(SIZE_1) << 32) | (192'(SIZE_2) << 64) |
                                   (192'(SIZE_3) << 96) | (192'(SIZE_4) << 128) |
                                   (192'(SIZE_5) << 160);
  // The span of each dimension, (SIZE_d - 1) * STRIDE_d, and the largest index.
  localparam longint SPAN_0 = (64'(SIZE_0) - 1) * 64'(STRIDE_0);
  localparam longint SPAN_1 = (64'(SIZE_1) - 1) * 64'(STRIDE_1);
  localparam longint SPAN_2 = (64'(SIZE_2) - 1) * 64'(STRIDE_2);
  localparam longint SPAN_3 = (64'(SIZE_3) - 1) * 64'(STRIDE_3);
  localparam longint SPAN_4 = (64'(SIZE_4) - 1) * 64'(STRIDE_4);
  localparam longint SPAN_5 = (64'(SIZE_5) - 1) * 64'(STRIDE_5);
  localparam longint LAST_INDEX = 64'(BASE) + SPAN_0 + SPAN_1 + SPAN_2 + SPAN_3 + SPAN_4 +
                                  SPAN_5;
  localparam longint PRODUCT = 64'(SIZE_0) * 64'(SIZE_1) * 64'(SIZE_2) * 64'(SIZE_3) *
                               64'(SIZE_4) * 64'(SIZE_5);
  // Address step when dimension d is the innermost one that does not wrap
  // (the inner ones go back to 0), modulo 2^AW: the sum stays in [0, N).
  localparam longint STEP_5 = 64'(STRIDE_5);
  localparam longint STEP_4 = 64'(STRIDE_4) - SPAN_5;
  localparam longint STEP_3 = 64'(STRIDE_3) - SPAN_5 - SPAN_4;
  localparam longint STEP_2 = 64'(STRIDE_2) - SPAN_5 - SPAN_4 - SPAN_3;
  localparam longint STEP_1 = 64'(STRIDE_1) - SPAN_5 - SPAN_4 - SPAN_3 - SPAN_2;
  localparam longint STEP_0 = 64'(STRIDE_0) - SPAN_5 - SPAN_4 - SPAN_3 - SPAN_2 - SPAN_1;
  localparam logic [AW-1:0] S0 = AW'(STEP_0);   // unsigned: zero-extended below
  localparam logic [AW-1:0] S1 = AW'(STEP_1);
  localparam logic [AW-1:0] S2 = AW'(STEP_2);
  localparam logic [AW-1:0] S3 = AW'(STEP_3);
  localparam logic [AW-1:0] S4 = AW'(STEP_4);
  localparam logic [AW-1:0] S5 = AW'(STEP_5);
  localparam logic [6*AW-1:0] STEPS =
    (6*AW)'(S0) | ((6*AW)'(S1) << AW) | ((6*AW)'(S2) << (2*AW)) | ((6*AW)'(S3) << (3*AW)) |
    ((6*AW)'(S4) << (4*AW)) | ((6*AW)'(S5) << (5*AW));
  // The first output word is the last input word: it is written on the edge
  // that loads the output register, which then takes it from data_in_0.
  localparam bit THROUGH = (64'(BASE) == 64'(N) - 1);

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || IN_WORDS < 1 || OUT_WORDS < 1 ||
        BASE < 0 || SIZE_0 < 1 || SIZE_1 < 1 || SIZE_2 < 1 || SIZE_3 < 1 || SIZE_4 < 1 ||
        SIZE_5 < 1 || STRIDE_0 < 0 || STRIDE_1 < 0 || STRIDE_2 < 0 || STRIDE_3 < 0 ||
        STRIDE_4 < 0 || STRIDE_5 < 0 || PRODUCT != 64'(OUT_WORDS)) begin : g_bad_params
      initial $display("ERROR: fixed_reorder: need 0 <= FRAC_WIDTH < DATA_WIDTH, %s",
                       "IN_WORDS >= 1, BASE >= 0, SIZE_d >= 1 with product OUT_WORDS, ",
                       "STRIDE_d >= 0");
    end
    if (LAST_INDEX >= 64'(N)) begin : g_bad_index
      initial $display("ERROR: fixed_reorder: index out of range: %s",
                       "need BASE + sum_d (SIZE_d - 1) * STRIDE_d < IN_WORDS");
    end
  endgenerate

  logic          loading;   // state: loading an item (else emitting it)
  logic [W-1:0]  mem [0:N-1];
  logic [AW-1:0] wcnt;      // next word written
  logic [AW-1:0] raddr;     // address of the next word read (odometer's word)
  logic [W-1:0]  obuf;      // the output word being emitted
  logic          obuf_last; // obuf holds the item's last output word
  logic          read;      // load obuf from raddr, advance the odometer
  logic          last_load;
  logic [W-1:0]  rdata;
  logic [5:0]    wrap;      // the odometer's dimension d is at SIZE_d - 1
  logic [AW-1:0] step;

  assign last_load = data_in_0_valid && (wcnt == AW'(N - 1));
  assign read = loading ? last_load : (data_out_0_ready && !obuf_last);
  assign rdata = (loading && THROUGH) ? data_in_0 : mem[raddr];

  assign data_in_0_ready  = loading;
  assign data_out_0_valid = !loading;
  assign data_out_0       = obuf;

  // The odometer: dimension d advances when all inner dimensions wrap.
  genvar gd;
  generate
    for (gd = 0; gd < 6; gd = gd + 1) begin : g_dim
      localparam int SZ = SIZES[32*gd +: 32];
      localparam int IW = (SZ > 1) ? $clog2(SZ) : 1;
      localparam logic [5:0] INNER = ~6'((1 << (gd + 1)) - 1);
      logic [IW-1:0] idx;
      logic          carry;
      assign wrap[gd] = (idx == IW'(SZ - 1));
      assign carry = ((wrap & INNER) == INNER);
      always_ff @(posedge clk) begin
        if (rst) idx <= '0;
        else if (read && carry) idx <= wrap[gd] ? '0 : idx + 1'b1;
      end
    end
  endgenerate

  // The step of the innermost dimension that does not wrap.
  always_comb begin
    step = '0;
    for (int d = 0; d < 6; d++)
      if (!wrap[d]) step = STEPS[AW*d +: AW];
  end

  always_ff @(posedge clk) begin
    if (loading && data_in_0_valid) mem[wcnt] <= data_in_0;
  end

  always_ff @(posedge clk) begin
    if (read) obuf <= rdata;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      loading   <= 1'b1;
      wcnt      <= '0;
      raddr     <= AW'(BASE);
      obuf_last <= 1'b0;
    end else begin
      if (read) begin
        raddr     <= (&wrap) ? AW'(BASE) : raddr + step;
        obuf_last <= &wrap;
      end
      if (loading) begin
        if (data_in_0_valid) wcnt <= last_load ? '0 : wcnt + 1'b1;
        if (last_load) loading <= 1'b0;
      end else if (data_out_0_ready && obuf_last) begin
        loading <= 1'b1;
      end
    end
  end
endmodule
