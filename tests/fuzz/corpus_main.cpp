// Replays a harness over its corpus without libFuzzer, so the normal (gcc) build and the sanitizer
// build run every harness as a test: `fuzz_X_replay FILE_OR_DIR...`. Fails when nothing was read.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path p(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file() && replay(e.path())) ++inputs;
    } else if (replay(p)) {
      ++inputs;
    } else {
      std::fprintf(stderr, "%s: cannot be read\n", argv[i]);
      return 1;
    }
  }
  std::printf("%zu inputs replayed without a crash or a broken property\n", inputs);
  return inputs > 0 ? 0 : 1;
}
