// The Catch2 main for kata_tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
