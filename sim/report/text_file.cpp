#include "sim/report/text_file.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace starfish::sim {

void write_text_file(const std::string &path, const std::function<void(std::ostream &)> &fill) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out) {
            throw std::runtime_error("cannot write '" + path + "'");
        }
        fill(out);
        if (!out.flush()) {
            throw std::runtime_error("error writing '" + path + "'");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
    }
}

} // namespace starfish::sim
