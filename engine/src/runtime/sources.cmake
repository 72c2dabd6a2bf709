# runtime sources of reef_engine, the product path: device, the loaded pipeline, synthesis
# (generate_long + streaming audio + metrics), the codec worker. What measures it
# (the bench, the SDPA kernel bench, the roofline, reports) is study/, above it: runtime/ never
# includes study/.
target_sources(reef_engine PRIVATE
  src/runtime/device.cpp
  src/runtime/pipeline.cpp
  src/runtime/synthesis.cpp
  src/runtime/synthesis_batch.cpp
  src/runtime/codec_worker.cpp
  src/runtime/cpu_kernels.cpp
)
