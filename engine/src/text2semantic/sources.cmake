# text2semantic sources of reef_engine, in two lists owned by their areas:
# tokenizer + prompt builder, and model + cache + sampler + generator.
include(${CMAKE_CURRENT_LIST_DIR}/sources_tok.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources_model.cmake)
