# reef_set_warnings(target): one warning set for every Reef target.
function(reef_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter -Wno-restrict)
  if(REEF_FATAL_WARNINGS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# reef_qt_target(target): Qt targets never see Qt's keyword macros (they break libtorch headers).
function(reef_qt_target target)
  target_compile_definitions(${target} PUBLIC QT_NO_KEYWORDS)
  set_target_properties(${target} PROPERTIES AUTOMOC ON AUTORCC ON)
  reef_set_warnings(${target})
endfunction()
