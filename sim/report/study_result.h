#pragma once
// The JSON document of a study run: what `starfish study --json` writes and what
// `starfish reproduce` keeps per study for its report (docs/studies.md, "Outputs").

#include "sim/report/run_result.h"
#include "sim/study/study.h"

#include <vector>

namespace starfish::sim {

// The base configuration, the study's definition (name, description, set, axes,
// skip, report), every cell's overrides, summary and trials, and the summary
// (cells, verified, comparison statistics). Adds to `host` the simulated time,
// CPU time and events of the trials this command ran, and counts the ones taken
// from the cache; the caller sets host.wall_s and stores the host section.
RunResult study_result(const StudySpec &spec, const config::Config &base,
                       const std::vector<CellResult> &results, HostStats &host);

// summary.verified of a study_result document.
bool study_verified(const RunResult &doc);

} // namespace starfish::sim
