reef_add_test(tst_sdpa_policy SOURCES tst_sdpa_policy.cpp LABELS unit TORCH)
reef_add_test(tst_bench_report SOURCES tst_bench_report.cpp LIBS reef_engine nlohmann_json::nlohmann_json LABELS unit)
reef_add_test(tst_sdpa_bench SOURCES tst_sdpa_bench.cpp LIBS reef_engine nlohmann_json::nlohmann_json LABELS unit)
