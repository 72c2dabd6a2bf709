# Writes reef-cli's man page from its own --help (help2man), so the page cannot drift from the
# program: the top-level help and version through help2man, every subcommand's --help as a
# SUBCOMMANDS section, and the hand-written examples/files sections from reef-cli.h2m.
# cmake -DCLI=<reef-cli> -DHELP2MAN=<help2man> -DGZIP=<gzip> -DEXTRA=<reef-cli.h2m> -DWORK=<dir> -DOUT=<reef-cli.1.gz> -P make_man.cmake
foreach(var CLI HELP2MAN GZIP EXTRA WORK OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "make_man.cmake: -D${var}= is required")
  endif()
endforeach()

# Run the program as plain "reef-cli" from PATH, so its usage lines name the command a user types
# rather than the build-tree path.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/bin")
file(CREATE_LINK "${CLI}" "${WORK}/bin/reef-cli" SYMBOLIC)
set(run_env "${CMAKE_COMMAND}" -E env "PATH=${WORK}/bin:$ENV{PATH}")

function(run_help out_var)
  execute_process(COMMAND ${run_env} reef-cli ${ARGN} --help
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "reef-cli ${ARGN} --help failed (${rc}): ${err}")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# roff-safe verbatim block: backslashes escaped, lines that start with . or ' protected
function(roff_verbatim out_var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

run_help(top)
string(FIND "${top}" "Subcommands:" at)
if(at LESS 0)
  message(FATAL_ERROR "reef-cli --help lists no subcommands")
endif()
string(SUBSTRING "${top}" ${at} -1 listing)
string(REGEX MATCHALL "\n  ([a-z][a-z0-9-]*) " entries "${listing}")

set(include "[SUBCOMMANDS]\nEach subcommand has its own options; \\fBreef-cli\\fR \\fIsubcommand\\fR \\fB--help\\fR prints them.\n")
foreach(entry IN LISTS entries)
  string(STRIP "${entry}" sub)
  run_help(sub_help ${sub})
  roff_verbatim(block "${sub_help}")
  string(APPEND include ".SS \"reef-cli ${sub}\"\n${block}")
endforeach()
file(READ "${EXTRA}" extra)
file(WRITE "${WORK}/include.h2m" "${include}\n${extra}")

# The man page is reef-cli's, not "Reef"'s as the first line of --version says; the version
# number itself comes from the program.
execute_process(COMMAND ${run_env} reef-cli --version OUTPUT_VARIABLE version_text RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT version_text MATCHES "^Reef ([0-9][^ \n]*)")
  message(FATAL_ERROR "reef-cli --version printed no version: ${version_text}")
endif()
execute_process(COMMAND ${run_env} "${HELP2MAN}" --no-info --section=1 "--version-string=reef-cli ${CMAKE_MATCH_1}"
                        "--name=fish-speech text-to-speech and the SDPA A/B bench, without a display"
                        "--include=${WORK}/include.h2m" "--output=${WORK}/reef-cli.1" reef-cli
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc}): ${err}")
endif()
# Debian installs man pages compressed with gzip -9n (no name, no timestamp: reproducible)
execute_process(COMMAND "${GZIP}" -9nf "${WORK}/reef-cli.1" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed (${rc})")
endif()
file(RENAME "${WORK}/reef-cli.1.gz" "${OUT}")
