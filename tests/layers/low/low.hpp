// Part of the layering test tree (tests/CMakeLists.txt): an include of its own layer.
#pragma once
