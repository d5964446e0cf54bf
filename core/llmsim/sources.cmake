target_sources(batchscope_core PRIVATE
    llmsim/blockpool.cpp
    llmsim/enginestate.cpp
    llmsim/gridtable.cpp
    llmsim/kvcapacity.cpp
    llmsim/llmengine.cpp
    llmsim/llmmetrics.cpp
    llmsim/llmresultjson.cpp
    llmsim/llmscenariojson.cpp
    llmsim/llmsimulator.cpp
    llmsim/modelshape.cpp
    llmsim/orcapolicy.cpp
    llmsim/profilesteptime.cpp
    llmsim/rooflinesteptime.cpp
    llmsim/steptimemodel.cpp
    llmsim/vllmv0policy.cpp
    llmsim/vllmv1policy.cpp)
