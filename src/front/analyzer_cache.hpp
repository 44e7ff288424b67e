// SPDX-License-Identifier: MIT
// The dispatcher's analyzers (api.cpp): an analyzer answers one call at a time, so each board and
// goal keeps a few idle ones (they remember counts and solutions); at most so many boards and
// goals, the least recently used dropped.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "pegsol/analysis.hpp"
#include "pegsol/board.hpp"
#include "pegsol/play.hpp"

namespace pegsol::api::detail {

class AnalyzerCache {
 public:
  // At most `boards` boards and goals kept, `idle` idle analyzers each, each analyzer's search
  // memos bounded by `memo_bytes` apiece.
  AnalyzerCache(int boards, int idle, std::size_t memo_bytes)
      : boards_(boards), idle_(idle), memo_bytes_(memo_bytes) {}

  // An analyzer of a game's board and goal for one request, given back when the lease ends.
  class Lease {
   public:
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { cache_->give_back(key_, std::move(analyzer_)); }
    Analyzer* operator->() const { return analyzer_.get(); }

   private:
    friend class AnalyzerCache;
    Lease(AnalyzerCache* c, std::string k, std::shared_ptr<Analyzer> a)
        : cache_(c), key_(std::move(k)), analyzer_(std::move(a)) {}
    AnalyzerCache* cache_;
    std::string key_;
    std::shared_ptr<Analyzer> analyzer_;
  };

  // An idle analyzer of `g`'s board and goal, or a new one.
  Lease lease(const Game& g) {
    const Problem& p = g.problem();
    std::string key = p.board->name() + "|" + std::to_string(p.board->size()) + "|" +
                      std::string(lattice_name(p.board->lattice())) + "|";
    for (int h = 0; h < p.board->size(); ++h)
      key += std::to_string(p.board->coord(h).r) + "," + std::to_string(p.board->coord(h).c) + ";";
    key += "|" + std::to_string(static_cast<int>(p.goal.kind)) + ":" + std::to_string(p.goal.hole) +
           ":" + (p.goal.kind == Goal::Kind::Position ? p.goal.position.to_bits() : "");
    {
      std::lock_guard lock(m_);
      for (auto it = kept_.begin(); it != kept_.end(); ++it)
        if (it->first == key) {
          kept_.splice(kept_.begin(), kept_, it);
          auto& idle = kept_.front().second;
          if (!idle.empty()) {
            auto a = std::move(idle.back());
            idle.pop_back();
            return Lease(this, key, std::move(a));
          }
          break;
        }
    }
    return Lease(this, key, std::make_shared<Analyzer>(p.board, p.goal, memo_bytes_));
  }

 private:
  void give_back(const std::string& key, std::shared_ptr<Analyzer> a) {
    std::lock_guard lock(m_);
    auto it = kept_.begin();
    while (it != kept_.end() && it->first != key) ++it;
    if (it == kept_.end()) {
      kept_.emplace_front(key, std::vector<std::shared_ptr<Analyzer>>{});
      it = kept_.begin();
    }
    if (static_cast<int>(it->second.size()) < idle_) it->second.push_back(std::move(a));
    while (static_cast<int>(kept_.size()) > boards_) kept_.pop_back();
  }

  const int boards_, idle_;
  const std::size_t memo_bytes_;
  std::mutex m_;
  // The boards and goals, most recently leased first, each with its idle analyzers.
  std::list<std::pair<std::string, std::vector<std::shared_ptr<Analyzer>>>> kept_;
};

}  // namespace pegsol::api::detail
