//===- ExportPasses.td - mav's export passes ---------------*- tablegen -*-===//
//
// The export passes: they write the graph out. Code in passes/export, tests in
// test/Checkpoint, reference in docs/Passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_PASSES_EXPORTPASSES_TD
#define MAV_PASSES_EXPORTPASSES_TD

include "mlir/Pass/PassBase.td"

def ExportCheckpoint : Pass<"mav-export-checkpoint", "mlir::ModuleOp"> {
  let dependentDialects = ["mav::MavDialect"];
  let summary = "write the module as a checkpoint";
  let description = [{
    Writes the whole module (every graph, every metadata field, graph-level
    metadata, pass outputs, all weights bit-exact) to `path`, atomically:
    a failure leaves no partial file and keeps any previous one. The
    checkpoint loads wherever mav reads IR (`mav-opt CKPT`,
    `mav-translate --mav-roundtrip CKPT`, `mav-run CKPT`), and Python's
    `torch.load(CKPT)` reads its weights. See docs/Checkpoints.md.

    Pass outputs: `path`, `weights` (how many), recorded before writing so
    that the checkpoint holds them.

    ```sh
    mav-opt model.mlir -mav-raise -mav-export-checkpoint=path=model.ckpt
    ```
  }];
  let options = [Option<"path", "path", "std::string", /*default=*/"",
                        "the checkpoint file to write">];
}

#endif // MAV_PASSES_EXPORTPASSES_TD
