#include "tlm_models/storage/disk_stats.h"

namespace starfish::storage {

nlohmann::json DiskStats::to_json() const {
    return nlohmann::json{{"requests", requests},
                          {"reads", reads},
                          {"writes", writes},
                          {"prefetches", prefetches},
                          {"other_commands", other_commands},
                          {"check_conditions", check_conditions},
                          {"bytes_read", bytes_read},
                          {"bytes_written", bytes_written},
                          {"seeks", seeks},
                          {"movements", movements},
                          {"cache_hits", cache_hits},
                          {"media_sectors_read", media_sectors_read},
                          {"media_sectors_written", media_sectors_written},
                          {"busy_s", busy_ps * 1e-12},
                          {"positioning_s", positioning_ps * 1e-12},
                          {"read_response_s", read_response_ps * 1e-12},
                          {"write_response_s", write_response_ps * 1e-12},
                          {"reads_completed", reads_completed},
                          {"writes_completed", writes_completed}};
}

} // namespace starfish::storage
