//===- Glue.cpp - Components that compute no operator ---------------------===//
//
// Helpers that other components instantiate, and the glue the exporter puts
// between nodes (fork, FIFO, cast, width converter). They have files and
// parameters, no rules.
//
//===----------------------------------------------------------------------===//

#include "Entries.h"

using namespace mav;

namespace {

constexpr llvm::StringRef roundSatParameters[] = {"IN_WIDTH", "SHIFT",
                                                  "OUT_WIDTH"};
constexpr llvm::StringRef roundSatFiles[] = {"fixed_round_sat.sv"};
constexpr llvm::StringRef streamParameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                                "PARALLELISM"};
constexpr llvm::StringRef skidFiles[] = {"fixed_skid_buffer.sv"};
constexpr llvm::StringRef fifoParameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                              "PARALLELISM", "DEPTH"};
constexpr llvm::StringRef fifoFiles[] = {"fixed_fifo.sv"};
constexpr llvm::StringRef forkParameters[] = {"DATA_WIDTH", "FRAC_WIDTH",
                                              "PARALLELISM", "OUTPUTS"};
constexpr llvm::StringRef forkFiles[] = {"fixed_fork.sv"};
constexpr llvm::StringRef joinFiles[] = {"fixed_skid_buffer.sv",
                                         "fixed_join2.sv"};
constexpr llvm::StringRef scanParameters[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "PARALLELISM", "CHANNELS",
    "IN_HEIGHT",  "IN_WIDTH",   "KERNEL_H",    "KERNEL_W",
    "STRIDE",     "PADDING",    "OUT_HEIGHT",  "OUT_WIDTH"};
constexpr llvm::StringRef scanFiles[] = {"fixed_window_scan.sv"};
constexpr llvm::StringRef convertParameters[] = {
    "DATA_WIDTH", "FRAC_WIDTH", "IN_PARALLELISM", "OUT_PARALLELISM"};
constexpr llvm::StringRef convertFiles[] = {"fixed_width_convert.sv"};
constexpr llvm::StringRef castParameters[] = {
    "IN_WIDTH", "IN_FRAC_WIDTH", "OUT_WIDTH", "OUT_FRAC_WIDTH", "PARALLELISM"};
constexpr llvm::StringRef castFiles[] = {
    "fixed_round_sat.sv", "fixed_skid_buffer.sv", "fixed_cast.sv"};

} // namespace

constexpr Component mav::components::fixedRoundSat = {
    .module = "fixed_round_sat",
    .parameters = roundSatParameters,
    .dependenceFiles = roundSatFiles,
};
constexpr Component mav::components::fixedSkidBuffer = {
    .module = "fixed_skid_buffer",
    .parameters = streamParameters,
    .dependenceFiles = skidFiles,
};
constexpr Component mav::components::fixedFifo = {
    .module = "fixed_fifo",
    .parameters = fifoParameters,
    .dependenceFiles = fifoFiles,
};
constexpr Component mav::components::fixedFork = {
    .module = "fixed_fork",
    .parameters = forkParameters,
    .dependenceFiles = forkFiles,
};
constexpr Component mav::components::fixedJoin2 = {
    .module = "fixed_join2",
    .parameters = streamParameters,
    .dependenceFiles = joinFiles,
};
constexpr Component mav::components::fixedWindowScan = {
    .module = "fixed_window_scan",
    .parameters = scanParameters,
    .dependenceFiles = scanFiles,
};
constexpr Component mav::components::fixedCast = {
    .module = "fixed_cast",
    .parameters = castParameters,
    .dependenceFiles = castFiles,
};
constexpr Component mav::components::fixedWidthConvert = {
    .module = "fixed_width_convert",
    .parameters = convertParameters,
    .dependenceFiles = convertFiles,
};
