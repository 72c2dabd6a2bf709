// A bench arm's CPU target ("eager:auto@avx2"): the SIMD kernels run that target for one run and
// go back to the one before afterwards, so targets are compared within one bench run (arms
// interleave) instead of across processes on a machine whose speed drifts between minutes.
#pragma once
#include <string>

namespace reef {

class CpuTargetScope {
public:
    // "" changes nothing. Throws ReefError(UnsupportedDevice) naming the targets this CPU runs when
    // it cannot run `target` (or the build has no SIMD kernels). Engine thread, no kernels running.
    explicit CpuTargetScope(const std::string& target);
    ~CpuTargetScope();
    CpuTargetScope(const CpuTargetScope&) = delete;
    CpuTargetScope& operator=(const CpuTargetScope&) = delete;

private:
    std::string m_previous;  // "" when nothing was changed
};

}  // namespace reef
