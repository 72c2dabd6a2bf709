# base sources of reef_engine, below every other layer (docs/architecture.md): how loaded weights
# and KV caches are held in memory (huge-page-advised, aligned), CUDA memory figures, timing helpers
# (perf.h) and the REEF_* kernel switches. base/ includes nothing from the engine's other folders.
target_sources(reef_engine PRIVATE
  src/base/weight_memory.cpp
  src/base/huge_page_advice.cpp
  src/base/trim_heap.cpp
  src/base/cuda_memory.cpp
  src/base/cpu_cores.cpp
  src/base/thread_governor.cpp
)
