target_sources(batchscope_core PRIVATE
    llmsim/gridtable.cpp
    llmsim/llmengine.cpp
    llmsim/llmmetrics.cpp
    llmsim/llmresultjson.cpp
    llmsim/llmscenariojson.cpp
    llmsim/llmsimulator.cpp
    llmsim/profilesteptime.cpp
    llmsim/steptimemodel.cpp
    llmsim/vllmv1policy.cpp)
