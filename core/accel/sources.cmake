target_sources(batchscope_core PRIVATE
    accel/acceleratorspec.cpp
    accel/calibration.cpp
    accel/fitreport.cpp
    accel/identifiability.cpp
    accel/levenbergmarquardt.cpp
    accel/model.cpp
    accel/modelparams.cpp
    accel/precision.cpp
    accel/presetlibrary.cpp
    accel/specjson.cpp
    accel/sweepsamples.cpp
    accel/workloadspec.cpp)

# The shipped presets are compiled in (PresetLibrary::builtIn()), regenerated when a preset
# file changes.
file(GLOB accel_preset_files CONFIGURE_DEPENDS
    "${PROJECT_SOURCE_DIR}/resources/presets/accelerators/*.json"
    "${PROJECT_SOURCE_DIR}/resources/presets/workloads/*.json"
    "${PROJECT_SOURCE_DIR}/resources/presets/models/*.json")
set(accel_embedded_presets "${CMAKE_CURRENT_BINARY_DIR}/generated/accel/embeddedpresets.cpp")
add_custom_command(OUTPUT "${accel_embedded_presets}"
    COMMAND "${CMAKE_COMMAND}" "-DPRESET_DIR=${PROJECT_SOURCE_DIR}/resources/presets"
            "-DOUT=${accel_embedded_presets}" -P "${CMAKE_CURRENT_SOURCE_DIR}/accel/embedpresets.cmake"
    DEPENDS ${accel_preset_files} "${CMAKE_CURRENT_SOURCE_DIR}/accel/embedpresets.cmake"
    COMMENT "Embedding accelerator and workload presets"
    VERBATIM)
target_sources(batchscope_core PRIVATE "${accel_embedded_presets}")
