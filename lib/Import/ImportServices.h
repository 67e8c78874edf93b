//===- ImportServices.h - The importer's libtorch service -------*- C++ -*-===//
//
// Internal to lib/Import: importTorchScript (TorchScript.h) is libtorch-free
// and calls this service (TorchService.h); TorchScriptImporter.cpp
// implements it on libtorch and provides it.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_LIB_IMPORT_IMPORTSERVICES_H
#define MAV_LIB_IMPORT_IMPORTSERVICES_H

#include "mav/Import/TorchScript.h"
#include "mav/Runtime/TorchService.h"

namespace mav {
namespace import_services {
inline constexpr TorchService<decltype(mav::importTorchScript)>
    importTorchScript{"import.torchScript"};
} // namespace import_services

/// The implementation, on libtorch (MavImport).
namespace torch_runtime {
decltype(mav::importTorchScript) importTorchScript;
} // namespace torch_runtime
} // namespace mav

#endif // MAV_LIB_IMPORT_IMPORTSERVICES_H
