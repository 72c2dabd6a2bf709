# text2semantic model tests: config, sampler, KV cache, dual-AR model, generator (tiny in-memory models).
reef_add_test(tst_model_config SOURCES tst_model_config.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_sampler SOURCES tst_sampler.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_dual_ar SOURCES tst_dual_ar.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_kv_cache SOURCES tst_kv_cache.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_generator SOURCES tst_generator.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_demo_text2semantic SOURCES tst_demo_text2semantic.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_batch_generate SOURCES tst_batch_generate.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_static_step SOURCES tst_static_step.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_gemv SOURCES tst_gemv.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_gemv_team SOURCES tst_gemv_team.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
reef_add_test(tst_reef_attention SOURCES tst_reef_attention.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
# Not a test: the timing harness of the team's split decode attention (bench/attention_split_timing.cpp),
# built here so it keeps compiling.
add_executable(attention_split_timing ${CMAKE_SOURCE_DIR}/bench/attention_split_timing.cpp)
target_link_libraries(attention_split_timing PRIVATE reef_engine reef_engine_internal)
target_precompile_headers(attention_split_timing REUSE_FROM reef_engine)
reef_add_test(tst_quantize SOURCES tst_quantize.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
