// The messages behind protocol/test_vectors/: the single place they are defined.
// FLOCKSCOPE_UPDATE_VECTORS=1 ./test_protocol --gtest_filter='*Vectors*' rewrites
// the files from here (after a deliberate change: the vectors are a contract with
// the firmware and app tests); normally the tests check the committed files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flockscope/protocol/protocol.hpp"

namespace ptest {

struct GoodVector {
  std::string name;         // file name without .hex
  std::string description;  // first comment line
  flockscope::protocol::Message msg;
};

// A byte sequence the decoder must refuse (or deliver specially) in a known way.
struct BadVector {
  std::string name;
  std::string description;
  std::vector<std::uint8_t> bytes;
  std::string expect;  // the DecoderStats counter that must count it: "bad_crc", ...
  bool delivered;      // whether the decoder still hands out a message
  flockscope::protocol::Message msg;  // that message, if delivered
};

std::vector<GoodVector> good_vectors();
std::vector<BadVector> bad_vectors();

}  // namespace ptest
