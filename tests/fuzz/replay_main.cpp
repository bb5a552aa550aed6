// Replays a libFuzzer target's corpus as an ordinary test, so the fuzz corpora run in the normal
// (gcc) build without clang or libFuzzer: links with one tests/fuzz/fuzz_*.cpp, calls
// its LLVMFuzzerInitialize (if it has one), then LLVMFuzzerTestOneInput on every file under the
// directories (or files) given, in name order.
//
// Fails with exit status 1 when an exception escapes the target, when the target returns anything
// but 0 or −1, or when no input was found (a lost corpus must not pass); a crash or a failed
// fuzz::require (abort) fails the process. Each input's name is printed before it runs, so the
// log names the input that crashed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    // Absolute paths first: a target's initializer may change the working directory.
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path p = fs::absolute(argv[i]);
        if (fs::is_directory(p)) {
            for (const auto& entry : fs::recursive_directory_iterator(p))
                if (entry.is_regular_file())
                    inputs.push_back(entry.path());
        } else if (fs::is_regular_file(p)) {
            inputs.push_back(p);
        } else {
            std::cerr << "replay: " << p.string() << " is neither a file nor a folder\n";
            return 1;
        }
    }
    std::sort(inputs.begin(), inputs.end());
    if (inputs.empty()) {
        std::cerr << "replay: no inputs; usage: " << argv[0] << " CORPUS_DIR_OR_FILE…\n";
        return 1;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    std::size_t failed = 0;
    for (const fs::path& p : inputs) {
        std::ifstream in(p, std::ios::binary);
        const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        std::cout << "replay: " << p.filename().string() << " (" << bytes.size() << " bytes)" << std::endl;
        try {
            const int rc = LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            if (rc != 0 && rc != -1) {
                std::cerr << "replay: " << p.string() << ": the target returned " << rc << "\n";
                ++failed;
            }
        } catch (const std::exception& e) {
            std::cerr << "replay: " << p.string() << ": an exception escaped the target: " << e.what() << "\n";
            ++failed;
        } catch (...) {
            std::cerr << "replay: " << p.string() << ": an exception of unknown type escaped the target\n";
            ++failed;
        }
    }
    std::cout << "replay: " << inputs.size() << " inputs, " << failed << " failed" << std::endl;
    return failed == 0 ? 0 : 1;
}
