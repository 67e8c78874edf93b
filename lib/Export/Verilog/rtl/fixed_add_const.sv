// fixed_add_const: adds a learned constant to a stream of fixed-point words
// (the positional embedding of a Vision Transformer).
//
// Function: the stream's words are numbered k = 0, 1, 2, ... from reset (word
//   j of beat b is k = b*PARALLELISM + j); word k becomes
//     y_k = sat(x_k + c[k mod CONST_WORDS])
//   an exact sum saturated to DATA_WIDTH bits, as fixed_add (docs/Hardware.md,
//   "Fixed-point arithmetic"); x, c and y are all <DATA_WIDTH, FRAC_WIDTH>.
//   An item of CONST_WORDS words gets the whole constant added, and the next
//   item starts again at c[0].
// Constant: a ROM loaded with $readmemh from WEIGHTS_FILE (CONST_WORDS lines,
//   line k holds c[k]; one two's-complement word of DATA_WIDTH bits per line,
//   in hex), as fixed_linear reads its weights; read at PARALLELISM addresses
//   per beat, from a word counter that steps by PARALLELISM and wraps.
// Parameters: DATA_WIDTH, FRAC_WIDTH (format only, not used by the logic),
//   PARALLELISM (words per beat, divides CONST_WORDS, checked), CONST_WORDS
//   (>= 1), WEIGHTS_FILE.
// Protocol: valid/ready on data_in_0 and data_out_0; a beat moves on a rising
//   clock edge where valid && ready; rst active-high, synchronous (back to
//   c[0]). Registered output (fixed_skid_buffer): latency 1 cycle, one beat
//   per cycle; with no stalls, the beat taken at the edge ending cycle k is on
//   data_out_0 in cycle k + 1, so a stream of N words takes
//   N/PARALLELISM + 1 cycles.
module fixed_add_const #(
  parameter int DATA_WIDTH   = 8,
  parameter int FRAC_WIDTH   = 4,
  parameter int PARALLELISM  = 1,
  parameter int CONST_WORDS  = 4,
  parameter     WEIGHTS_FILE = ""
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
  localparam int P  = PARALLELISM;
  localparam int C  = CONST_WORDS;
  localparam int CA = (C > 1) ? $clog2(C) : 1;   // ROM address width

  generate
    if (FRAC_WIDTH < 0 || FRAC_WIDTH >= DATA_WIDTH || P < 1 || C < 1 ||
        C % P != 0) begin : g_bad_params
      initial $display("ERROR: fixed_add_const: need 0 <= FRAC_WIDTH < DATA_WIDTH, %s",
                       "PARALLELISM dividing CONST_WORDS >= 1");
    end
  endgenerate

  logic [W-1:0] crom [0:C-1];
  // Without a file (a tool elaborating the defaults, as yosys's read_verilog
  // does) the ROM stays unloaded; every instance mav exports names one.
  initial if (WEIGHTS_FILE != "") $readmemh(WEIGHTS_FILE, crom);

  logic [CA-1:0]  base;   // k mod CONST_WORDS of the beat's word 0
  logic           take;   // a beat moves on data_in_0
  logic [W*P-1:0] result;

  assign take = data_in_0_valid && data_in_0_ready;

  always_ff @(posedge clk) begin
    if (rst) base <= '0;
    else if (take) base <= (base == CA'(C - P)) ? '0 : CA'(32'(base) + P);
  end

  genvar j;
  generate
    for (j = 0; j < P; j = j + 1) begin : g_word
      logic [W-1:0] x;
      logic [W-1:0] c;
      logic [W:0]   wide;
      assign x = data_in_0[j*W +: W];
      assign c = crom[CA'(32'(base) + j)];
      assign wide = {x[W-1], x} + {c[W-1], c};
      fixed_round_sat #(.IN_WIDTH(W + 1), .SHIFT(0), .OUT_WIDTH(W)) u_rs (
        .data_in(wide), .data_out(result[j*W +: W]));
    end
  endgenerate

  fixed_skid_buffer #(
    .DATA_WIDTH(DATA_WIDTH), .FRAC_WIDTH(FRAC_WIDTH), .PARALLELISM(PARALLELISM)
  ) u_out (
    .clk(clk), .rst(rst),
    .data_in_0(result), .data_in_0_valid(data_in_0_valid), .data_in_0_ready(data_in_0_ready),
    .data_out_0(data_out_0), .data_out_0_valid(data_out_0_valid),
    .data_out_0_ready(data_out_0_ready)
  );
endmodule
