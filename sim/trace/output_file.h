#pragma once
// The file a trace sink writes: opened at construction, closed by close() (which
// reports a failed write) or the destructor. Errors name the file and what it is.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace starfish::trace {

class OutputFile {
public:
    OutputFile(const std::string &path, const std::string &what)
        : file_(std::fopen(path.c_str(), "w")), path_(path), what_(what) {
        if (file_ == nullptr) {
            throw std::runtime_error(error());
        }
    }
    ~OutputFile() {
        if (file_ != nullptr) {
            std::fclose(file_);
        }
    }
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    std::FILE *get() const { return file_; }
    void close() {
        std::FILE *f = file_;
        file_ = nullptr;
        if (std::fclose(f) != 0) {
            throw std::runtime_error(error());
        }
    }

private:
    std::string error() const {
        return "cannot write the " + what_ + " file " + path_ + ": " + std::strerror(errno);
    }
    std::FILE *file_;
    std::string path_, what_;
};

} // namespace starfish::trace
