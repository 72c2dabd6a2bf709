#include "study/arm_model.h"

#include <utility>

namespace reef {

ArmModel::ArmModel(Pipeline& p, Spares& spares, const BenchArm& arm)
    : m_p(p), m_spare(spares[format_of(arm).name()]) {
    const WeightFormat format = format_of(arm);
    if (!format.bits || p.model->quantized()) return;
    if (!m_spare) m_spare = p.model->with_quantized_weights(format);
    swap();
}

ArmModel::~ArmModel() {
    if (m_swapped) swap();
}

WeightFormat ArmModel::format_of(const BenchArm& arm) {
    return arm.int8_weights ? WeightFormat::int8() : arm.int4_group ? WeightFormat::int4(arm.int4_group) : WeightFormat{};
}

void ArmModel::swap() {
    std::swap(m_p.model, m_spare);
    m_p.caches = Text2SemanticCaches{};
    m_swapped = !m_swapped;
}

}  // namespace reef
