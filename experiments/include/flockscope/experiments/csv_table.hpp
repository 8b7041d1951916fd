// CSV tables as the experiments write and read them: runs.csv, summary.csv, metrics.csv.
// Plain comma-separated cells (no quoting: no cell the experiments write holds a comma), the
// first line the header.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace flockscope::experiments {

// Shortest text that reads back as the same double; "NA" for NaN, "inf"/"-inf", never "-0".
std::string number_cell(double v);

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  // Index of a column, or -1.
  int column(std::string_view name) const;
  // Cell as a number (NaN for NA or empty).
  double number(std::size_t row, int col) const;
};
// Blank lines are skipped and cells trimmed.
Table parse_csv_table(std::string_view text);
// Throws InputError when the file is missing, unreadable or larger than kMaxTableBytes.
Table read_csv_table(const std::filesystem::path& file);

}  // namespace flockscope::experiments
