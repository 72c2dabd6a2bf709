# text2semantic tokenizer + prompt builder sources of reef_engine.
target_sources(reef_engine PRIVATE
  src/text2semantic/tokenizer.cpp
  src/text2semantic/tokenizer_utf8.cpp
  src/text2semantic/tokenizer_regex.cpp
  src/text2semantic/tokenizer_specials.cpp
  src/text2semantic/tokenizer_nfc.cpp
  src/text2semantic/tokenizer_hf.cpp
  src/text2semantic/tokenizer_tiktoken.cpp
  src/text2semantic/demo_tokenizer.cpp
  src/text2semantic/prompt_builder.cpp
)
