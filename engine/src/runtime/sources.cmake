# runtime sources of reef_engine: device, SDPA policy, attention dispatch, compile modes, perf, bench
target_sources(reef_engine PRIVATE
  src/runtime/device.cpp
  src/runtime/sdpa_policy.cpp
  src/runtime/attention.cpp
  src/runtime/bench_arm.cpp
  src/runtime/bench_report.cpp
)
