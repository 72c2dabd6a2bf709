# Tokenizer + prompt builder tests (no model files: demo tokenizers are written on the fly).
reef_add_test(tst_tokenizer SOURCES tst_tokenizer.cpp LIBS reef_engine LABELS unit TORCH)
