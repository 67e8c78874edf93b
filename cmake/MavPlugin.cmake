# mav_add_plugin(NAME SOURCE...): a shared library mav-opt loads with
# --load-pass-plugin or --load-dialect-plugin (include/mav/Passes/PluginAPI.h),
# compiled as MLIR 19 was (C++17, no RTTI unless LLVM has it) and linked
# against nothing: mav-opt exports MLIR, mav and LLVMSupport. Expects
# MAV_INCLUDE_DIRS, which mav's build and MavConfig.cmake set.
function(mav_add_plugin name)
  add_library(${name} MODULE ${ARGN})
  target_include_directories(${name} PRIVATE ${MAV_INCLUDE_DIRS})
  separate_arguments(definitions UNIX_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(${name} PRIVATE ${definitions})
  set_target_properties(${name} PROPERTIES
    CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${name} PRIVATE -fno-rtti)
  endif()
  foreach(generated MavIRIncGen MavPassesIncGen)
    if(TARGET ${generated})
      add_dependencies(${name} ${generated})
    endif()
  endforeach()
endfunction()
