// two threads on cores 0,1: each rewrites its send, barrier, then (mode 0) recv = own + peer; (mode 1) own_acc += peer (acc = a copy buffer, not rewritten) ; (mode 2) recv = peer copy; timed, median
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <thread>
#include <vector>
#include <algorithm>
static std::atomic<int> bar{0};
static void barrier(int& gen) { gen += 2; bar.fetch_add(1); while (bar.load() < gen) {} }
double* sendb[2]; double* recvb[2]; double* privb[2];
size_t n; int mode; int iters = 20;
double res[2];
void run(int me) {
    cpu_set_t s; CPU_ZERO(&s); CPU_SET(me, &s); pthread_setaffinity_np(pthread_self(), sizeof s, &s);
    int gen = 0; std::vector<double> t;
    double* own = sendb[me]; double* peer = sendb[1 - me]; double* out = recvb[me] + (getenv("OFF") ? atoi(getenv("OFF")) : 0);
    for (int it = 0; it < iters; ++it) {
        for (size_t i = 0; i < n; ++i) own[i] = it + me + 1;
        if (mode == 3) for (size_t i = 0; i < n; ++i) privb[me][i] = it + me + 2;
        barrier(gen);
        auto t0 = std::chrono::steady_clock::now();
        if (mode == 0) for (size_t i = 0; i < n; ++i) out[i] = own[i] + peer[i];
        else if (mode == 1) for (size_t i = 0; i < n; ++i) out[i] += peer[i];
        else if (mode == 3) { double* pv = privb[me]; for (size_t i = 0; i < n; ++i) out[i] = pv[i] + peer[i]; }
        else if (mode == 4) { for (size_t i = 0; i < n; ++i) out[i] = own[i]; }
        else std::memcpy(out, peer, n * 8);
        auto t1 = std::chrono::steady_clock::now();
        barrier(gen);
        t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    std::sort(t.begin(), t.end()); res[me] = t[t.size() / 2];
}
int main(int argc, char** argv) {
    size_t bytes = strtoull(argv[1], 0, 10); mode = atoi(argv[2]); n = bytes / 8;
    for (int r = 0; r < 2; ++r) { sendb[r] = (double*)aligned_alloc(4096, bytes); recvb[r] = (double*)aligned_alloc(4096, bytes + 8192); memset(recvb[r], 0, bytes); memset(sendb[r], 0, bytes); privb[r] = (double*)aligned_alloc(4096, bytes); memset(privb[r], 0, bytes);}
    std::thread a(run, 0), b(run, 1); a.join(); b.join();
    printf("bytes %zu mode %d: %.1f us (%.2f ns/line)\n", bytes, mode, (res[0] + res[1]) / 2, (res[0] + res[1]) / 2 * 1000 / (bytes / 64));
}
