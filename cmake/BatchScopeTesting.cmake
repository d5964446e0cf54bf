# batchscope_add_test(<name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>] [TIMEOUT <s>])
#
# One Qt Test executable registered with CTest. Every test runs offscreen and knows where the
# source tree (for tests/data) and the shared real-measurement folder are.

function(batchscope_add_test name)
    cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} Qt6::Test batchscope_testsupport)
    batchscope_set_warnings(${name})
    batchscope_set_qt_defines(${name})
    add_test(NAME ${name} COMMAND ${name})
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 300)
    endif()
    set_tests_properties(${name} PROPERTIES
        TIMEOUT ${ARG_TIMEOUT}
        LABELS "${ARG_LABELS}"
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;BATCHSCOPE_SOURCE_DIR=${PROJECT_SOURCE_DIR};BATCHSCOPE_BINARY_DIR=${PROJECT_BINARY_DIR}")
endfunction()

# Registers one test per tst_*.cpp in the calling folder, each linked against LIBS.
function(batchscope_add_tests_in_folder)
    cmake_parse_arguments(ARG "" "" "LIBS;LABELS" ${ARGN})
    file(GLOB tests CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/tst_*.cpp")
    foreach(source IN LISTS tests)
        get_filename_component(name "${source}" NAME_WE)
        batchscope_add_test(${name} SOURCES ${source} LIBS ${ARG_LIBS} LABELS ${ARG_LABELS})
    endforeach()
endfunction()

# batchscope_add_benchmark(<name> SOURCES <files...> LIBS <targets...>)
#
# A benchmark executable in tests/bench: it prints figures (medians, ratios, MB/s) and is run by
# scripts/bench, never by CTest, so a noisy shared machine cannot fail the test suite.
function(batchscope_add_benchmark name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS})
    batchscope_set_warnings(${name})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bench")
endfunction()
