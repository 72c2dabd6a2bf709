# text2semantic model sources of reef_engine: config, weights, layers, RoPE, KV cache, dual-AR
# model, sampler, generator, batched generator, demo writer.
target_sources(reef_engine PRIVATE
  src/text2semantic/model_config.cpp
  src/text2semantic/model_weights.cpp
  src/text2semantic/rope.cpp
  src/text2semantic/layers.cpp
  src/text2semantic/decode_block.cpp
  src/text2semantic/kv_cache.cpp
  src/text2semantic/prefix_kv_store.cpp
  src/text2semantic/dual_ar_model.cpp
  src/text2semantic/dual_ar_model_export.cpp
  src/text2semantic/dual_ar_model_quantized.cpp
  src/text2semantic/sampler.cpp
  src/text2semantic/top_p_cut.cpp
  src/text2semantic/sort_ranks.cpp
  src/text2semantic/uniform_draw.cpp
  src/text2semantic/generator.cpp
  src/text2semantic/batch_generator.cpp
  src/text2semantic/demo_text2semantic.cpp
  src/text2semantic/quantize_int8.cpp
  src/text2semantic/quantize_int4.cpp
)
