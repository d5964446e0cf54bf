target_sources(batchscope_core PRIVATE
    data/dataset.cpp
    data/kerneltrace.cpp
    data/llmrun.cpp
    data/project.cpp
    data/runtags.cpp
    data/sweeptable.cpp
    data/tritonsettings.cpp)
