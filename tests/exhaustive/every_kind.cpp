// Must compile (tests/CMakeLists.txt): a dispatch whose cases come from the table.
#include "runtime/ops.hpp"

KATA_EXHAUSTIVE_BEGIN
int dispatch(kata::Op op, kata::NodeOp node) {
  switch (op) {
    KATA_INSTRUCTIONS(KATA_OP_CASE) return 1;
  }
  switch (node) {
    KATA_LEAF_NODES(KATA_NODE_CASE) return 2;
    KATA_INNER_NODES(KATA_NODE_CASE)
    KATA_REST_NODES(KATA_NODE_CASE)
    KATA_LIST_NODES(KATA_NODE_CASE) return 3;
  }
  return 0;
}
KATA_EXHAUSTIVE_END
