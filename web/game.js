// SPDX-License-Identifier: MIT
// The game as the page keeps it: the board's geometry, the problem (start and goal), the moves
// played and undone, and the rules the page needs to draw it; the requests it makes of the engine.
import {apply, path} from './board.js';

export const count = (pos) => [...pos].filter((c) => c === '1').length;

// The position with every hole full but `h`.
export const single = (geo, h) => '1'.repeat(h) + '0' +
    '1'.repeat(geo.holes - h - 1);

// Jumps grouped into moves: a jump that goes on with the peg that just landed joins its move.
export function chains(jumps) {
  const out = [];
  for (const j of jumps) {
    const last = out[out.length - 1];
    if (last && last[last.length - 1][2] === j[0])
      last.push(j);
    else
      out.push([j]);
  }
  return out;
}

// The moves of a game (texts like "d2-d4", "4-1-6") checked against the board from `start`.
export function parseMoves(geo, start, texts) {
  let pos = start;
  return texts.map((text, i) => {
    const hs = text.split('-').map((n) => geo.names.indexOf(n));
    const m = [];
    for (let k = 0; k + 1 < hs.length; k++) {
      const j = geo.jump_list.find(([f, , t]) => f === hs[k] && t === hs[k + 1]);
      if (!j || pos[j[0]] !== '1' || pos[j[1]] !== '1' || pos[j[2]] !== '0')
        throw new Error(`move ${i + 1} (${text}): not a legal jump of ${geo.board} there`);
      m.push(j);
      pos = apply(pos, [j]);
    }
    if (!m.length) throw new Error(`move ${i + 1} (${text}): not a move`);
    return m;
  });
}

export class Game {
  geo = null;
  L = null;       // the board's layout (board.js)
  spec = {};      // {board} or {drawing}, as the API takes it
  start = '';     // 0/1 per hole
  end = 'any';    // the last peg's hole, or 'any'
  goal = null;    // a whole goal position (0/1 string), instead of `end`
  moves = [];     // chains of [from, over, to] jumps, played and undone
  cursor = 0;     // the moves played
  chain = false;  // the last jump's peg may go on in the same move
  preset = null;  // the preset the problem is, if it is one
  edits = [];     // the games before each edit of the problem, for undo

  name(h) { return this.geo.names[h]; }
  chainText(m) { return path(m).map((h) => this.geo.names[h]).join('-'); }
  played() { return this.moves.slice(0, this.cursor); }
  pegsAt(n) { return this.moves.slice(0, n).reduce(apply, this.start); }
  pegs() { return this.pegsAt(this.cursor); }
  legalFrom(pos, h) {
    return this.geo.jump_list.filter(([f, o, t]) => f === h && pos[o] === '1' && pos[t] === '0');
  }
  anyLegal(pos) {
    return this.geo.jump_list.some(
        ([f, o, t]) => pos[f] === '1' && pos[o] === '1' && pos[t] === '0');
  }

  // The problem as the API takes it: board, start, and the last peg's hole ("end") or a whole
  // goal position ("goal").
  problem() {
    const p = {...this.spec, start: this.start};
    if (this.goal)
      p.goal = this.goal;
    else
      p.end = this.end;
    return p;
  }
  // A request about the position now: the problem and the moves played.
  request(extra = {}) {
    return {...this.problem(), moves: this.played().map((m) => this.chainText(m)), ...extra};
  }
  problemKey() { return JSON.stringify(this.problem()); }

  // The holes of the goal: the goal position's pegs, or the last peg's hole.
  goalHoles() {
    if (this.goal) return [...this.goal].flatMap((c, h) => (c === '1' ? [h] : []));
    return this.end === 'any' ? [] : [this.geo.names.indexOf(this.end)];
  }
  goalText() {
    if (this.goal) {
      const n = count(this.goal);
      return `the marked position (${n} peg${n === 1 ? '' : 's'})`;
    }
    return this.end === 'any' ? 'one peg anywhere' : `one peg on ${this.end}`;
  }
  // The goal made of these holes: none is one peg anywhere, one is one peg there, more a position.
  setGoal(holes) {
    if (holes.length >= 2) {
      this.goal = this.geo.names.map((_, h) => (holes.includes(h) ? '1' : '0')).join('');
      this.end = 'any';
    } else {
      this.goal = null;
      this.end = holes.length ? this.geo.names[holes[0]] : 'any';
    }
  }
  won(pos) {
    if (this.goal) return pos === this.goal;
    return count(pos) === 1 &&
        (this.end === 'any' || pos[this.geo.names.indexOf(this.end)] === '1');
  }

  // Plays a jump: it joins the last move when the same peg goes on at once, and drops the moves
  // undone after the cursor otherwise.
  jump(j) {
    const last = this.moves[this.cursor - 1];
    if (last && this.cursor === this.moves.length && last[last.length - 1][2] === j[0] &&
        this.chain) {
      this.moves = [...this.moves.slice(0, -1), [...last, j]];
    } else {
      this.moves = [...this.moves.slice(0, this.cursor), [j]];
      this.cursor++;
    }
    this.chain = true;
  }

  // What an edit of the problem changes, to put back on undo.
  snapshot() {
    const {start, end, goal, moves, cursor, preset} = this;
    return {start, end, goal, moves, cursor, preset};
  }
}
