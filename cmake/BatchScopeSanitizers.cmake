# ASan + UBSan for the whole tree when BATCHSCOPE_SANITIZE is on (the asan preset).
if(BATCHSCOPE_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()
