# Warnings for every BatchScope target; -Werror when BATCHSCOPE_WERROR is on (CI and the dev preset).
function(batchscope_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
        -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
    if(BATCHSCOPE_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()

# The Qt string hygiene STYLE.md asks of every Qt target.
function(batchscope_set_qt_defines target)
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
        QT_USE_QSTRINGBUILDER QT_NO_URL_CAST_FROM_STRING QT_NO_KEYWORDS)
endfunction()
