// Part of the layering test tree (tests/CMakeLists.txt).
#pragma once
#include "low/low.hpp"
