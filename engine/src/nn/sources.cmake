# building blocks shared by the text2semantic model and the codec transformer
target_sources(reef_engine PRIVATE
  src/nn/llama_ops.cpp
)
