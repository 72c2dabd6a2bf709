#include "qt/backend_router.h"

namespace reef::ui {

void BackendRouter::setServer(std::optional<ServerProfile> server) {
    std::lock_guard lock(m_mutex);
    m_server = std::move(server);
}

Result<ModelInfo> BackendRouter::load(const EngineConfig& config) {
    std::optional<ServerProfile> server;
    {
        std::lock_guard lock(m_mutex);
        server = m_server;
    }
    if (!server) {
        Result<ModelInfo> info = m_local->load(config);
        if (info) {
            m_active = m_local.get();
            m_remote.reset();
        }
        return info;
    }
#ifdef REEF_WITH_REMOTE
    std::unique_ptr<TtsBackend> candidate = make_remote_backend(*server);
    Result<ModelInfo> info = candidate->load(config);
    if (info) {
        m_remote = std::move(candidate);
        m_active = m_remote.get();
    }
    return info;
#else
    return EngineError{ErrorCode::BackendUnavailable, "this build of Reef has no remote backend (it needs libcurl)", {}};
#endif
}

}  // namespace reef::ui
