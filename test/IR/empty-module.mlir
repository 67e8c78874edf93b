// Every pass accepts an empty module, recording its outputs and the report
// as for any other module.
// RUN: mav-opt %s -mav-raise -mav-count-dropout -mav-remove-dropout -mav-count-params -mav-classify-entry-exit -mav-insert-learnable-nodes --mav-report=%t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: mav-opt %s -mav-count-dropout --mav-report=%t.split.json -split-input-file | FileCheck %s --check-prefix=SPLIT
// RUN: FileCheck %s --check-prefix=SPLIT-REPORT < %t.split.json
// RUN: mav-opt %s --pass-pipeline='builtin.module(mav-export-checkpoint{path=%t.ckpt})' -o /dev/null
// RUN: mav-opt %t.ckpt -mav-count-dropout | FileCheck %s --check-prefix=CKPT

// CHECK: module attributes {mav.pass_outputs =
// CHECK-SAME: "mav-count-dropout"
// REPORT: "pass": "mav-count-dropout"
// SPLIT-COUNT-2: module attributes {mav.pass_outputs = [#mav.pass_output<"mav-count-dropout"
// SPLIT-REPORT-COUNT-2: "pass": "mav-count-dropout"
// CKPT: module attributes {mav.pass_outputs =
module {}

// -----

module {}
