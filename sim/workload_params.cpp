#include "sim/workload_params.h"

namespace starfish::sim {

void declare_workload_params(config::Registry &reg) {
    reg.add_real("workload.file_mb", 10.0, "MB", {0.0001, 1048576},
                 "size of the file transferred (MB = 2^20 bytes)",
                 "given: SPEC.md §2 (10 MB; 100 and 1000 MB in the file-size study)");
    reg.add_int("workload.trials", 5, "trials", {1, 1000},
                "independent trials per configuration (layout, rotation, network noise vary)",
                "given: SPEC.md §9 (five trials)");
    reg.add_int("workload.seed", 1, "", {0, 4294967295.0},
                "base seed; trial t uses a seed derived from (seed, t)",
                "convention: any fixed value gives reproducible runs");
}

} // namespace starfish::sim
