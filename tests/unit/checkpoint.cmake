# checkpoint I/O tests (engine/src/checkpoint): all fast, no model files.
reef_add_test(tst_checkpoint_safetensors SOURCES tst_checkpoint_safetensors.cpp LABELS unit TORCH)
reef_add_test(tst_checkpoint_pth SOURCES tst_checkpoint_pth.cpp LABELS unit TORCH)
# Cross-checks with real Python torch; skipped (exit 77) without REEF_VENV_PYTHON.
reef_add_test(tst_checkpoint_python SOURCES tst_checkpoint_python.cpp LABELS unit TORCH
  ENV "REEF_VENV_PYTHON=${REEF_VENV_PYTHON}")
