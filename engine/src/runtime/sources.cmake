# runtime sources of reef_engine: device, SDPA policy, compile modes, perf, bench
target_sources(reef_engine PRIVATE
  src/runtime/device.cpp
)
