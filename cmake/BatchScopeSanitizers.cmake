# ASan + UBSan for the whole tree when BATCHSCOPE_SANITIZE is on (the asan preset).
# -O1 as the sanitizer documentation recommends: unoptimised JSON parsing under ASan made the
# project-file tests take minutes (a 3 MB project parsed in about 20 s), while -O1 keeps stack
# traces exact enough to read.
if(BATCHSCOPE_SANITIZE)
    add_compile_options(-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
endif()
