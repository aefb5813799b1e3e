// A layer that reaches up: tests/CMakeLists.txt checks that cmake/KataLayers.cmake
// refuses this include unless `low` names `high` among its layers.
#include "low/low.hpp"
#include "high/high.hpp"
