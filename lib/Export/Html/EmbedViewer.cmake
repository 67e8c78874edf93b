# Writes OUTPUT, a C++ fragment listing the viewer's files as
# {"name", R"mavweb(contents)mavweb"}: viewer.html and viewer.css from
# VIEWER_DIR/src; viewer.js, the concatenation of VIEWER_DIR/src/js/*.js in
# file-name order joined by newlines; and elkjs's elk.bundled.js from
# VIEWER_DIR/node_modules (installed by scripts/install-deps.sh with npm ci).
file(GLOB scripts "${VIEWER_DIR}/src/js/*.js")
list(SORT scripts)
if(NOT scripts)
  message(FATAL_ERROR "${VIEWER_DIR}/src/js holds no .js file")
endif()
set(script "")
set(separator "")
foreach(part ${scripts})
  file(READ "${part}" contents)
  string(APPEND script "${separator}${contents}")
  set(separator "\n")
endforeach()
file(WRITE "${OUTPUT}.viewer.js" "${script}")

set(files
  "${VIEWER_DIR}/src/viewer.html"
  "${OUTPUT}.viewer.js"
  "${VIEWER_DIR}/src/viewer.css"
  "${VIEWER_DIR}/node_modules/elkjs/lib/elk.bundled.js")
set(names viewer.html viewer.js viewer.css elk.bundled.js)
set(text "// Generated from viewer/ by EmbedViewer.cmake.\n")
foreach(file name IN ZIP_LISTS files names)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} is missing: run scripts/install-deps.sh "
                        "(it installs elkjs with npm ci in viewer/)")
  endif()
  file(READ "${file}" contents)
  string(FIND "${contents}" ")mavweb\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter )mavweb\"")
  endif()
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
