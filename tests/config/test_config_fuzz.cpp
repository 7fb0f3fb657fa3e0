// Configuration fuzzing (docs/configuration.md, "Fuzzing"): random configuration
// files, overlays, study files and --set strings either load or fail with a
// configuration error that names the key or the file and line; never another
// exception, a crash or a hang.
//
// Arguments (after --): the starfish binary. STARFISH_FUZZ_INPUTS (default 10000)
// and STARFISH_FUZZ_SEED (default 1) choose the inputs; scripts/fuzz_config.sh runs
// a million.
#include "sim/parameters.h"
#include "tests/config/config_fuzz.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using starfish::testing::ConfigFuzzer;
using starfish::testing::FuzzInput;
using starfish::testing::FuzzLayer;

namespace {

uint64_t env_number(const char *name, uint64_t fallback) {
    const char *v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

uint64_t input_count() {
    return env_number("STARFISH_FUZZ_INPUTS", 10000);
}

uint64_t fuzz_seed() {
    return env_number("STARFISH_FUZZ_SEED", 1);
}

const starfish::config::Registry &registry() {
    return starfish::sim::parameter_registry();
}

// Deprecation warnings (ddio.stagger given as 0/1) would flood the log.
struct QuietStderr {
    std::ostringstream sink;
    std::streambuf *saved = std::cerr.rdbuf(sink.rdbuf());
    ~QuietStderr() { std::cerr.rdbuf(saved); }
};

// The input as `starfish` arguments: files written to dir, --set kept whole.
// False when the command line cannot carry it (a NUL byte) or it holds a study.
bool command_line(const FuzzInput &in, const std::string &dir, std::vector<std::string> &args) {
    for (const auto &l : in.layers) {
        if (l.kind == FuzzLayer::Kind::Study ||
            (l.kind == FuzzLayer::Kind::Set && l.text.find('\0') != std::string::npos)) {
            return false;
        }
    }
    for (const auto &l : in.layers) {
        if (l.kind == FuzzLayer::Kind::File) {
            std::string path = dir + "/" + l.origin;
            std::ofstream(path, std::ios::binary) << l.text;
            args.push_back("--config=" + path);
        }
    }
    for (const auto &l : in.layers) {
        if (l.kind == FuzzLayer::Kind::Set) {
            args.push_back("--set=" + l.text);
        }
    }
    return true;
}

struct TempDir {
    std::string path;
    TempDir() {
        char name[] = "/tmp/starfish_fuzz_XXXXXX";
        path = ::mkdtemp(name);
    }
    ~TempDir() {
        for (int i = 0; i < 8; ++i) {
            std::remove((path + "/fuzz" + std::to_string(i) + ".json").c_str());
        }
        ::rmdir(path.c_str());
    }
};

// Runs `starfish <args>` and checks the exit status and the message.
void check_command(const std::vector<std::string> &args, const FuzzInput &in, int timeout_s,
                   uint64_t &ok, uint64_t &errors) {
    auto r = starfish::testing::run_process(args, timeout_s);
    BOOST_TEST_CONTEXT(in.describe()) {
        BOOST_TEST(!r.timed_out, "no exit after " << timeout_s << " s");
        BOOST_TEST((r.exit_status == 0 || r.exit_status == 2),
                   "exit status " << r.exit_status << ", stderr: " << r.err);
        if (r.exit_status == 2) {
            ++errors;
            BOOST_TEST_MESSAGE(in.describe() << "\n  exit 2: " << r.err);
            std::string why = starfish::testing::unplaced_error(registry(), r.err);
            BOOST_TEST(why.empty(), why << ": " << r.err);
        } else if (r.exit_status == 0) {
            ++ok;
        }
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(config_fuzz)

BOOST_AUTO_TEST_CASE(random_configurations_load_or_name_the_problem) {
    uint64_t count = input_count();
    ConfigFuzzer fuzzer(registry(), fuzz_seed());
    std::string defaults = starfish::sim::default_config_text();
    uint64_t ok = 0, errors = 0, failures = 0;
    {
        QuietStderr quiet;
        for (uint64_t i = 0; i < count && failures < 20; ++i) {
            FuzzInput in = fuzzer.input(i);
            try {
                auto out = starfish::testing::load_fuzz_input(registry(), defaults, in);
                if (!out.config_error) {
                    ++ok;
                    continue;
                }
                ++errors;
                std::string why = starfish::testing::unplaced_error(registry(), out.message);
                if (!why.empty()) {
                    ++failures;
                    BOOST_ERROR(in.describe() << "\n" << why << ": " << out.message);
                }
            } catch (const std::exception &e) {
                ++failures;
                BOOST_ERROR(in.describe() << "\nthrew " << e.what());
            }
        }
    }
    BOOST_TEST_MESSAGE(count << " inputs (seed " << fuzz_seed() << "): " << ok << " loaded, "
                             << errors << " configuration errors");
    std::cout << "config fuzz: " << count << " inputs in process, " << ok << " loaded, " << errors
              << " configuration errors\n";
    BOOST_TEST(failures == 0u);
    // The generator reaches both outcomes often.
    BOOST_TEST(ok > count / 20);
    BOOST_TEST(errors > count / 20);
}

BOOST_AUTO_TEST_CASE(the_command_exits_0_or_2_naming_the_problem) {
    // Every 200th input through `starfish config`: the exit status and stderr of the
    // real command line (CLI11 in front of the loader, files on disk).
    uint64_t count = std::max<uint64_t>(30, input_count() / 200);
    ConfigFuzzer fuzzer(registry(), fuzz_seed());
    TempDir dir;
    uint64_t ok = 0, errors = 0;
    for (uint64_t i = 0; i < count; ++i) {
        FuzzInput in = fuzzer.input(i * 200 + 7);
        std::vector<std::string> args{starfish::testing::starfish_binary(), "config"};
        if (!command_line(in, dir.path, args)) {
            continue;
        }
        check_command(args, in, 120, ok, errors);
    }
    std::cout << "config fuzz: " << ok + errors << " `starfish config` runs, " << ok << " exit 0, "
              << errors << " exit 2\n";
    BOOST_TEST(ok > 0u);
    BOOST_TEST(errors > 0u);
}

BOOST_AUTO_TEST_CASE(tiny_runs_exit_0_or_2) {
    // A few inputs on the keys that keep a run small, run for real on `small` with a
    // 64 KB file: a configuration that validates must run (exit 0), never fail later.
    uint64_t count = env_number("STARFISH_FUZZ_RUNS", std::max<uint64_t>(6, input_count() / 2000));
    ConfigFuzzer fuzzer(registry(), fuzz_seed());
    TempDir dir;
    uint64_t ok = 0, errors = 0;
    for (uint64_t i = 0; i < count; ++i) {
        FuzzInput in = fuzzer.small_run_input(i);
        std::vector<std::string> args{starfish::testing::starfish_binary(),
                                      "run",
                                      "--config=small",
                                      "--set=workload.trials=1",
                                      "--set=workload.file_mb=0.0625",
                                      "--set=workload.jobs=1"};
        if (!command_line(in, dir.path, args)) {
            continue;
        }
        check_command(args, in, 600, ok, errors);
    }
    std::cout << "config fuzz: " << ok + errors << " tiny runs, " << ok << " exit 0, " << errors
              << " exit 2\n";
    BOOST_TEST(ok > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
