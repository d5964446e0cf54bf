# libFuzzer builds (BATCHSCOPE_FUZZ): clang only. Every target is compiled with coverage
# instrumentation and ASan + UBSan (so a crash, an overflow or undefined behaviour in a reader
# stops the fuzzer with a reproducer); the fuzz targets in tests/fuzz also link libFuzzer's main.
# Meant for a build folder of its own without Qt (scripts/fuzz configures build/fuzz with
# -DBATCHSCOPE_BUILD_GUI=OFF -DBATCHSCOPE_BUILD_TESTS=OFF).
if(NOT BATCHSCOPE_FUZZ)
    return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "BATCHSCOPE_FUZZ needs clang's libFuzzer; configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ (compiler here: ${CMAKE_CXX_COMPILER_ID})")
endif()
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer")
check_cxx_source_compiles([[
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
]] BATCHSCOPE_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT BATCHSCOPE_HAVE_LIBFUZZER)
    message(FATAL_ERROR "BATCHSCOPE_FUZZ: clang cannot link -fsanitize=fuzzer; install the "
                        "libFuzzer runtime (Debian: libclang-rt-14-dev, see scripts/bootstrap)")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                    -fno-sanitize-recover=undefined)
add_link_options(-fsanitize=address,undefined)

# batchscope_add_fuzzer(<name> SOURCES <files...>): one libFuzzer executable linked against core,
# collected in build/<dir>/fuzz/ and in the `fuzz_all` target.
function(batchscope_add_fuzzer name)
    cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE batchscope_core)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    batchscope_set_warnings(${name})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/fuzz")
    if(NOT TARGET fuzz_all)
        add_custom_target(fuzz_all)
    endif()
    add_dependencies(fuzz_all ${name})
endfunction()
