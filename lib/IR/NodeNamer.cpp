//===- NodeNamer.cpp - FX-style node names --------------------------------===//

#include "mav/IR/NodeNamer.h"

#include "llvm/ADT/StringExtras.h"

using namespace mav;

/// Keeps [A-Za-z0-9_], maps everything else to '_', and makes the result a
/// Python identifier.
static std::string sanitize(llvm::StringRef text) {
  std::string name;
  name.reserve(text.size() + 1);
  for (char c : text)
    name.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (name.empty() || llvm::isDigit(name.front()))
    name.insert(name.begin(), '_');
  return name;
}

std::string NodeNamer::fromPath(llvm::StringRef path) { return sanitize(path); }

std::string NodeNamer::fromOperator(llvm::StringRef qualifiedName) {
  llvm::StringRef name = qualifiedName.rsplit("::").second;
  if (name.empty())
    name = qualifiedName;
  name = name.split('.').first;
  // In-place variants are named as their operator; keep dunders intact.
  if (!name.starts_with("__"))
    while (name.size() > 1 && name.ends_with("_"))
      name = name.drop_back();
  // CamelCase (prim::NumToTensor, prim::ListUnpack) becomes snake_case.
  std::string snake;
  for (auto [index, c] : llvm::enumerate(name)) {
    if (c >= 'A' && c <= 'Z') {
      if (index > 0 && !snake.empty() && snake.back() != '_')
        snake.push_back('_');
      snake.push_back(llvm::toLower(c));
    } else {
      snake.push_back(c);
    }
  }
  return sanitize(snake);
}

std::string NodeNamer::claim(llvm::StringRef candidate) {
  std::string base = sanitize(candidate);
  if (used.insert(base).second)
    return base;
  unsigned &suffix = nextSuffix[base];
  while (true) {
    std::string name = base + "_" + std::to_string(++suffix);
    if (used.insert(name).second)
      return name;
  }
}
