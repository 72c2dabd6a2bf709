# building blocks shared by the text2semantic model and the codec transformer: RoPE, RMSNorm,
# the one attention entry point (backend observed per call site), the SDPA policy guard, the GEMV
# that decode's projections go through on the CPU
target_sources(reef_engine PRIVATE
  src/nn/llama_ops.cpp
  src/nn/row_kernels.cpp
  src/nn/attention.cpp
  src/nn/reef_attention.cpp
  src/nn/sdpa_policy.cpp
  src/nn/gemv.cpp
  src/nn/gemv_team.cpp
  src/nn/linear.cpp
  src/nn/linear_make.cpp
)
