target_sources(batchscope_core PRIVATE
    figure/palette.cpp
    figure/svgfigure.cpp)
