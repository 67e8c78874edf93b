//===- NodeNamer.h - FX-style node names ------------------------*- C++ -*-===//
//
// Names nodes the way torch.fx does: a base derived from the target
// (`layer1.0.conv1` -> `layer1_0_conv1`, `aten::add_` -> `add`,
// `aten::_convolution` -> `_convolution`), then `_1`, `_2`, ... for repeats.
// Linear in the number of names.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_IR_NODENAMER_H
#define MAV_IR_NODENAMER_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace mav {

class NodeNamer {
public:
  /// A unique Python identifier derived from `candidate`.
  std::string claim(llvm::StringRef candidate);
  /// Marks `name` as taken, as it is (a name already in the graph).
  void reserve(llvm::StringRef name) { used.insert(name); }

  /// The base name FX derives from a module path or attribute target.
  static std::string fromPath(llvm::StringRef path);
  /// The base name FX derives from an operator (`aten::add_` -> `add`).
  static std::string fromOperator(llvm::StringRef qualifiedName);

private:
  llvm::StringSet<> used;
  llvm::StringMap<unsigned> nextSuffix;
};

} // namespace mav

#endif // MAV_IR_NODENAMER_H
