// `flockscope params`: the parameter table as a user reads it: name, default, range, unit,
// when a change applies, the rule sets that read it, and the one-line help.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>

#include "flockscope/core/params.hpp"

namespace flockscope::cli {

namespace {
// The rule sets that read the parameter, by name, or "all" (every rule set in rule_names()).
std::string used_by_text(const ParamDef& d) {
  std::string s;
  std::size_t n = 0;
  for (std::size_t i = 0; i < rule_names().size(); ++i)
    if (d.used_by_rules(RuleSet(i))) s += (s.empty() ? "" : ",") + std::string(rule_names()[i]), ++n;
  return n == rule_names().size() ? "all" : s;
}
}  // namespace

void add_params_command(CLI::App& app, int& exit_code) {
  CLI::App* c = app.add_subcommand("params", "List every parameter: name, default, range, unit, applies, rules, help");
  c->callback([&exit_code] {
    const Params defaults;
    std::size_t w_name = 4, w_def = 7, w_range = 5, w_unit = 4, w_rules = 5;
    for (const ParamDef& d : param_table()) {
      w_name = std::max(w_name, d.name.size());
      w_def = std::max(w_def, format_param(defaults, d).size());
      w_range = std::max(w_range, range_text(d).size());
      w_unit = std::max(w_unit, d.unit.size());
      w_rules = std::max(w_rules, used_by_text(d).size());
    }
    auto row = [&](const std::string& n, const std::string& def, const std::string& range, const std::string& unit,
                   const std::string& applies, const std::string& rules, const std::string& help) {
      std::printf("%-*s  %-*s  %-*s  %-*s  %-7s  %-*s  %s\n", int(w_name), n.c_str(), int(w_def), def.c_str(), int(w_range),
                  range.c_str(), int(w_unit), unit.c_str(), applies.c_str(), int(w_rules), rules.c_str(), help.c_str());
    };
    row("name", "default", "range", "unit", "applies", "rules", "help");
    for (const ParamDef& d : param_table())
      row(std::string(d.name), format_param(defaults, d), range_text(d), std::string(d.unit),
          d.apply == Apply::Live ? "live" : "reset", used_by_text(d), std::string(d.help));
    exit_code = 0;
  });
}

}  // namespace flockscope::cli
