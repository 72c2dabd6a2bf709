# codec sources of reef_engine: fish-speech's modded DAC (spec §5)
target_sources(reef_engine PRIVATE
  src/codec/codec_config.cpp
  src/codec/codec_weights.cpp
  src/codec/codec_layers.cpp
  src/codec/codec_transformer.cpp
  src/codec/codec_quantizer.cpp
  src/codec/codec.cpp
  src/codec/codec_folder.cpp
  src/codec/streaming_decoder.cpp
  src/codec/demo_codec.cpp
)
