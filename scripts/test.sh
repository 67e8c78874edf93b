#!/usr/bin/env bash
# Installs what is missing, builds mav, and runs the whole test suite
# (lit + FileCheck and the gtest unit tests) through the check-mav target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" check-mav
