#pragma once
// The transaction-log sink of the observation layer: one line per transaction and
// direction, in time order (docs/observe.md, "Transaction log"):
//
//   [NET 0.000123450000] net.r7 >> PKT id=0x30000000012 src=7 dst=19 flits=18
//
// category, simulated seconds (12 decimals: exact picoseconds), component, ">>"
// (begins), "<<" (ends, same id) or "--" (an instant, no id), operation, then
// key=value fields without spaces.

#include "sim/trace/output_file.h"
#include "sim/trace/scope_filter.h"
#include "tlm_models/common/trace_hub.h"

#include <cstdio>
#include <string>

namespace starfish::trace {

class TransactionLog : public TraceSink {
public:
    // The regular expression every line matches (Python and ECMAScript syntax).
    static const char *line_regex();

    TransactionLog(const std::string &path, ScopeFilter filter);

    void start(const std::vector<SignalInfo> &, const std::vector<Value> &, uint64_t) override {}
    void change(uint64_t, uint32_t, const Value &) override {}
    void transaction(const Transaction &t) override;
    void finish(uint64_t end_ps) override;

    static std::string format(const Transaction &t);

private:
    OutputFile out_;
    ScopeFilter filter_;
};

} // namespace starfish::trace
