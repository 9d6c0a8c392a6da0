"""The C/C++ family: make and the compilers, cmake --build and ctest."""
