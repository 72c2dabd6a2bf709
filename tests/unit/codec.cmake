# codec (engine/src/codec): tiny preset only, each binary well under a minute.
reef_add_test(tst_codec SOURCES tst_codec.cpp LABELS unit TORCH TIMEOUT 120)
reef_add_test(tst_codec_stream SOURCES tst_codec_stream.cpp LABELS unit TORCH TIMEOUT 120)
reef_add_test(tst_codec_worker SOURCES tst_codec_worker.cpp LABELS unit TORCH TIMEOUT 120)
reef_add_test(tst_codec_oracle SOURCES tst_codec_oracle.cpp LABELS unit TORCH TIMEOUT 120)
