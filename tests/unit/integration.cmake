# The engine facade end to end on generated tiny demo models (no model files needed).
reef_add_test(tst_synthesize_batch SOURCES tst_synthesize_batch.cpp LIBS reef_engine LABELS unit)
reef_add_test(tst_engine_pipeline SOURCES tst_engine_pipeline.cpp LIBS reef_engine LABELS unit)
reef_add_test(tst_prefix_cache SOURCES tst_prefix_cache.cpp LIBS reef_engine LABELS unit)
reef_add_test(tst_bench SOURCES tst_bench.cpp LIBS reef_engine nlohmann_json::nlohmann_json LABELS unit TORCH)
add_test(NAME tst_cli_smoke COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_smoke.sh $<TARGET_FILE:reef-cli>)
set_tests_properties(tst_cli_smoke PROPERTIES LABELS unit TIMEOUT 600
  ENVIRONMENT "OMP_NUM_THREADS=1;REEF_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp;ALSA_CONFIG_PATH=${PROJECT_SOURCE_DIR}/tests/alsa/asound-test.conf;PA_TEST_OUT=${CMAKE_CURRENT_BINARY_DIR}/tmp/cli_play.wav")
# reef-cli project render (issue #48): needs the studio's project model (a GUI build) and ffmpeg.
if(REEF_BUILD_GUI)
  add_test(NAME tst_project_render COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/project_render.sh $<TARGET_FILE:reef-cli>)
  set_tests_properties(tst_project_render PROPERTIES LABELS unit TIMEOUT 300 SKIP_RETURN_CODE 77
    ENVIRONMENT "OMP_NUM_THREADS=1;REEF_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
endif()
# gpu: the CUDA path; skipped (77) on machines without a GPU.
# A build against a CUDA libtorch (C10_CUDA_LIBRARY) must report CUDA compiled in, GPU or not.
if(C10_CUDA_LIBRARY)
  reef_add_test(tst_gpu SOURCES tst_gpu.cpp LIBS reef_engine LABELS gpu ENV "REEF_EXPECT_CUDA=1")
else()
  reef_add_test(tst_gpu SOURCES tst_gpu.cpp LIBS reef_engine LABELS gpu)
endif()
# Hostile model folders and audio files (issue #13): clear errors, no signal, no hang, nothing written.
add_test(NAME tst_hostile_inputs_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/hostile_inputs.sh $<TARGET_FILE:reef-cli>)
set_tests_properties(tst_hostile_inputs_cli PROPERTIES LABELS unit TIMEOUT 300
  ENVIRONMENT "OMP_NUM_THREADS=1;REEF_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
reef_add_test(tst_hostile_inputs SOURCES tst_hostile_inputs.cpp LIBS reef_engine LABELS unit TORCH ENV OMP_NUM_THREADS=1)
add_test(NAME tst_pr_report COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/pr_report.sh $<TARGET_FILE:reef-cli> ${CMAKE_CURRENT_BINARY_DIR}/tmp)
set_tests_properties(tst_pr_report PROPERTIES LABELS unit TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "OMP_NUM_THREADS=1")
# reef-cli compile --setup for real (pip install torch, ~2 minutes, then a tiny compile): label venv,
# not compile, so CI's libtorch 2.8.0 step does not download that CUDA wheel's gigabytes again.
add_test(NAME tst_compile_setup COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compile_setup.sh $<TARGET_FILE:reef-cli> ${CMAKE_CURRENT_BINARY_DIR}/tmp)
set_tests_properties(tst_compile_setup PROPERTIES LABELS venv TIMEOUT 900 SKIP_RETURN_CODE 77 COST 80
  ENVIRONMENT "OMP_NUM_THREADS=1")
# Issue #13, failure while running: a real allocation failure (RLIMIT_AS lowered mid-synthesis) is
# an error value and the engine stays usable; the memory check reads cgroup limits (fake trees).
reef_add_test(tst_out_of_memory SOURCES tst_out_of_memory.cpp LIBS reef_engine LABELS unit TORCH TIMEOUT 120)
reef_add_test(tst_cgroup_memory SOURCES tst_cgroup_memory.cpp LIBS reef_engine LABELS unit TORCH)
# Issue #13 soak (scripts/soak.sh, `reef-cli soak`): a quick tiny-model form in unit; the tiny
# model's full 200 syntheses in label soak with -DREEF_LONG_TESTS=ON (the s1-mini-sized step is the
# script's alone).
add_test(NAME tst_soak_quick COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/soak.sh ${CMAKE_CURRENT_BINARY_DIR}/tmp/soak_quick)
set_tests_properties(tst_soak_quick PROPERTIES LABELS unit TIMEOUT 300
  ENVIRONMENT "REEF_CLI=$<TARGET_FILE:reef-cli>;OMP_NUM_THREADS=1;REEF_SOAK_S1MINI=none;REEF_SOAK_TINY_RUNS=40;REEF_SOAK_TINY_FRAMES=16;REEF_SOAK_TINY_CANCEL_EVERY=5;REEF_SOAK_TINY_WARMUP=10")
if(REEF_LONG_TESTS)   # a long campaign: registered on request, not part of CI's ./test.sh
  add_test(NAME tst_soak COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/soak.sh ${CMAKE_CURRENT_BINARY_DIR}/tmp/soak)
  set_tests_properties(tst_soak PROPERTIES LABELS soak TIMEOUT 1800
    ENVIRONMENT "REEF_CLI=$<TARGET_FILE:reef-cli>;OMP_NUM_THREADS=1;REEF_SOAK_S1MINI=none")
endif()
