// Must not compile (tests/CMakeLists.txt): a back-end's dispatch inside
// KATA_EXHAUSTIVE_BEGIN that misses a kind of runtime/ops.hpp, even behind a default.
#include "runtime/ops.hpp"

KATA_EXHAUSTIVE_BEGIN
int dispatch(kata::Op op) {
  switch (op) {
    case kata::Op::jump: return 1;
    default: return 0;
  }
}
KATA_EXHAUSTIVE_END
