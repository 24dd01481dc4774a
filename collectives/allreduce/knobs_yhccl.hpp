// Knobs of the movement-avoiding (YHCCL) and hierarchical (XHC) allreduce
// algorithms, in one table: what each controls, its unit, and where its
// default comes from. movement_avoiding*.cpp and hierarchical.cpp use them.
#pragma once
#include <cstddef>

namespace hmpi::coll::knobs {

// movement_avoiding: bytes of the vector reduced and copied out per round
// (strip mining, YHCCL Section 3.3 "the slices are processed in blocks
// that fit in the cache"). A round touches p inputs' block (each rank its
// own) plus the block's result, so per core ~2 blocks live in L2: 512 KiB
// keeps that well inside this machine's 2 MiB L2 (models.md: Sapphire
// Rapids, L2 2 MiB per core) and leaves room for the copy-out source.
inline constexpr std::size_t kMaBlockBytes = 512 * 1024;
// Every round takes p flag steps of the 255 a collective has per flag
// (shared.hpp stamps): rounds are capped at kMaxFlagSteps / p, so for very
// large vectors a round grows beyond kMaBlockBytes.
inline constexpr unsigned kMaxFlagSteps = 255;

// hierarchical (and bcast `pipelined`): the pipeline's chunk in bytes: a
// leader publishes after each chunk it has folded or copied (XHC Section
// IV-B, "chunk size 16 KiB" in its evaluation; small enough that the next
// level starts early, large enough that a flag step per chunk is cheap).
// The chunk grows when a vector would need more than kMaxFlagSteps chunks.
inline constexpr std::size_t kPipelineChunkBytes = 16 * 1024;
// Vectors up to this many bytes travel in the flags' payloads (XHC: tiny
// messages inline with the flag; runtime/primitives/flag.hpp, one cache line).
inline constexpr std::size_t kFlagPayloadBytes = 56;

}  // namespace hmpi::coll::knobs
