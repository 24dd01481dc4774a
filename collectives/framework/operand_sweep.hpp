// Which folds reach their peers' operands in one sweep before folding them
// (reduce/reduction.hpp, SweptOperands) -- a policy of the reduction
// kernels that the model (model/cost.cpp, peer_data_sweep_cost) must price
// the same way, so it sits here, below both.
//
// A fold of two (every fold at 2 ranks) has one peer's chase and nothing
// to overlap it with; past kSweptOperands the operands are resolved as they
// are folded, without the sweep's fixed-size array (docs/model.md,
// "Reaching the peers' operands in one sweep").
#pragma once

namespace hmpi::coll {

inline constexpr int kSweptOperands = 64;

// Whether a fold of `operands` vectors (the fold's own included) sweeps them.
constexpr bool sweeps_operand_count(int operands) noexcept { return operands > 2 && operands <= kSweptOperands; }

}  // namespace hmpi::coll
