# flockscope_warnings(target): our own code builds with these warnings and must stay clean.
# A switch over an enum that misses one of its values is an error: the switches over the
# message types (MsgType) have no default, so a new message cannot be forgotten in one.
function(flockscope_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion -Wno-psabi -Werror=switch)
endfunction()
