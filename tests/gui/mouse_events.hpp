// A user's mouse for the headless window tests: SDL events pushed into the queue the app
// reads on its next frame.
#pragma once

#include <SDL.h>
#include <gtest/gtest.h>

inline void push_mouse(Uint32 type, float x, float y, Uint8 button = SDL_BUTTON_LEFT) {
  SDL_Event e{};
  e.type = type;
  if (type == SDL_MOUSEMOTION) {
    e.motion.x = int(x), e.motion.y = int(y);
  } else {
    e.button.x = int(x), e.button.y = int(y), e.button.button = button;
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = 1;
  }
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
}
