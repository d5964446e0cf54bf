target_sources(batchscope_core PRIVATE
    util/decimate.cpp
    util/error.cpp
    util/hostinfo.cpp
    util/htmlescape.cpp
    util/numbertext.cpp
    util/progress.cpp
    util/sha256.cpp
    util/threadpool.cpp
    util/threadpriority.cpp)
