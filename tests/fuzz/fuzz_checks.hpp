// The fuzz oracles of the readers of untrusted bytes, shared by the libFuzzer targets
// (fuzz_main.cpp, built by scripts/fuzz.sh) and the gtest that replays the committed corpora
// (corpus/<target>/, test_fuzz_corpora.cpp) in every build. Each checks what must hold
// whatever arrives; memory errors are the sanitizers' to catch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fuzztest {

// The protocol decoder: data[1..] fed to decoders whole, in chunks chosen by data[0] and
// through a small buffer. Holds: they agree, every counter adds up, and every delivered
// message re-encodes and decodes to itself.
bool check_decoder(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

// The board sides, reading what an app sends. Input layout: byte 0 picks how the bytes are
// cut into reads (its low 6 bits: 1 to 64 bytes a read; its top 2: 1, 17, 33 or 49 reads a
// frame), the rest is what the "app" sent.

// Our firmware's board (firmware_pico/logic, host build: the virtual board's code) with a
// 20-boid flock, stepped frame by frame while it reads the input. Holds: every parameter,
// in force and pending, stays within what the board allows; the flock stays within its
// capacity; everything the board sends decodes cleanly (no checksum, framing or layout
// error), and every request it read is answered by at most one ack.
bool check_board_receive(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

// The drop-in link (protocol/pico, flockscope_link.h, host build) with four exposed
// variables of the three formats and a check callback, polled while it reads the input,
// with a state of 8 boids sent each frame and the background service run between polls.
// Holds: every exposed variable stays within the table's range and passes its check; the
// boid count stays within the capacity; everything the board sends decodes cleanly, and
// every request it read is answered by at most one ack.
bool check_link_receive(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

struct FuzzTarget {
  const char* name;  // scripts/fuzz.sh's and the corpus folder's name
  bool (*check)(const std::uint8_t*, std::size_t, std::string*);
};
inline constexpr FuzzTarget kTargets[] = {
    {"decoder", check_decoder}, {"board_receive", check_board_receive}, {"link_receive", check_link_receive}};

}  // namespace fuzztest
