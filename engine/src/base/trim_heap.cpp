#include "base/trim_heap.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace reef {

void trim_heap() {
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

}  // namespace reef
