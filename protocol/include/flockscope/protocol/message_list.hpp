// The one table of the wire's messages. The MsgType enum, Message's union, and the codec's
// dispatch (is_known, to_string, payload sizes, writers, parsers, validation, equality) are
// generated from this list, so adding a message is one row plus its payload struct in
// messages.hpp and its overloads in codec.cpp (write, parse, valid, extra_bytes, same): a
// row without them does not compile. PROTOCOL.md, the Python reference
// (tools/wire_ref.py) and the test-vector catalogue describe the same list and are kept by
// hand; the vectors test holds them to it.
//
// Plain preprocessor text, like the parameter table (params/): the RP2040 firmware includes it too.
//
// Columns: X(enumerator, payload struct, type code, Message member, name, fixed bytes)
//   type code    the header's type byte (PROTOCOL.md): never renumber, never reuse
//   name         to_string()'s text: PROTOCOL.md's name of the message
//   fixed bytes  the payload's size without its variable part (names, entries, boids, text)
#pragma once

#define FLOCKSCOPE_MESSAGE_LIST(X)                                      \
  X(kHello, Hello, 0x01, hello, "hello", 15)                            \
  X(kParamSet, ParamSet, 0x02, param_set, "param_set", 5)               \
  X(kParamChange, ParamChange, 0x03, param_change, "param_change", 11)  \
  X(kAck, Ack, 0x04, ack, "ack", 15)                                    \
  X(kCommand, Command, 0x05, command, "command", 5)                     \
  X(kFlockState, FlockState, 0x10, flock_state, "flock_state", 17)      \
  X(kPredators, Predators, 0x11, predators, "predators", 7)             \
  X(kMetrics, BoardMetrics, 0x12, metrics, "metrics", 28)               \
  X(kStats, Stats, 0x13, stats, "stats", 29)                            \
  X(kSurroundings, Surroundings, 0x14, surroundings, "surroundings", 7) \
  X(kLog, Log, 0x20, log, "log", 1)
