# The compiled arm (compile mode aot-inductor): the exporter's child process, the package cache
# (its private folder and entries: package_cache; what goes in an entry: aoti_package),
# and the AOTInductor-loaded decode step (the one translation unit with the loader header).
target_sources(reef_engine PRIVATE
  src/compiled/subprocess.cpp
  src/compiled/compile_python.cpp
  src/compiled/package_cache.cpp
  src/compiled/aoti_package.cpp
  src/compiled/aoti_decode_step.cpp
)
# Where the exporter and the build's Python are: defined for the one file that asks, which keeps
# off the shared precompiled header (the tests reuse that header, and GCC ignores it for a
# translation unit whose macros differ from the ones it was built with).
set(reef_exporter_defs REEF_SOURCE_EXPORTER="${CMAKE_CURRENT_SOURCE_DIR}/python/reef_aoti_export.py")
if(REEF_VENV_PYTHON)
  list(APPEND reef_exporter_defs REEF_DEFAULT_PYTHON="${REEF_VENV_PYTHON}")
endif()
set_source_files_properties(src/compiled/compile_python.cpp PROPERTIES COMPILE_DEFINITIONS "${reef_exporter_defs}"
                            SKIP_PRECOMPILE_HEADERS ON)
