target_sources(batchscope_core PRIVATE
    playbook/memo.cpp)
