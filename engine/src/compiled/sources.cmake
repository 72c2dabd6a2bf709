# The compiled arm (compile mode aot-inductor): the exporter's child process, the package cache
# (its private folder and entries: package_cache; what goes in an entry: aoti_package),
# and the AOTInductor-loaded decode step (the one translation unit with the loader header).
target_sources(reef_engine PRIVATE
  src/compiled/subprocess.cpp
  src/compiled/package_cache.cpp
  src/compiled/aoti_package.cpp
  src/compiled/aoti_decode_step.cpp
)
target_compile_definitions(reef_engine PRIVATE
  REEF_SOURCE_EXPORTER="${CMAKE_CURRENT_SOURCE_DIR}/python/reef_aoti_export.py")
if(REEF_VENV_PYTHON)
  target_compile_definitions(reef_engine PRIVATE REEF_DEFAULT_PYTHON="${REEF_VENV_PYTHON}")
endif()
