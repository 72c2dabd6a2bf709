// Precompiled header of reef_engine: the libtorch API the engine uses (ATen ops, no torch::nn).
#pragma once
#include <ATen/ATen.h>
#include <c10/core/InferenceMode.h>
#include <torch/types.h>
