#!/bin/sh
# Capture tests/logdata/cmake-ninja-build.log: configure and verbose build (`cmake --build build -v`,
# ninja, -k 0 so every job runs) of a small generated C code base: 300 codec modules in a static
# library, a tool linked against it, a few modules with real gcc -Wall -Wextra warnings and one
# with a compile error, so the build fails at the end. Output 2>&1, as a terminal shows it.
# usage: scripts/logdata/cmake_ninja.sh   (installs cmake, ninja-build and gcc with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v cmake >/dev/null 2>&1 || apt-get install -y -q cmake >/dev/null
command -v ninja >/dev/null 2>&1 || apt-get install -y -q ninja-build >/dev/null
tmp=$(mktemp -d /tmp/rtk-cmake.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/proj/src"
cd "$tmp/proj"
python3 - <<'PY'
from pathlib import Path
src = Path("src")
names = []
for i in range(300):
    name = f"codec_{i:03d}"
    names.append(name)
    body = f"int {name}_encode(const unsigned char *in, int n, unsigned char *out) {{\n"
    body += f"    for (int k = 0; k < n; k++) out[k] = (unsigned char)(in[k] ^ {i % 251});\n    return n;\n}}\n"
    if i in (17, 88):  # unused variable
        body += f"int {name}_check(int v) {{\n    int unused = v * 2;\n    return v > 0;\n}}\n"
    if i in (42, 150, 201):  # signed/unsigned comparison
        body += f"int {name}_fits(int n, unsigned int cap) {{\n    return n < cap;\n}}\n"
    if i == 99:  # missing return
        body += f"int {name}_level(int v) {{\n    if (v > 3) return 1;\n}}\n"
    if i == 233:  # a real error: undeclared identifier
        body += f"int {name}_size(void) {{\n    return CODEC_MAX_FRAME;\n}}\n"
    (src / f"{name}.c").write_text(body)
decl = "".join(f"int {n}_encode(const unsigned char *in, int n, unsigned char *out);\n" for n in names)
calls = "".join(f"    total += {n}_encode(buf, 8, out);\n" for n in names[:5])
(src / "tool.c").write_text(
    "#include <stdio.h>\n" + decl + "int main(void) {\n    unsigned char buf[8] = {0}, out[8];\n"
    "    int total = 0;\n" + calls + '    printf("%d\\n", total);\n    return 0;\n}\n'
)
Path("CMakeLists.txt").write_text(
    "cmake_minimum_required(VERSION 3.20)\nproject(codecs C)\n"
    "add_compile_options(-Wall -Wextra)\n"
    "file(GLOB CODECS src/codec_*.c)\n"
    "add_library(codecs STATIC ${CODECS})\n"
    "add_executable(codec-tool src/tool.c)\n"
    "target_link_libraries(codec-tool codecs)\n"
)
PY
rc=0
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build -v -- -k 0; } > "$tmp/out.log" 2>&1 || rc=$?
cp "$tmp/out.log" "$repo/tests/logdata/cmake-ninja-build.log"
python3 "$here/record.py" cmake-ninja-build --kind output \
  --argv '["sh", "-c", "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build -v -- -k 0"]' \
  --command "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build -v -- -k 0 (2>&1)" --exit $rc \
  --script scripts/logdata/cmake_ninja.sh --tool "$(cmake --version | head -1)" --tool "ninja $(ninja --version)" \
  --tool "$(gcc --version | head -1)"
