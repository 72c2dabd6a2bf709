# study sources of reef_engine: what measures the product path for fish-speech #1337 — the A/B
# bench (arms, runner, context sweep, reports, the PR report), the roofline and its bandwidth
# probe, the op profile, the host description, and the SDPA kernel bench. Built on runtime/;
# runtime/ never includes study/.
target_sources(reef_engine PRIVATE
  src/study/arm_model.cpp
  src/study/bench_arm.cpp
  src/study/bench_report.cpp
  src/study/bench_runner.cpp
  src/study/bench_sweep.cpp
  src/study/bench_batch.cpp
  src/study/bench_pr_report.cpp
  src/study/roofline.cpp
  src/study/op_profile.cpp
  src/study/host_info.cpp
  src/study/sdpa_case.cpp
  src/study/sdpa_bench_runner.cpp
  src/study/sdpa_bench_report.cpp
)
