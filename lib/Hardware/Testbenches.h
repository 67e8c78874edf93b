//===- Testbenches.h - Generated testbenches --------------------*- C++ -*-===//

#ifndef MAV_LIB_HARDWARE_TESTBENCHES_H
#define MAV_LIB_HARDWARE_TESTBENCHES_H

#include "mav/Hardware/RtlSimulation.h"

namespace mav {

/// tb.cpp: `tb INPUTS EXPECTED SEED MAX_CYCLES`.
std::string makeVerilatorTestbench(const RtlDesignInfo &design);

/// tb.sv, module tb: `+inputs= +expected= +seed= +max_cycles=`.
std::string makeIcarusTestbench(const RtlDesignInfo &design, size_t inputWords,
                                size_t outputWords);

} // namespace mav

#endif // MAV_LIB_HARDWARE_TESTBENCHES_H
