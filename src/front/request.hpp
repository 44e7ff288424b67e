// SPDX-License-Identifier: MIT
// A JSON API request's parts, read for the dispatcher (api.cpp): its keys checked, its strings,
// numbers and seconds, its problem, board and game, and a query string's parameters. Bad input
// is ApiError (400) or InputError naming the key.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pegsol/board.hpp"
#include "pegsol/play.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::api::detail {

// The string at `key`, empty when absent; a request reads no files, so no @FILE.
std::string field(const nlohmann::json& j, const char* key);
// The number at `key`, `fallback` when absent.
double number(const nlohmann::json& j, const char* key, double fallback);
// A request's seconds at `key` (above 0), or `fallback` when absent.
double seconds(const nlohmann::json& j, const char* key, double fallback);
// Throws ApiError (400) naming the first key of `body` that `method` `path` does not take.
void check_keys(const nlohmann::json& body, std::string_view method, std::string_view path);
// Throws ApiError (400) unless `body` names the board of its problem (a "board" or a "drawing").
void check_board_named(const nlohmann::json& body, std::string_view method, std::string_view path);
// The seconds a request asked for within `cap` (0: no cap).
double capped(double asked, double cap);
// The request's problem: "board", "lattice", "start", "end", or "drawing", and "goal".
Problem request_problem(const nlohmann::json& body);
// The board of a request: "board" (and "lattice"), or the board of its "drawing".
BoardPtr request_board(const nlohmann::json& body);
// The request's game: its problem and "moves" played in turn.
Game request_game(const nlohmann::json& body);
// The problem of going on from the game's current position towards its goal.
Problem from_here(const Game& g);
// The query's parameters as a JSON object of strings (the first of a repeated key).
nlohmann::json query_object(std::string_view query);

}  // namespace pegsol::api::detail
