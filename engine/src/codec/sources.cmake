# codec sources of reef_engine
target_sources(reef_engine PRIVATE)
