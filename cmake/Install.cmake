# `cmake --install build --prefix DIR`: the tools, libMavTorchPlugin.so beside
# them in lib/ (mav-opt loads it from ../lib), the headers (generated ones
# included), the static libraries pass authors link, and MavConfig.cmake.
# Copied as built: their RUNPATH (/usr/lib/llvm-19/lib) is what they need
# installed too, and CMake's RPATH rewriting does not know LLVM's link lines.
install(PROGRAMS $<TARGET_FILE:mav-opt> $<TARGET_FILE:mav-translate>
                 $<TARGET_FILE:mav-run> DESTINATION bin)
install(FILES $<TARGET_FILE:MavTorchPlugin> DESTINATION lib)
install(FILES $<TARGET_FILE:MavSupport> $<TARGET_FILE:MavIR> $<TARGET_FILE:MavOperators>
              $<TARGET_FILE:MavSummary>
              $<TARGET_FILE:MavPasses> $<TARGET_FILE:MavRuntimeServices>
        DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mav DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/mav DESTINATION include
        FILES_MATCHING PATTERN "*.inc" PATTERN "CMakeFiles" EXCLUDE)
configure_file(${PROJECT_SOURCE_DIR}/cmake/MavConfig.cmake.in
               ${PROJECT_BINARY_DIR}/lib/cmake/mav/MavConfig.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/mav/MavConfig.cmake
              ${PROJECT_SOURCE_DIR}/cmake/MavPlugin.cmake
        DESTINATION lib/cmake/mav)
