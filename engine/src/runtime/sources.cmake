# runtime sources of reef_engine: device, SDPA policy, attention dispatch, the loaded pipeline,
# synthesis (generate_long + streaming audio + metrics), the bench and its report, demo models
target_sources(reef_engine PRIVATE
  src/runtime/device.cpp
  src/runtime/sdpa_policy.cpp
  src/runtime/attention.cpp
  src/runtime/bench_arm.cpp
  src/runtime/bench_report.cpp
  src/runtime/bench_runner.cpp
  src/runtime/pipeline.cpp
  src/runtime/synthesis.cpp
  src/runtime/demo_model.cpp
  src/runtime/cuda_memory.cpp
)
