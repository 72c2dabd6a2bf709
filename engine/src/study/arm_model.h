// The weights a bench arm decodes with. A ":int8" or ":int4[-gN]" arm runs a quantized copy of the
// loaded model, made once per bench and format and kept in `Spares`; every part of the bench that
// runs an arm (its repeats, the audio and profile runs, the context sweep, the batch table) holds
// an ArmModel for the run, so no part of the report measures the loaded weights under a quantized
// arm's name.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "reef/bench.h"
#include "runtime/pipeline.h"
#include "text2semantic/model_weights.h"

namespace reef {

class ArmModel {
public:
    using Spares = std::map<std::string, std::unique_ptr<DualArModel>>;  // format name -> the copy
    // Swaps the arm's copy into p for this object's life (nothing when the arm runs the loaded
    // weights, or the loaded model is quantized already); p's caches start over on each swap, so no
    // head rows or buffers of one model serve the other.
    ArmModel(Pipeline& p, Spares& spares, const BenchArm& arm);
    ~ArmModel();
    ArmModel(const ArmModel&) = delete;
    ArmModel& operator=(const ArmModel&) = delete;

    static WeightFormat format_of(const BenchArm& arm);

private:
    void swap();
    Pipeline& m_p;
    std::unique_ptr<DualArModel>& m_spare;
    bool m_swapped = false;
};

}  // namespace reef
