# runtime sources of reef_engine: device, the loaded pipeline,
# synthesis (generate_long + streaming audio + metrics), the codec worker, the bench, its roofline and report, demo models,
# the SDPA kernel bench (sdpa_*)
target_sources(reef_engine PRIVATE
  src/runtime/device.cpp
  src/runtime/bench_arm.cpp
  src/runtime/bench_report.cpp
  src/runtime/bench_runner.cpp
  src/runtime/pipeline.cpp
  src/runtime/synthesis.cpp
  src/runtime/codec_worker.cpp
  src/runtime/demo_model.cpp
  src/runtime/cuda_memory.cpp
  src/runtime/roofline.cpp
  src/runtime/op_profile.cpp
  src/runtime/host_info.cpp
  src/runtime/bench_sweep.cpp
  src/runtime/bench_pr_report.cpp
  src/runtime/sdpa_case.cpp
  src/runtime/sdpa_bench_runner.cpp
  src/runtime/sdpa_bench_report.cpp
)
