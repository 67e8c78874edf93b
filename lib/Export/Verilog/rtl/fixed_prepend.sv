// fixed_prepend: puts a learned constant before each item of a stream
// (torch.cat([c, x]): the class token of a Vision Transformer).
//
// Function: per item, the input is IN_WORDS words x[0..IN_WORDS-1] (one word
//   per beat, word 0 first); the output is CONST_WORDS + IN_WORDS words,
//     y = c[0], ..., c[CONST_WORDS-1], x[0], ..., x[IN_WORDS-1]
//   where c is the constant ROM. Words are copied, never changed; the format
//   <DATA_WIDTH, FRAC_WIDTH> is the same on both sides and for c.
// Constant: a ROM loaded with $readmemh from WEIGHTS_FILE (CONST_WORDS lines,
//   line k holds c[k]; one two's-complement word of DATA_WIDTH bits per line,
//   in hex), as fixed_linear reads its weights.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only, not used by the logic),
//   CONST_WORDS (>= 1), IN_WORDS (>= 1), WEIGHTS_FILE.
// Implementation: load the item into a memory of IN_WORDS words (ready high,
//   one beat per cycle), then emit the CONST_WORDS ROM words and the
//   IN_WORDS stored words from a registered output word, read one word ahead
//   (the first on the edge of the last load beat). Memory: the ROM and the
//   buffer, (CONST_WORDS + IN_WORDS) * DATA_WIDTH bits; no arithmetic but
//   the counters. Not pipelined: the next item is taken after the last
//   output beat.
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous.
// Cycles (no stalls: input valid and output ready always high), buffered
//   contract with L = IN_WORDS load beats, C = 0, E = CONST_WORDS + IN_WORDS
//   output beats:
//     T = IN_WORDS + CONST_WORDS + IN_WORDS
//   An item whose first input beat moves on edge t0 has its last input beat on
//   edge t0 + IN_WORDS - 1, its first output beat on the next edge, its last
//   output beat on edge t0 + T - 1, and the next item's first beat can move on
//   edge t0 + T (N items: N*T cycles). A stalled beat adds its stall cycles.
module fixed_prepend #(
  parameter int DATA_WIDTH   = 8,
  parameter int FRAC_WIDTH   = 4,
  parameter int CONST_WORDS  = 2,
  parameter int IN_WORDS     = 4,
  parameter     WEIGHTS_FILE = ""
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
  localparam int C  = CONST_WORDS;
  localparam int N  = IN_WORDS;
  localparam int CA = (C > 1) ? $clog2(C) : 1;   // ROM address width
  localparam int XA = (N > 1) ? $clog2(N) : 1;   // buffer address width
  localparam int RA = (CA > XA) ? CA : XA;       // read counter width

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || C < 1 || N < 1) begin : g_bad_params
      initial $display("ERROR: fixed_prepend: need 0 <= FRAC_WIDTH < DATA_WIDTH, %s",
                       "CONST_WORDS >= 1, IN_WORDS >= 1");
    end
  endgenerate

  logic [W-1:0] crom [0:C-1];
  // Without a file (a tool elaborating the defaults, as yosys's read_verilog
  // does) the ROM stays unloaded; every instance mav exports names one.
  initial if (WEIGHTS_FILE != "") $readmemh(WEIGHTS_FILE, crom);

  logic          loading;   // state: loading an item (else emitting it)
  logic [W-1:0]  xmem [0:N-1];
  logic [XA-1:0] wcnt;      // next word written
  logic          xphase;    // the next word read is from xmem (else crom)
  logic [RA-1:0] rcnt;      // address of the next word read, in its memory
  logic [W-1:0]  obuf;      // the output word being emitted
  logic          obuf_last; // obuf holds the item's last output word
  logic          read;      // load obuf with the next word
  logic          last_load;
  logic          rwrap;     // the next word read is the last of its memory

  assign last_load = data_in_0_valid && (wcnt == XA'(N - 1));
  assign read  = loading ? last_load : (data_out_0_ready && !obuf_last);
  assign rwrap = xphase ? (rcnt == RA'(N - 1)) : (rcnt == RA'(C - 1));

  assign data_in_0_ready  = loading;
  assign data_out_0_valid = !loading;
  assign data_out_0       = obuf;

  always_ff @(posedge clk) begin
    if (loading && data_in_0_valid) xmem[wcnt] <= data_in_0;
  end

  // The last input word is written on the edge of the first read (of c[0]),
  // long before it is read: no write-through path.
  always_ff @(posedge clk) begin
    if (read) obuf <= xphase ? xmem[XA'(rcnt)] : crom[CA'(rcnt)];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      loading   <= 1'b1;
      wcnt      <= '0;
      xphase    <= 1'b0;
      rcnt      <= '0;
      obuf_last <= 1'b0;
    end else begin
      if (read) begin
        rcnt      <= rwrap ? '0 : rcnt + 1'b1;
        xphase    <= xphase ^ rwrap;
        obuf_last <= xphase && rwrap;
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
