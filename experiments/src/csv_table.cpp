#include "flockscope/experiments/csv_table.hpp"

#include <charconv>
#include <cmath>

#include "flockscope/core/io.hpp"
#include "text.hpp"

namespace flockscope::experiments {
using namespace detail;

std::string number_cell(double v) {
  if (std::isnan(v)) return "NA";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) v = 0;  // no "-0"
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : label_number(v);
}

int Table::column(std::string_view name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return int(i);
  return -1;
}

double Table::number(std::size_t row, int col) const {
  if (col < 0 || row >= rows.size() || std::size_t(col) >= rows[row].size()) return NAN;
  double v = NAN;
  return parse_double(rows[row][std::size_t(col)], v) ? v : NAN;
}

Table parse_csv_table(std::string_view text) {
  Table t;
  bool header = true;
  for (auto line : split(text, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    std::vector<std::string> cells;
    for (auto c : split(line, ',')) cells.emplace_back(trim(c));
    if (header) t.columns = std::move(cells), header = false;
    else t.rows.push_back(std::move(cells));
  }
  return t;
}

Table read_csv_table(const std::filesystem::path& file) { return parse_csv_table(read_input_file(file, kMaxTableBytes)); }

}  // namespace flockscope::experiments
