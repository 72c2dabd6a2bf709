reef_add_test(tst_sdpa_policy SOURCES tst_sdpa_policy.cpp LABELS unit TORCH)
reef_add_test(tst_roofline SOURCES tst_roofline.cpp LABELS unit TORCH)
reef_add_test(tst_row_kernels SOURCES tst_row_kernels.cpp LABELS unit TORCH)
reef_add_test(tst_bench_report SOURCES tst_bench_report.cpp LIBS reef_engine nlohmann_json::nlohmann_json LABELS unit)
reef_add_test(tst_sdpa_bench SOURCES tst_sdpa_bench.cpp LIBS reef_engine nlohmann_json::nlohmann_json LABELS unit)
reef_add_test(tst_package_cache SOURCES tst_package_cache.cpp LABELS unit TORCH)
reef_add_test(tst_subprocess SOURCES tst_subprocess.cpp LABELS unit TORCH)
# These two include no torch header: the engine's precompiled header (~3 s to load) is skipped.
set_source_files_properties(tst_package_cache.cpp tst_subprocess.cpp PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
# The compiled arm: AOTInductor packages compiled with the venv's torch (nine small compiles, about
# 45 s each on one core), in three entries that can run side by side: fp32 parity of each layout
# with the error cases, and bf16 (label compile: every libtorch CI builds, torch 2.8.0 included),
# and the package cache's own logic, the same whatever the torch (label aoti-cache: the main build's
# CI). They are the longest tests: their COST has ctest start them first, so that no core waits on
# one of them at the end (a fresh build has no timings of its own to order by).
set(_reef_compiled_s2 fp32_compiled_matches_eager_s2,no_python_or_wrong_torch_is_a_clear_error)
set(_reef_compiled_s1 fp32_compiled_matches_eager_s1,bf16_compiled_logits_within_tolerance)
reef_add_test(tst_compiled_step SOURCES tst_compiled_step.cpp LIBS reef_engine LABELS compile TORCH TIMEOUT 1200
  ENV OMP_NUM_THREADS=1 CASES ${_reef_compiled_s2})
reef_add_test_run(tst_compiled_step_s1 tst_compiled_step CASES ${_reef_compiled_s1} LABELS compile TIMEOUT 1200
  ENV OMP_NUM_THREADS=1)
reef_add_test_run(tst_compiled_step_cache tst_compiled_step CASES -${_reef_compiled_s2},${_reef_compiled_s1}
  LABELS aoti-cache TIMEOUT 1200 ENV OMP_NUM_THREADS=1)
set_tests_properties(tst_compiled_step tst_compiled_step_s1 tst_compiled_step_cache PROPERTIES COST 200)
if(REEF_LONG_TESTS)
  add_test(NAME tst_compiled_step_s1mini COMMAND tst_compiled_step
    fp32_compiled_matches_eager_s2,fp32_compiled_matches_eager_s1)
  set_tests_properties(tst_compiled_step_s1mini PROPERTIES LABELS compile-long TIMEOUT 3600
    ENVIRONMENT "REEF_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp;REEF_COMPILED_SIZE=s1-mini")
endif()
# Plain arithmetic on frame times: no torch header, no precompiled header.
reef_add_test(tst_thread_governor SOURCES tst_thread_governor.cpp ${PROJECT_SOURCE_DIR}/engine/src/base/thread_governor.cpp
  LABELS unit)
target_include_directories(tst_thread_governor PRIVATE ${PROJECT_SOURCE_DIR}/engine/src)
