# facade and shared pieces of reef_engine
target_sources(reef_engine PRIVATE
  src/types.cpp
  src/backend.cpp
  src/sampling_settings.cpp
  src/engine.cpp
  src/version.cpp
  src/memory_check.cpp
  src/cgroup_memory.cpp
)
