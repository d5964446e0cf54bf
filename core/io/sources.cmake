target_sources(batchscope_core PRIVATE
    io/atomicfile.cpp
    io/bytesource.cpp
    io/datasetjson.cpp
    io/jsonfields.cpp
    io/linereader.cpp
    io/projectfile.cpp)
