#pragma once
// The VCD sink of the observation layer (docs/observe.md): every value change at
// its exact time in picoseconds, one VCD scope per component path element. Text
// signals are vectors of 8 bits per character (GTKWave shows them as ASCII).

#include "sim/trace/output_file.h"
#include "sim/trace/scope_filter.h"
#include "tlm_models/common/trace_hub.h"

#include <cstdio>
#include <string>
#include <vector>

namespace starfish::trace {

class VcdWriter : public TraceSink {
public:
    // Opens `path` (throws std::runtime_error naming it when it cannot).
    VcdWriter(const std::string &path, ScopeFilter filter);

    void start(const std::vector<SignalInfo> &signals, const std::vector<Value> &values,
               uint64_t from_ps) override;
    void change(uint64_t t_ps, uint32_t signal, const Value &value) override;
    void transaction(const Transaction &) override {}
    void finish(uint64_t end_ps) override;

    // The VCD bits of a value of a signal ("1", "b101", "bx").
    static std::string encode(const SignalInfo &info, const Value &value);

private:
    void write_value(uint32_t signal, const Value &value);

    OutputFile out_;
    std::FILE *file_; // out_'s
    ScopeFilter filter_;
    std::vector<SignalInfo> signals_;
    std::vector<std::string> ids_; // "" when the signal is not selected
    uint64_t last_time_ = 0;
};

} // namespace starfish::trace
