// Info objects and MPI_INFO_ENV (MPI 3.1, chapter 9 and 10.3.1 / 8.7 for the
// environment keys).
#include "core/info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "core/rank.hpp"

namespace hmpi {

namespace {

// The keys MPI_INFO_ENV has (MPI 3.1, 8.7 "reserved keys" of MPI_INFO_ENV):
// command, argv, maxprocs, wdir, host, arch. The program's command line is
// the process's (/proc/self/cmdline): ranks are threads of one program.
// thread_level is left out: each rank asks for its own level.
Info* build_env_info() {
    auto* info = new Info;
    std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    for (std::size_t start = 0; start < all.size();) {
        std::size_t end = all.find('\0', start);
        if (end == std::string::npos) end = all.size();
        args.emplace_back(all, start, end - start);
        start = end + 1;
    }
    if (!args.empty()) {
        info_set(*info, "command", args[0].c_str());
        std::string rest;
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (i > 1) rest += ' ';
            rest += args[i];
        }
        info_set(*info, "argv", rest.c_str());
    }
    const Job* j = job_if_started();
    info_set(*info, "maxprocs", std::to_string(j ? j->nranks : 1).c_str());
    char buf[4096];
    if (getcwd(buf, sizeof buf)) info_set(*info, "wdir", buf);
    if (gethostname(buf, sizeof buf) == 0) {
        buf[sizeof buf - 1] = '\0';
        info_set(*info, "host", buf);
    }
    struct utsname u;
    if (uname(&u) == 0) info_set(*info, "arch", u.machine);
    return info;
}

Info* env_info() {
    static Info* const env = build_env_info();  // built once, thread-safely; lives for the process
    return env;
}

}  // namespace

Info* info_from_handle(MPI_Info h) noexcept {
    if (h == MPI_INFO_ENV) return env_info();
    if (h == MPI_INFO_NULL || reinterpret_cast<std::uintptr_t>(h) < 0x1000) return nullptr;
    auto* i = reinterpret_cast<Info*>(h);
    return i->magic == Info::kMagic ? i : nullptr;
}

bool info_is_env(const Info* info) noexcept { return info == env_info(); }

void info_destroy(Info* info) noexcept {
    if (!info || info_is_env(info)) return;
    info->magic = 0;
    delete info;
}

const std::string* info_find(const Info& info, const char* key) noexcept {
    for (const auto& [k, v] : info.entries)
        if (k == key) return &v;
    return nullptr;
}

void info_set(Info& info, const char* key, const char* value) {
    for (auto& [k, v] : info.entries) {
        if (k == key) {
            v = value;
            return;
        }
    }
    info.entries.emplace_back(key, value);
}

bool info_remove(Info& info, const char* key) {
    for (auto it = info.entries.begin(); it != info.entries.end(); ++it) {
        if (it->first == key) {
            info.entries.erase(it);
            return true;
        }
    }
    return false;
}

}  // namespace hmpi
