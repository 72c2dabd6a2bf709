# facade and shared pieces of reef_engine (docs/architecture.md: demo_model.cpp makes demo models
# through the facade's own types, so it sits with the facade)
target_sources(reef_engine PRIVATE
  src/types.cpp
  src/config_conflict.cpp
  src/backend.cpp
  src/sampling_settings.cpp
  src/engine.cpp
  src/demo_model.cpp
  src/quantize_model.cpp
  src/model_folder_size.cpp
  src/version.cpp
  src/memory_check.cpp
  src/cgroup_memory.cpp
)
