# flockscope_figures: the figures of runs and sweeps, and Explore setups (also built by the
# fuzz build, which reads setups without the rest of app/).
add_library(flockscope_figures STATIC ${CMAKE_CURRENT_LIST_DIR}/figures.cpp ${CMAKE_CURRENT_LIST_DIR}/explore_setup.cpp)
target_include_directories(flockscope_figures PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(flockscope_figures PUBLIC flockscope::core flockscope::plot flockscope::experiments)
flockscope_warnings(flockscope_figures)
