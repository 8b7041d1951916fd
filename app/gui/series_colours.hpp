// The colour of each plotted quantity, one table for the live plots and the exported
// figures, so that a file shows centroid x in the orange it has on screen.
#pragma once

#include <cstdint>

namespace flockscope::gui {

struct SeriesColour {
  std::uint8_t r, g, b;
};

inline constexpr SeriesColour kDiameterColour{120, 190, 255};
inline constexpr SeriesColour kCentroidXColour{255, 170, 70};
inline constexpr SeriesColour kCentroidYColour{120, 220, 140};
inline constexpr SeriesColour kPathColour{200, 150, 255};
inline constexpr SeriesColour kPolarisationColour{255, 120, 160};
inline constexpr SeriesColour kSpeedColour{240, 220, 100};
inline constexpr SeriesColour kSpeedDownColour{255, 140, 90};   // boids moving down the screen
inline constexpr SeriesColour kSpeedUpColour{110, 200, 255};    // ... and up
inline constexpr SeriesColour kPerchedColour{205, 150, 90};     // the ledge's colour in the flock view
inline constexpr SeriesColour kFoodDistanceColour{250, 210, 50};       // the food sources' colour
inline constexpr SeriesColour kPredatorDistanceColour{255, 90, 90};    // the predators' colour
inline constexpr SeriesColour kNearestNeighbourColour{160, 220, 255};
inline constexpr SeriesColour kClustersColour{200, 200, 120};
inline constexpr SeriesColour kShareRightColour{255, 170, 70};  // scout group 1's orange: biased right
inline constexpr SeriesColour kShareLeftColour{120, 220, 140};  // scout group 2's green: biased left
inline constexpr SeriesColour kResetColour{255, 90, 90};       // reset markers
inline constexpr SeriesColour kParamChangeColour{120, 140, 170};  // live parameter changes

}  // namespace flockscope::gui
