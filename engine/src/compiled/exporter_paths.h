// Where the AOTInductor exporter script and the Python that runs it are (compile_python.cpp).
#pragma once
#include <string>

namespace reef {

// $REEF_AOTI_EXPORTER, the installed copy beside the program (<prefix>/share/reef/python), else
// the source tree this build came from.
std::string exporter_path();
// The interpreter compile_python_info() chose ("python3" when none is ready, so the error names it).
std::string exporter_python();

}  // namespace reef
