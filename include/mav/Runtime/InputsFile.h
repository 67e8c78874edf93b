//===- InputsFile.h - Graph inputs read from a torch.save file -*- C++ -*-===//
//
// The inputs a user hands mav as a Python `torch.save` file: calibration
// samples (-mav-quantize-calibrate) and the inputs of one run (mav-run
// --inputs), and the Python package's in-memory runs.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_INPUTSFILE_H
#define MAV_RUNTIME_INPUTSFILE_H

#include "mav/IR/MavOps.h"

#include "llvm/ADT/StringRef.h"

#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace mav {

/// Unpickles the bytes of a torch.save file into `contents`; on failure
/// returns why.
std::string loadTorchSave(llvm::StringRef bytes, c10::IValue &contents);

/// One sample as the graph's inputs: a tensor, or a list or tuple of
/// tensors, one per input, each of the input's shape (converted to its
/// dtype). On failure returns why.
std::string sampleInputs(GraphOp graph, const c10::IValue &sample,
                         std::vector<c10::IValue> &inputs);

} // namespace mav

#endif // MAV_RUNTIME_INPUTSFILE_H
