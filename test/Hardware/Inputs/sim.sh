#!/bin/sh
# sim.sh DIR RTL_FILE...: builds DIR/tb.sv with the given RTL files under
# Verilator (--binary --timing) and Icarus (-g2012), runs both, and prints each
# simulator's output prefixed by "verilator: " / "icarus: ".
set -e
dir=$1; shift
nice verilator --binary --timing -O0 -CFLAGS -O0 --top-module tb \
  --Mdir "$dir/obj_verilator" -o Vtb "$dir/tb.sv" "$@" > "$dir/verilator_build.log" 2>&1 ||
  { cat "$dir/verilator_build.log"; exit 1; }
"$dir/obj_verilator/Vtb" | sed 's/^/verilator: /'
iverilog -g2012 -s tb -o "$dir/tb.vvp" "$dir/tb.sv" "$@"
nice vvp -n "$dir/tb.vvp" | sed 's/^/icarus: /'
