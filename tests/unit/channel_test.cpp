// The channel must deliver every message exactly once, in sending order,
// whether it went through the ring or the overflow list, with intact payload.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "core/channel.hpp"

using namespace hmpi;

namespace {

struct Received {
    int tag;
    std::vector<unsigned char> data;
};

void send_msg(Channel& ch, int tag, std::size_t bytes) {
    Envelope env;
    env.tag = tag;
    env.bytes = static_cast<std::int64_t>(bytes);
    env.kind = EnvelopeKind::eager;
    std::vector<unsigned char> src(bytes);
    for (std::size_t i = 0; i < bytes; ++i) src[i] = static_cast<unsigned char>(tag * 31 + i);
    ch.send(env, bytes, [&](unsigned char* dst, std::size_t off, std::size_t n) { std::memcpy(dst, src.data() + off, n); });
}

int drain_into(Channel& ch, std::vector<Received>& out) {
    return ch.drain(
        [&](const Envelope& env, const PayloadView& v) {
            Received r{env.tag, std::vector<unsigned char>(v.size())};
            v.copy_to(r.data.data(), v.size());
            out.push_back(std::move(r));
        },
        [&](Message* m) {
            out.push_back(Received{m->env.tag, std::vector<unsigned char>(m->data(), m->data() + m->data_bytes)});
            Message::destroy(m);
        });
}

void check_payload(const Received& r, std::size_t expected_bytes) {
    REQUIRE(r.data.size() == expected_bytes);
    for (std::size_t i = 0; i < r.data.size(); ++i)
        if (r.data[i] != static_cast<unsigned char>(r.tag * 31 + i)) FAIL("payload byte ", i, " of message ", r.tag, " is wrong");
}

}  // namespace

TEST_CASE("ring messages arrive in order with their payload, across wrap-around") {
    Channel ch(0, 1, 16);
    std::vector<Received> got;
    int tag = 0;
    std::vector<std::size_t> sizes;
    for (int round = 0; round < 50; ++round) {
        for (std::size_t bytes : {0ul, 1ul, 31ul, 32ul, 33ul, 100ul, 200ul}) {
            send_msg(ch, tag++, bytes);
            sizes.push_back(bytes);
        }
        drain_into(ch, got);
    }
    REQUIRE(got.size() == sizes.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].tag == static_cast<int>(i));
        check_payload(got[i], sizes[i]);
    }
}

TEST_CASE("a full ring spills into the overflow list without reordering") {
    Channel ch(0, 1, 8);  // 8 cells: a few messages fill it
    std::vector<Received> got;
    for (int i = 0; i < 200; ++i) send_msg(ch, i, static_cast<std::size_t>(i % 90));
    drain_into(ch, got);
    // After the receiver caught up, the ring is used again.
    for (int i = 200; i < 260; ++i) {
        send_msg(ch, i, 8);
        if (i % 7 == 0) drain_into(ch, got);
    }
    drain_into(ch, got);
    REQUIRE(got.size() == 260);
    for (int i = 0; i < 260; ++i) {
        CHECK(got[static_cast<std::size_t>(i)].tag == i);
        check_payload(got[static_cast<std::size_t>(i)], i < 200 ? static_cast<std::size_t>(i % 90) : 8);
    }
}

TEST_CASE("concurrent sender and receiver: every message once, in order") {
    constexpr int kMessages = 200000;
    Channel ch(0, 1, 32);
    std::vector<std::size_t> sizes(kMessages);
    std::mt19937 gen(42);
    for (auto& s : sizes) s = gen() % 300;
    std::thread producer([&] {
        for (int i = 0; i < kMessages; ++i) send_msg(ch, i, sizes[static_cast<std::size_t>(i)]);
    });
    std::vector<Received> got;
    got.reserve(kMessages);
    int bad = 0;
    std::size_t checked = 0;
    while (got.size() < static_cast<std::size_t>(kMessages)) {
        drain_into(ch, got);
        for (; checked < got.size(); ++checked) {
            const Received& r = got[checked];
            if (r.tag != static_cast<int>(checked) || r.data.size() != sizes[checked]) ++bad;
            else
                for (std::size_t i = 0; i < r.data.size(); ++i)
                    if (r.data[i] != static_cast<unsigned char>(r.tag * 31 + i)) ++bad;
        }
        std::this_thread::yield();
    }
    producer.join();
    CHECK(bad == 0);
    CHECK(got.size() == static_cast<std::size_t>(kMessages));
}
