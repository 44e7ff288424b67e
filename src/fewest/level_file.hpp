// SPDX-License-Identifier: MIT
// The fewest-moves search's level files and spill files: shards as blocks of coded chunks
// (level_codec.hpp), written as a stream and read a chunk at a time (src/fewest).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "entry.hpp"
#include "level_codec.hpp"
#include "pegsol/error.hpp"
#include "spill.hpp"

namespace pegsol::fewest_detail {

// A level file (checkpoint) since 2026-11-29, "PEGFEWL3":
//   | tag "PEGFEWL3" | entry bytes (u64) | shards (u64) |       the file's head, 24 bytes
//   | block | block | ...                                       a shard each, in any order
//   | "PEGFEWE3" | shards (u64) | entries (u64) | 0 (u64) |      the end, 32 bytes
// A block (a spill file's shards are blocks too, with no head nor end):
//   | "PEGFEWB3" | shard | entries | chunks | chunk bytes | digest |   6 words, 48 bytes
//   | chunk | chunk | ...        kCodecChunk entries each (the last fewer), in key order
// The digest of a block is entry_digest() over its entries; the end counts the entries of the
// shards' last blocks.
// A level part made (a state's `making` line) is the head and the blocks of the shards done,
// with no end: the state says how many of its bytes are whole. A shard may have more than one
// block (a level made again after its expanded levels were released): every one holds the same
// entries, and the last is read.
// The files before ("PEGFEWL2"): a head of the tag, the entry bytes, the shards and each shard's
// count, each shard's plain entries in key order, a digest; they are read, never written.
constexpr std::uint64_t kLevelTag3 = 0x334c574546474550ull;  // "PEGFEWL3"
constexpr std::uint64_t kBlockTag = 0x3342574546474550ull;   // "PEGFEWB3"
constexpr std::uint64_t kEndTag = 0x3345574546474550ull;     // "PEGFEWE3"
constexpr std::size_t kFileHead = 24, kBlockHead = 48, kFileEnd = 32;

template <int W>
inline std::uint64_t entry_digest(std::uint64_t h, const Entry<W>& e) {
  return (h ^ mix(e.key) ^ (e.land().fold() * kGolden) ^ e.cost()) * 0x100000001b3ull;
}

// Where a chunk of a shard is in its file.
template <int W>
struct DiskChunk {
  std::uint64_t offset = 0;
  std::uint32_t bytes = 0;
  Bits<W> first;  // its first key
};

// Writes one block to the end of `file`: entries added in key order, coded a chunk at a time and
// appended a few MiB at a time; finish() writes the block's head.
template <int W>
class BlockWriter {
 public:
  BlockWriter(SpillFile& file, std::size_t shard) : file_(file), shard_(shard) {
    const std::uint64_t zero[kBlockHead / 8] = {};
    head_at_ = file_.append(zero, sizeof zero);
    pending_.reserve(kCodecChunk);
  }
  // A block left unfinished (a stop, a full disk) is cut off the file: what follows it must
  // find a whole block before it.
  ~BlockWriter() {
    if (!finished_) {
      try {
        file_.cut(head_at_);
      } catch (const std::exception&) {  // the file is left as it is: its next block is refused
      }
    }
  }
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;
  void add(const Entry<W>* e, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) add(e[i]);
  }
  void add(const Entry<W>& e) {
    digest_ = entry_digest<W>(digest_, e);
    pending_.push_back(e);
    if (pending_.size() == kCodecChunk) code();
  }
  // Ends the block: the last chunk, the bytes left, the head. Returns the block's digest.
  std::uint64_t finish() {
    if (!pending_.empty()) code();
    put();
    const std::uint64_t head[kBlockHead / 8] = {
        kBlockTag, shard_, count_, chunks_.size(), file_.size() - head_at_ - kBlockHead, digest_};
    file_.write_at(head_at_, head, sizeof head);
    finished_ = true;
    return digest_;
  }
  std::uint64_t count() const { return count_; }
  std::vector<DiskChunk<W>> take_chunks() { return std::move(chunks_); }

 private:
  void code() {
    const std::size_t at = out_.size();
    Codec<W>::encode(pending_.data(), pending_.size(), out_);
    chunks_.push_back({at, static_cast<std::uint32_t>(out_.size() - at), pending_[0].key});
    count_ += pending_.size();
    pending_.clear();
    if (out_.size() >= (std::size_t{4} << 20)) put();
  }
  // Appends the coded bytes; the chunks coded since the last put() get their file offsets.
  void put() {
    if (out_.empty()) return;
    const std::uint64_t at = file_.append(out_.data(), out_.size());
    for (std::size_t c = placed_; c < chunks_.size(); ++c) chunks_[c].offset += at;
    placed_ = chunks_.size();
    out_.clear();
  }
  SpillFile& file_;
  std::uint64_t shard_, head_at_ = 0, count_ = 0, digest_ = 0;
  std::vector<Entry<W>> pending_;
  std::vector<std::uint8_t> out_;
  std::vector<DiskChunk<W>> chunks_;
  std::size_t placed_ = 0;
  bool finished_ = false;
};

// Writes a level file's head to an empty `file`.
template <int W>
inline void write_file_head(SpillFile& file, std::size_t shards) {
  const std::uint64_t head[3] = {kLevelTag3, sizeof(Entry<W>), shards};
  file.append(head, sizeof head);
}

// Writes a level file's end after its blocks.
inline void write_file_end(SpillFile& file, std::uint64_t shards, std::uint64_t entries) {
  const std::uint64_t end[4] = {kEndTag, shards, entries, 0};
  file.append(end, sizeof end);
}

// One shard's block found in a level file.
template <int W>
struct FoundBlock {
  std::uint64_t count = 0, digest = 0;
  std::vector<DiskChunk<W>> chunks;
  bool found = false;
};

// Reads the blocks of the PEGFEWL3 file `file` (named `path` in errors): the first `limit` bytes
// of a level part made (the end is not there), or (`limit` 0) a whole level file up to its end.
// Every chunk is decoded and every block's digest checked; each entry goes to `each` (may be
// empty) with its shard. Throws InputError naming the file when anything is amiss.
template <int W>
std::vector<FoundBlock<W>> read_blocks(
    const SpillFile& file, const std::string& path, std::size_t shards, std::uint64_t limit,
    const std::function<void(std::size_t, const Entry<W>&)>& each,
    const std::function<void()>& poll) {
  auto bad = [&](const std::string& why) {
    return InputError("FewestOptions::resume", "the level file " + path + " " + why);
  };
  std::vector<FoundBlock<W>> out(shards);
  std::uint64_t at = 0;
  auto read = [&](void* data, std::size_t bytes) {
    try {
      file.read(at, data, bytes);
    } catch (const std::runtime_error&) {
      throw bad("is cut short (at byte " + std::to_string(at) + ")");
    }
    at += bytes;
  };
  std::uint64_t head[3];
  read(head, sizeof head);
  if (head[0] != kLevelTag3 || head[1] != sizeof(Entry<W>) || head[2] != shards)
    throw bad("is not a level of this build's search");
  std::vector<std::uint8_t> bytes;
  std::vector<Entry<W>> buf;
  for (;;) {
    if (limit && at == limit) break;
    std::uint64_t word[6];
    read(word, 8);
    if (!limit && word[0] == kEndTag) {
      read(word + 1, 24);
      std::uint64_t entries = 0;
      for (std::size_t d = 0; d < shards; ++d) {
        if (!out[d].found) throw bad("has no block for shard " + std::to_string(d));
        entries += out[d].count;
      }
      if (word[1] != shards || word[2] != entries) throw bad("does not match its end (damaged)");
      break;
    }
    read(word + 1, 40);
    if (word[0] != kBlockTag || word[1] >= shards) throw bad("has a damaged block head");
    FoundBlock<W> b;
    b.found = true;
    b.count = word[2];
    const std::uint64_t nchunks = word[3], payload = word[4], end = at + payload;
    if (nchunks != (b.count + kCodecChunk - 1) / kCodecChunk || (limit && end > limit))
      throw bad("has a damaged block head");
    std::uint64_t digest = 0, seen = 0;
    for (std::uint64_t c = 0; c < nchunks; ++c) {
      if (poll) poll();
      std::uint32_t size = 0;
      const std::uint64_t chunk_at = at;
      read(&size, 4);
      at = chunk_at;
      if (size < Codec<W>::kHead || at + size > end) throw bad("has a damaged chunk");
      bytes.resize(size);
      read(bytes.data(), size);
      if (!Codec<W>::decode(bytes.data(), size, buf)) throw bad("has a damaged chunk");
      if (c + 1 < nchunks && buf.size() != kCodecChunk) throw bad("has a damaged chunk");
      b.chunks.push_back({chunk_at, size, buf[0].key});
      for (const Entry<W>& e : buf) {
        digest = entry_digest<W>(digest, e);
        if (each) each(static_cast<std::size_t>(word[1]), e);
      }
      seen += buf.size();
    }
    if (at != end || seen != b.count || digest != word[5])
      throw bad("does not match its digest (damaged)");
    b.digest = digest;
    out[static_cast<std::size_t>(word[1])] = std::move(b);
  }
  return out;
}

}  // namespace pegsol::fewest_detail
