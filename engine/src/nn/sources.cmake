# building blocks shared by the text2semantic model and the codec transformer: RoPE, RMSNorm,
# the one attention entry point (backend observed per call site) and the SDPA policy guard
target_sources(reef_engine PRIVATE
  src/nn/llama_ops.cpp
  src/nn/attention.cpp
  src/nn/sdpa_policy.cpp
)
