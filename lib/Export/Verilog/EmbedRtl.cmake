# Writes OUTPUT, a C++ fragment listing every .sv file of RTL_DIR as
# {"name.sv", R"mavrtl(contents)mavrtl"}, sorted by name.
file(GLOB sources RELATIVE "${RTL_DIR}" "${RTL_DIR}/*.sv")
list(SORT sources)
set(text "// Generated from lib/Export/Verilog/rtl by EmbedRtl.cmake.\n")
foreach(source ${sources})
  file(READ "${RTL_DIR}/${source}" contents)
  string(APPEND text "{\"${source}\", R\"mavrtl(${contents})mavrtl\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different
                "${OUTPUT}.tmp" "${OUTPUT}")
