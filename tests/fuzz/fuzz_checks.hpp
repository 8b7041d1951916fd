// The fuzz oracles of the readers of untrusted bytes, shared by the libFuzzer targets
// (fuzz_main.cpp, built by scripts/fuzz.sh) and the gtest that replays the committed corpora
// (corpus/<target>/, test_fuzz_corpora.cpp) in every build. Each checks what must hold
// whatever arrives; memory errors are the sanitizers' to catch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace flockscope::experiments {
struct SweepSpec;
}

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

// The files a user hands the app (fuzz_files.cpp). Each reader either refuses the bytes
// with an InputError (so nothing it would have changed is changed) or returns what holds up.

// A preset (parse_preset, as --preset FILE and the window's Load read it). Holds: every
// parameter within its table range; saved as the app saves presets, it reads back equal.
bool check_preset(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

// A state file (parse_state_csv, as --init reads it). Holds: four columns of one length, all
// finite; written as final_state.csv, it reads back bit for bit.
bool check_state_csv(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

// A recording (Recording::parse, as --replay and `replay` read it). Holds: damage is named by
// byte; every indexed frame decodes with finite boids, predators, food and time, and
// parameters within range; the same bytes cut short (where the last byte says) keep the
// frames before the cut bit for bit.
bool check_recording(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

// A resumed sweep's runs file (resumable_rows), for the 12-run sweep sweep_rows_spec()
// (D_vis x S_align, 3 repeats); byte 0 picks the shard
// and whether the sweep's header comes first. Holds: only this sweep's own header is
// accepted; every kept row is a whole line of the file and one of this shard's runs; kept
// and dropped rows never outnumber the lines; the kept rows written back read back the same.
bool check_sweep_rows(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);
flockscope::experiments::SweepSpec sweep_rows_spec();

// An Explore setup file (parse_setup, as the window's Load setup and `sweep --setup` read
// it; fuzz_setup.cpp). Holds: one or two axes, every parameter within range; saved as the
// window saves it, it reads back the same and makes the same sweep.
bool check_explore_setup(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

struct FuzzTarget {
  const char* name;  // scripts/fuzz.sh's and the corpus folder's name
  bool (*check)(const std::uint8_t*, std::size_t, std::string*);
};
inline constexpr FuzzTarget kTargets[] = {{"decoder", check_decoder},
                                          {"board_receive", check_board_receive},
                                          {"link_receive", check_link_receive},
                                          {"preset", check_preset},
                                          {"state_csv", check_state_csv},
                                          {"recording", check_recording},
                                          {"sweep_rows", check_sweep_rows},
                                          {"explore_setup", check_explore_setup}};

}  // namespace fuzztest
