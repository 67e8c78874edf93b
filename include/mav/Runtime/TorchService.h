//===- TorchService.h - The libtorch boundary -------------------*- C++ -*-===//
//
// Some passes execute tensors (shape propagation on the meta device, the
// scale and execution-order analyses) or write checkpoints in PyTorch's
// format, and mav-translate imports TorchScript. Each library that does so
// keeps its public entry point libtorch-free, and reaches its libtorch code
// through a TorchService: a typed, named slot in a registry that the libtorch
// side fills. Tools that link libtorch fill it at start-up; mav-opt and
// mav-translate, which do not, load libMavTorchPlugin.so the first time a
// service is asked for (TorchLoader.h), and its one entry point,
// mavRegisterTorchServices, fills it.
//
// A library's libtorch-backed function is therefore:
//   - a TorchService<Signature> in a libtorch-free header of the library;
//   - its public entry point, which calls the service (libtorch-free);
//   - its implementation, in a libtorch translation unit, provided by the
//     library's register...TorchServices() (one line);
// and no other library changes. libtorch-free.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_RUNTIME_TORCHSERVICE_H
#define MAV_RUNTIME_TORCHSERVICE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mav {

/// The version of the boundary: a plugin built for another is refused.
/// Raise it when a service changes its signature; a service that an older
/// plugin lacks is reported by name on lookup, so adding one need not.
constexpr unsigned kTorchServicesVersion = 6;

/// Makes `function` the implementation of the service `name`.
void registerTorchService(llvm::StringRef name, void *function);

/// The implementation of the service `name`: registered, or loaded with the
/// backend (setTorchServicesLoader); else an error saying why there is none.
llvm::Expected<void *> lookupTorchService(llvm::StringRef name);

/// How to load a backend when a service is not registered: registers the
/// services, or says why it cannot. Called once, on first need.
using TorchServicesLoader = llvm::Error (*)();
void setTorchServicesLoader(TorchServicesLoader loader);

/// Runs the loader now, once, if there is one; its error, if any, is kept and
/// reported by every later lookup. Thread-safe.
void loadTorchServices();

template <typename Signature> class TorchService;

/// A libtorch-backed function of type `Result(Args...)`, by name.
template <typename Result, typename... Args>
class TorchService<Result(Args...)> {
public:
  using Function = Result (*)(Args...);

  constexpr explicit TorchService(const char *name) : name(name) {}

  /// Registers the implementation (from the library's libtorch side).
  void provide(Function function) const {
    registerTorchService(name, reinterpret_cast<void *>(function));
  }

  /// The implementation, loading the backend if need be.
  llvm::Expected<Function> get() const {
    llvm::Expected<void *> function = lookupTorchService(name);
    if (!function)
      return function.takeError();
    return reinterpret_cast<Function>(*function);
  }

  /// Calls the implementation; without one, emits why at `op` and fails.
  /// For services that return a LogicalResult.
  mlir::LogicalResult call(mlir::Operation *op, Args... args) const {
    llvm::Expected<Function> function = get();
    if (!function)
      return op->emitError() << llvm::toString(function.takeError());
    return (*function)(std::forward<Args>(args)...);
  }

private:
  const char *name;
};

} // namespace mav

/// The entry point of libMavTorchPlugin.so: registers every service it
/// implements, and returns the kTorchServicesVersion it was built with.
extern "C" unsigned mavRegisterTorchServices();

#endif // MAV_RUNTIME_TORCHSERVICE_H
