#pragma once
// Runs simulations in forked child processes.
//
// SystemC elaborates once per process, so each trial (and each test scenario)
// builds its machine in a fresh child: the parent never touches the SystemC
// kernel. Children return a JSON document through a pipe. This also lets
// independent trials use several host cores while staying deterministic, since
// every trial's result depends only on its configuration and seed.

#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace starfish::sim {

// A child that crashed, was killed, or threw; what() says which and why.
class IsolatedRunError : public std::runtime_error {
public:
    explicit IsolatedRunError(const std::string &what) : std::runtime_error(what) {}
};

using IsolatedJob = std::function<nlohmann::json()>;

// Runs job in a child process and returns what it returned. An exception in the
// job becomes an IsolatedRunError carrying its message.
nlohmann::json run_isolated(const IsolatedJob &job);

// Runs jobs in children, at most `parallel` at a time, and returns their results in
// job order. on_done(index, result) is called in the parent as each finishes (for
// progress output). After the first failure no further job starts; the failure is
// rethrown after all children have ended.
std::vector<nlohmann::json>
run_isolated_all(const std::vector<IsolatedJob> &jobs, int parallel,
                 const std::function<void(size_t, const nlohmann::json &)> &on_done = {});

// What one job gave: its result, or why its process failed.
struct IsolatedOutcome {
    nlohmann::json result; // when ok()
    std::string error;     // the child's exception message, or how it died
    bool ok() const { return error.empty(); }
};

// Runs every job, whatever the others give (a study finishes its other cells when
// one trial fails); on_done(index, outcome) in the parent as each ends.
std::vector<IsolatedOutcome>
run_isolated_each(const std::vector<IsolatedJob> &jobs, int parallel,
                  const std::function<void(size_t, const IsolatedOutcome &)> &on_done = {});

// Children die with the command: each asks the kernel to kill it when its parent
// dies, and the parent kills them when it is interrupted (sim/runner/process_guard.h).

} // namespace starfish::sim
