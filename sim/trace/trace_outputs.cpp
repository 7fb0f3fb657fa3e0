#include "sim/trace/trace_outputs.h"

namespace starfish::trace {

TraceOutputs::TraceOutputs(TraceRequest &req, const std::vector<std::string> &nodes) {
    std::vector<std::pair<std::string, std::string>> files{{req.vcd_path, "--vcd"},
                                                           {req.log_path, "--log"},
                                                           {req.timeline_path, "--timeline"},
                                                           {req.rtl_fst_path, "--rtl-fst"}};
    if (!req.ni_dma_fst_path.empty()) {
        for (const auto &node : nodes) {
            files.emplace_back(ni_dma_fst_file(req.ni_dma_fst_path, node), "--ni-dma-fst");
        }
    }
    // Checked first, all of them: a bad last path must leave no staged file behind.
    std::vector<sim::OutputTarget> targets;
    for (const auto &[path, option] : files) {
        if (!path.empty()) {
            targets.push_back(sim::check_output(path, option, false));
        }
    }
    for (auto &t : targets) {
        files_.push_back(std::make_unique<sim::StagedOutput>(t));
        req.write_paths[t.path] = files_.back()->write_path();
    }
}

void TraceOutputs::commit() {
    for (auto &f : files_) {
        f->commit();
    }
}

std::vector<std::string> TraceOutputs::keep_partial() {
    std::vector<std::string> kept;
    for (auto &f : files_) {
        std::string name = f->keep_partial();
        if (!name.empty()) {
            kept.push_back(name);
        }
    }
    return kept;
}

} // namespace starfish::trace
