# Install-time helper (included from packaging/CMakeLists.txt's install(CODE)): copies into
# ${reef_libdir} every shared library that the build-tree programs ${reef_programs} load from
# outside the system library folders -- libtorch from the venv's wheel and its own neighbours
# (libc10, libgomp). The build-tree programs still carry the link-time RUNPATH, so this resolves
# exactly what the tests ran against. System libraries stay dependencies of the package.
file(GET_RUNTIME_DEPENDENCIES
  EXECUTABLES ${reef_programs}
  RESOLVED_DEPENDENCIES_VAR reef_resolved
  UNRESOLVED_DEPENDENCIES_VAR reef_unresolved
  POST_EXCLUDE_REGEXES "^/(usr/)?lib(32|64|x32)?/"
)
if(reef_unresolved)
  message(FATAL_ERROR "reef: cannot bundle, unresolved shared libraries: ${reef_unresolved}")
endif()
if(NOT reef_resolved)
  message(FATAL_ERROR "reef: found no libtorch to bundle next to ${reef_programs}")
endif()
foreach(lib IN LISTS reef_resolved)
  # FOLLOW_SYMLINK_CHAIN keeps the soname the programs ask for, whatever file it points to
  file(INSTALL DESTINATION "${reef_libdir}" TYPE SHARED_LIBRARY FOLLOW_SYMLINK_CHAIN FILES "${lib}")
  get_filename_component(name "${lib}" NAME)
  if(CMAKE_INSTALL_DO_STRIP AND reef_strip)
    execute_process(COMMAND "${reef_strip}" --strip-unneeded "$ENV{DESTDIR}${reef_libdir}/${name}"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "reef: strip failed on ${name}")
    endif()
  endif()
endforeach()
