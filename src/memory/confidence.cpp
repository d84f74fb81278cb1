// Confidence per item (docs/learning.md, "Confidence"): how often its speedup
// was reproduced, by how many readers it helped, when and on which device it
// was last verified; the ranking a policy's cap on learned items uses; and
// the device class a speedup belongs to (docs/memory.md, "Devices").
#include <algorithm>
#include <tuple>

#include "kmem/memory.h"

namespace kmem {

std::string device_class(const std::string& gpu) { return gpu == "cpu" ? "cpu" : "cuda"; }

ItemConfidence item_confidence(const Item& item) {
  ItemConfidence c;
  c.measurements = static_cast<int>(item.measurements.size());
  c.last_verified = item.provenance.date;
  c.device = item.provenance.gpu;
  if (!item.measurements.empty()) {
    const Measurement& latest = item.measurements.back();
    c.last_verified = latest.date;
    c.device = latest.gpu;
    bool retimed = false;
    for (const Measurement& m : item.measurements) {
      if (device_class(m.gpu) != device_class(latest.gpu) || m.speedup <= 0 || latest.speedup <= 0) continue;
      double ratio = std::max(m.speedup, latest.speedup) / std::min(m.speedup, latest.speedup);
      if (ratio > kReproductionSpread) continue;
      ++c.reproductions;
      retimed = retimed || m.reference_retimed;
    }
    c.reproduced = c.reproductions >= 2 && retimed;
  }
  for (const auto& [reader, value] : item.values) {
    ++c.readers_measured;
    if (value.difference > 0) ++c.readers_helped;
  }
  return c;
}

bool more_confident(const Item& a, const Item& b) {
  ItemConfidence x = item_confidence(a), y = item_confidence(b);
  return std::tuple(x.reproduced, x.reproductions, x.readers_helped, x.last_verified) >
         std::tuple(y.reproduced, y.reproductions, y.readers_helped, y.last_verified);
}

Memory memory_for_device(const Memory& memory, const std::string& device) {
  Memory out = memory;
  std::string wanted = device_class(device);
  std::erase_if(out.items, [&](const Item& item) {
    if (item.kind != ItemKind::kKernel && item.kind != ItemKind::kRecipe) return false;
    return device_class(item_confidence(item).device) != wanted;
  });
  return out;
}

}  // namespace kmem
