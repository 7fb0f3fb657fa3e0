// Speed of the access-pattern iterators (fw/pattern.h): how fast the DDIO IOP's
// per-block mapping runs on the host. Prints pieces per wall second for the whole
// 10 MB file walked in 8 KB blocks, 16 CPs, for every pattern and both record sizes.
#include "fw/pattern.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

int main() {
    const char *names[] = {"ra",  "rn",  "rb",  "rc",  "rnb", "rbb",
                           "rcb", "rbc", "rcc", "rcn", "wbc", "wcc"};
    const uint64_t file = 10u << 20, block = 8192;
    std::printf("%-4s %6s %10s %8s %12s\n", "pat", "record", "pieces", "ms", "Mpieces/s");
    for (uint64_t record : {8u, 8192u}) {
        for (const char *name : names) {
            fw_pattern_t p;
            char msg[256];
            if (fw_pattern_init(&p, name, record, file, 16, 0, msg, sizeof msg) != FW_PATTERN_OK) {
                std::printf("%s: %s\n", name, msg);
                return 1;
            }
            uint64_t pieces = 0, bytes = 0;
            const int reps = 5;
            auto t0 = std::chrono::steady_clock::now();
            for (int rep = 0; rep < reps; ++rep) {
                for (uint64_t off = 0; off < file; off += block) {
                    fw_pattern_piece_iter_t it;
                    fw_pattern_piece_t pc;
                    fw_pattern_pieces_begin(&it, &p, off, block);
                    while (fw_pattern_pieces_next(&it, &pc)) {
                        ++pieces;
                        bytes += pc.length + pc.cp_offset;
                    }
                }
            }
            double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count() /
                reps;
            std::printf("%-4s %6llu %10llu %8.2f %12.1f%s\n", name, (unsigned long long)record,
                        (unsigned long long)(pieces / reps), ms, pieces / reps / ms / 1000.0,
                        bytes == 0 ? " (no bytes?)" : "");
        }
    }
    return 0;
}
