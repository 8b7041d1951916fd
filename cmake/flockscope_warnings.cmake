# flockscope_warnings(target): our own code builds with these warnings and must stay clean.
function(flockscope_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion -Wno-psabi)
endfunction()
