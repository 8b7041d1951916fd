// flockscope::protocol, everything: messages, codec, decoder, flock state encoder.
#pragma once

#include "flockscope/protocol/cobs.hpp"
#include "flockscope/protocol/codec.hpp"
#include "flockscope/protocol/crc32.hpp"
#include "flockscope/protocol/decoder.hpp"
#include "flockscope/protocol/flock_state.hpp"
#include "flockscope/protocol/le.hpp"
#include "flockscope/protocol/messages.hpp"
