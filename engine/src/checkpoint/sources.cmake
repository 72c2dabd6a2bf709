# checkpoint sources of reef_engine
target_sources(reef_engine PRIVATE
  src/checkpoint/atomic_file.cpp
  src/checkpoint/dtype_names.cpp
  src/checkpoint/model_file.cpp
  src/checkpoint/safetensors_read.cpp
  src/checkpoint/safetensors_write.cpp
  src/checkpoint/pickle_reader.cpp
  src/checkpoint/pickle_writer.cpp
  src/checkpoint/pth_reader.cpp
  src/checkpoint/verify.cpp
)
