# Tokenizer + prompt builder tests (no model files: demo tokenizers are written on the fly).
reef_add_test(tst_tokenizer SOURCES tst_tokenizer.cpp LIBS reef_engine LABELS unit TORCH)
set_source_files_properties(tst_tokenizer.cpp PROPERTIES SKIP_PRECOMPILE_HEADERS ON)  # no torch header
reef_add_test(tst_prompt_builder SOURCES tst_prompt_builder.cpp LIBS reef_engine LABELS unit TORCH)
