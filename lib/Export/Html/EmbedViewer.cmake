# Writes OUTPUT, a C++ fragment listing the viewer's files as
# {"name", R"mavweb(contents)mavweb"}: viewer.html, viewer.js and viewer.css
# from VIEWER_DIR/src, and elkjs's elk.bundled.js from VIEWER_DIR/node_modules
# (installed by scripts/install-deps.sh with npm ci).
set(files
  "${VIEWER_DIR}/src/viewer.html"
  "${VIEWER_DIR}/src/viewer.js"
  "${VIEWER_DIR}/src/viewer.css"
  "${VIEWER_DIR}/node_modules/elkjs/lib/elk.bundled.js")
set(text "// Generated from viewer/ by EmbedViewer.cmake.\n")
foreach(file ${files})
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} is missing: run scripts/install-deps.sh "
                        "(it installs elkjs with npm ci in viewer/)")
  endif()
  file(READ "${file}" contents)
  string(FIND "${contents}" ")mavweb\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter )mavweb\"")
  endif()
  get_filename_component(name "${file}" NAME)
  # A raw string literal may not exceed what compilers accept in one piece;
  # adjacent literals concatenate.
  string(LENGTH "${contents}" length)
  string(APPEND text "{\"${name}\", ")
  set(offset 0)
  while(offset LESS length)
    string(SUBSTRING "${contents}" ${offset} 60000 chunk)
    string(APPEND text "R\"mavweb(${chunk})mavweb\"\n")
    math(EXPR offset "${offset} + 60000")
  endwhile()
  if(length EQUAL 0)
    string(APPEND text "\"\"")
  endif()
  string(APPEND text "},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different
                "${OUTPUT}.tmp" "${OUTPUT}")
