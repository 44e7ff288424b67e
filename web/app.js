// SPDX-License-Identifier: MIT
// The page: play, feedback, hints, finishing, replay, editor, files, jobs. Every answer comes from
// the engine's JSON API (docs/api.md); the page only draws and keeps the game's moves.
import {layout} from './board.js';
import {createEngine} from './engine.js';
import {download, downloadGame, downloadPosition, gameText, printGame} from './files.js';
import {esc, fmt, plural} from './format.js';
import {chains, count, Game, parseMoves, single} from './game.js';
import {createJobs} from './jobs.js';
import {createSolutions} from './solutions.js';
import {createView} from './view.js';

const $ = (id) => document.getElementById(id);
// The game (game.js) and what the page shows of it: the peg picked, the editor's mode, a hint,
// the holes the last peg can end on, the move to slide at the next drawing, the keyboard's cursor.
const S = Object.assign(new Game(), {
  selected: null,
  mode: 'play',  // or 'edit-start', 'edit-goal'
  hint: null,
  ends: [],
  proof: [],
  slide: null,
  kbd: false,
  cursorHole: 0,
  anim: null,
  feedbackCtl: null,
  lost: false,
  note: null,
  presets: [],
  best: new Map(),  // the fewest moves of each problem won, by problem
  hash: '',
});

// Every answer comes from the engine: `pegsol serve` over HTTP, or the WebAssembly worker of the
// static edition (engine.js); the same requests and answers either way.
const engine = createEngine();
const api = (path, body, signal) => engine.request(path, body, signal);
const view = createView($('board'), S, {
  click: (h) => clickHole(h),
  drop: (j) => {
    stopAnim();
    jump(j, false);
  },
});

// ---- game state -----------------------------------------------------------------------------
function jump(j, slide = true) {
  S.jump(j);
  S.selected = S.legalFrom(S.pegs(), j[2]).length ? j[2] : null;
  S.slide = slide ? [j] : null;
  changed();
}

// Goes to `n` moves played; `slide` shows a step forward moving.
function setCursor(n, slide = false) {
  n = Math.max(0, Math.min(S.moves.length, n));
  S.slide = slide && n === S.cursor + 1 ? S.moves[n - 1] : null;
  S.cursor = n;
  S.selected = null;
  S.chain = false;
  changed();
}

function statusText(pos) {
  if (S.mode === 'edit-start')
    return 'Editor: click holes to place or remove pegs (Undo takes an edit back)';
  if (S.mode === 'edit-goal')
    return `Editor: click holes to put them in the goal or take them out. Goal: ${S.goalText()}`;
  if (S.won(pos)) return `Solved in ${plural(S.cursor, 'move')}!${bestText()}`;
  if (!S.anyLegal(pos)) {
    const n = count(pos);
    return `No move left: ${plural(n, 'peg')} ${n === 1 ? 'remains' : 'remain'} and the goal (${
        S.goalText()}) is not reached. Undo, restart, or ask where it went wrong.`;
  }
  return `Goal: ${S.goalText()}`;
}

// What the engine says about the fewest moves of the problem just won.
function bestText() {
  const b = S.best.get(S.problemKey());
  if (b === undefined || b === 'pending') return ' Looking up the fewest moves possible…';
  if (b.proven)
    return b.moves === S.cursor ? ' That is the fewest possible.' :
                                  ` The fewest possible: ${plural(b.moves, 'move')}.`;
  return ` The best known: ${plural(b.moves, 'move')}; every solution takes at least ${
      plural(b.lower, 'move')}.`;
}

// Asks the engine, in the background, for the fewest moves from the start of a problem won.
function fetchBest() {
  const key = S.problemKey();
  if (S.best.has(key)) return;
  S.best.set(key, 'pending');
  api('/api/solve', {...S.problem(), minimize: 'moves', time_limit: 4})
      .then((r) => {
        const m = r.minimize;
        if (m && m.moves !== null)
          S.best.set(key, {moves: m.moves, proven: m.proven, lower: m.lower_bound});
        else
          S.best.delete(key);
      })
      .catch(() => S.best.delete(key))
      .finally(() => {
        if (S.problemKey() === key && S.mode === 'play') drawSide();
      });
}

function drawSide() {
  const pos = S.mode === 'edit-start' ? S.start : S.pegs();
  $('pegs-count').textContent = plural(count(pos), 'peg');
  $('moves-count').textContent = plural(S.cursor, 'move');
  const ol = $('move-list');
  ol.replaceChildren();
  S.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = S.chainText(m);
    if (i >= S.cursor) li.className = 'undone';
    if (i === S.cursor - 1) li.className = 'current';
    li.onclick = () => {
      stopAnim();
      setCursor(i + 1);
    };
    ol.appendChild(li);
  });
  // The current move in view inside the list (the page itself does not scroll).
  const cur = ol.children[S.cursor - 1];
  if (!cur)
    ol.scrollTop = 0;
  else if (cur.offsetTop < ol.scrollTop)
    ol.scrollTop = cur.offsetTop;
  else if (cur.offsetTop + cur.offsetHeight > ol.scrollTop + ol.clientHeight)
    ol.scrollTop = cur.offsetTop + cur.offsetHeight - ol.clientHeight;
  const note = S.note && S.note.moves === S.moves ? S.note : null;
  $('moves-note').textContent = note ? note.text : '';
  $('moves-note').hidden = !note;
  if (note) $('moves-note').dataset.proven = note.proven;
  $('undo').disabled = S.cursor === 0 && !S.edits.length;
  $('redo').disabled = S.cursor === S.moves.length;
  $('replay').max = S.moves.length;
  $('replay').value = S.cursor;
  $('status').textContent = statusText(pos);
  $('status').dataset.outcome = S.mode !== 'play' ? '' :
      S.won(pos)                                  ? 'won' :
      !S.anyLegal(pos)                            ? 'lost' :
                                                    '';
  const p = S.preset;
  $('preset-note').textContent = p ? `${p.title} (${p.difficulty_name}): ${p.description}` : '';
  $('preset-note').hidden = !p;
}

function changed() {
  S.hint = null;
  S.ends = [];
  view.draw();
  drawSide();
  save();
  feedback();
  if (S.mode === 'play' && S.won(S.pegs())) fetchBest();
}

// ---- live feedback ----------------------------------------------------------------------------
// An engine's text for the page: escaped, its counts with thousands separators (not the 0/1
// strings of positions).
const prose = (s) => esc(s).replace(/\b\d{4,}\b/g, (n) => (/^[01]+$/.test(n) ? n : fmt(n)));

// A verdict in plain words (the analysis's "explanation"), the engine's own wording under
// "details", and the proof's holes marked on the board.
function verdictHtml(label, v) {
  const cls = v.verdict === 'solvable' ? 'ok' : v.verdict === 'not solvable' ? 'bad' : 'unknown';
  const plain = v.explanation || v.reason || '';
  const why = v.verdict === 'solvable' && !v.explanation ? '' : ` — ${prose(plain)}`;
  const details = v.reason && v.reason !== plain
    ? `<details class="engine-words"><summary>details</summary>${esc(v.reason)}</details>` : '';
  return `<div class="${cls}" data-verdict="${v.verdict}">${label}: <b>${v.verdict}</b>${
      why}${details}</div>`;
}

// The game's census look-ups (POST /api/lookups): asked for as a game starts, their progress
// shown under the feedback until they are built; then the feedback is asked again, exactly.
async function watchLookups() {
  const key = S.problemKey();
  if (S.lookupsKey === key) return;
  S.lookupsKey = key;
  const problem = S.problem();  // this game's, however the page's problem changes meanwhile
  const box = $('lookups');
  // A start with no pegs (the editor's Clear) has nothing to look up: not asked.
  if (!count(S.start)) {
    box.hidden = true;
    return;
  }
  for (;;) {
    let st;
    try {
      st = await api('/api/lookups', problem);
    } catch (e) {
      box.hidden = true;
      return;
    }
    if (S.lookupsKey !== key) return;
    box.dataset.state = st.state;
    if (st.state === 'queued' || st.state === 'building') {
      box.hidden = false;
      $('lookups-text').textContent = `Preparing exact answers… ${Math.round(100 * st.fraction)}%`;
      $('lookups-progress').value = st.fraction;
      await new Promise((r) => setTimeout(r, 400));
      continue;
    }
    box.hidden = true;
    if (st.state === 'ready') feedback();
    return;
  }
}

async function feedback() {
  if (S.feedbackCtl) S.feedbackCtl.abort();
  const ctl = new AbortController();
  S.feedbackCtl = ctl;
  const body = $('feedback-body');
  body.dataset.state = 'pending';
  body.innerHTML = '<i>thinking…</i>';
  S.proof = [];
  watchLookups();
  const goalLabel = S.goal ? 'Goal (the marked position)' : `Goal ${esc(S.end)}`;
  const hasGoal = S.goal || S.end !== 'any';
  if (!count(S.pegs())) {
    body.innerHTML = '<i>No pegs on the board: place some in the editor.</i>';
    body.dataset.state = 'done';
    return;
  }
  // The verdicts first (a look-up or a short search), then the count of the ways left, which
  // may take longer: each is shown as it arrives.
  try {
    const a = await api('/api/analysis', S.request({count: false}), ctl.signal);
    if (ctl.signal.aborted) return;
    let html = verdictHtml('One peg', a.one_peg);
    if (hasGoal) html += verdictHtml(goalLabel, a.goal);
    S.lost = a.goal.verdict === 'not solvable';
    const lost = hasGoal && S.lost ? a.goal : a.one_peg;
    S.proof = lost.verdict === 'not solvable' && lost.proof_holes ? lost.proof_holes : [];
    view.markEnds();
    $('wrong-btn').hidden = !(S.lost && S.cursor > 0);
    body.innerHTML = html + '<div class="counting"><i>counting the ways left…</i></div>';
    body.dataset.state = 'verdict';
    const c = await api('/api/analysis', S.request(), ctl.signal);
    if (ctl.signal.aborted) return;
    if (c.counted) {
      html += `<div>Ways to finish from here: <b class="ways">${fmt(c.ways_goal)}</b>${
          hasGoal ? ` (to one peg anywhere: ${fmt(c.ways_one_peg)})` : ''}</div>`;
      html += c.end_holes.length
        ? `<div>The last peg can still end on: ${c.end_holes.map(esc).join(', ')} (ringed)</div>`
        : '<div>The last peg can no longer be the only one left.</div>';
      S.ends = c.end_hole_indices;
    } else if (c.count_note) {
      html += `<div class="unknown">Not counted: ${prose(c.count_note)}</div>`;
    }
    body.innerHTML = html;
    body.dataset.state = 'done';
    view.markEnds();
  } catch (e) {
    if (e.name !== 'AbortError') {
      body.textContent = e.message;
      body.dataset.state = 'error';
    }
  }
}

// ---- hint, finish, fewest, where did I go wrong ------------------------------------------------
const say = (text) => ($('status').textContent = text);

async function hint() {
  try {
    const h = await api('/api/hint', S.request());
    if (h.move) {
      S.hint = h.move.jumps;
      say(`Hint: ${h.move.notation}`);
      view.draw();
    } else {
      say(h.verdict === 'solvable' ? 'Already solved' : `No hint: ${h.reason}`);
    }
  } catch (e) {
    say(e.message);
  }
}

// A token of the game as it stands: an answer asked for before a change is not played after it.
const standing = () => `${S.problemKey()}|${S.cursor}|${S.pegs()}`;

async function finish() {
  stopAnim();
  if (S.won(S.pegs())) return say('Already solved: nothing left to play.');
  say('Solving from here…');
  const at = standing();
  try {
    const r = await api('/api/solve', S.request());
    if (standing() !== at) return;
    if (r.status !== 'solved') return say(`Cannot finish: ${r.reason}`);
    const rest = chains(r.moves.slice(r.kept_moves || 0));
    if (!rest.length) return say('Already solved: nothing left to play.');
    S.moves = S.moves.slice(0, S.cursor).concat(rest);
    S.chain = false;
    animate();
  } catch (e) {
    say(e.message);
  }
}

// Plays the rest in the fewest moves (a move: jumps by one peg in a row), keeping the moves played.
// The engine's search is capped in time: stopped, it plays the best found and gives both bounds.
async function fewest() {
  stopAnim();
  say('Looking for the fewest moves from here…');
  const at = standing();
  try {
    const r = await api('/api/solve', S.request({minimize: 'moves'}));
    if (standing() === at) playFewest(r);
  } catch (e) {
    say(e.message);
  }
}

// Plays a fewest-moves answer (/api/solve or a fewest job) from the current position.
function playFewest(r) {
  const m = r.minimize;
  if (!m.chains.length)
    return say(r.status === 'solved' ? 'Already solved' : `Cannot finish: ${r.reason}`);
  const from = S.cursor;
  S.moves = S.moves.slice(0, from).concat(m.chains);
  S.chain = false;
  const range = from ? `Moves ${from + 1}-${S.moves.length}` : 'These moves';
  // The note stays with this move list: a move played makes a new list and drops it.
  S.note = {
    moves: S.moves,
    proven: m.proven,
    text: m.proven ?
        `${range}: the fewest, ${plural(m.moves, 'move')}, proven (no shorter finish exists).` :
        `${range}: the best found, ${plural(m.moves, 'move')}; every finish takes at least ${
            plural(m.lower_bound, 'move')} (${r.reason}).`,
  };
  animate();
}

function animate() {
  stopAnim();
  $('anim-bar').hidden = false;
  $('anim-play').textContent = 'Pause';
  S.anim = setInterval(() => {
    if (S.cursor >= S.moves.length) return stopAnim();
    setCursor(S.cursor + 1, true);
  }, 600);
}
function stopAnim() {
  if (S.anim) clearInterval(S.anim);
  S.anim = null;
  $('anim-play').textContent = 'Play';
}

async function whereWrong() {
  say('Looking for the first losing move…');
  try {
    const m = await api('/api/mistake', S.request());
    if (m.move === null)
      return say(
          m.start_lost ? `The start itself cannot reach the goal: ${m.reason}` :
                         m.note || 'The game is not lost');
    setCursor(m.rewind_to);
    say(`Move ${m.move + 1} (${m.move_notation}) lost the game: ${
        m.reason}. Rewound to just before it.`);
  } catch (e) {
    say(e.message);
  }
}

// A token of the problem and its first `n` moves.
const here = (n) => `${S.problemKey()}|${S.moves.slice(0, n).map((m) => S.chainText(m)).join(' ')}`;

// Back to the moves played a here() token names, when the move list still starts with them.
function rewind(token) {
  for (let n = 0; n <= S.moves.length; n++)
    if (here(n) === token) {
      stopAnim();
      setCursor(n);
      return true;
    }
  return false;
}

// Puts a solution's moves after the moves played, to step through (Step, Play, the slider).
function showSolution(rest, label) {
  stopAnim();
  const from = S.cursor;
  S.moves = S.moves.slice(0, from).concat(rest);
  S.chain = false;
  S.note = {
    moves: S.moves,
    proven: true,
    text: `${label}: moves ${from + 1}-${S.moves.length}; Step, Play or the slider go through it.`,
  };
  $('anim-bar').hidden = false;
  changed();
}

// The whole game to print or draw: the list's moves when they win, else the moves played and a
// finish the engine finds from there ({error} when there is none).
async function wholeGame() {
  const title = `pegsol — ${S.spec.board || 'a drawn board'}, goal: ${S.goalText()}`;
  if (S.moves.length && S.won(S.pegsAt(S.moves.length)))
    return {moves: S.moves, title, note: `The game as played: ${plural(S.moves.length, 'move')}.`};
  if (S.won(S.pegs()))
    return {moves: S.played(), title, note: `The game as played: ${plural(S.cursor, 'move')}.`};
  const r = await api('/api/solve', S.request());
  if (r.status !== 'solved') return {error: r.reason || r.status};
  const rest = chains(r.moves.slice(r.kept_moves || 0));
  const n = S.cursor;
  const note = n ?
      `Moves 1-${n} as played, then moves ${n + 1}-${n + rest.length} found by the engine.` :
      `A solution found by the engine: ${plural(rest.length, 'move')}.`;
  return {moves: S.played().concat(rest), title, note};
}

async function useWholeGame(what, f) {
  say(`Preparing ${what}…`);
  try {
    const g = await wholeGame();
    if (g.error)
      return say(`No solution for ${what}: the goal cannot be reached from here (${
          g.error}). Undo or restart first.`);
    say(`${what[0].toUpperCase()}${what.slice(1)}: ${g.note}`);
    await f(g);
  } catch (e) {
    say(e.message);
  }
}

// ---- boards, presets, editor ----------------------------------------------------------------
// The start of a board picked under "Other boards": its default when one peg can be reached from
// it, else the first single vacancy the engine finds solvable (a few seconds at most).
async function solvableStart(spec, geo) {
  const candidates = [...new Set(
      [geo.default?.start, ...geo.names.map((_, h) => single(geo, h))].filter(Boolean))];
  const until = performance.now() + 6000;
  const open = [];  // the starts the engine could not settle in its time
  let asked = 0;
  for (const start of candidates) {
    if (performance.now() > until) break;
    asked++;
    const a = await api('/api/analysis', {...spec, start, end: 'any', count: false, time_limit: 2})
                  .catch(() => null);
    if (a?.one_peg.verdict === 'solvable')
      return {start, end: start === geo.default?.start ? geo.default.end : 'any'};
    if (a?.one_peg.verdict !== 'not solvable') open.push(start);
  }
  // None shown solvable: the first the engine could not settle, else the default, saying why.
  const start = open[0] ?? geo.default?.start ?? single(geo, 0);
  const all = asked === candidates.length;
  return {
    start,
    end: start === geo.default?.start ? geo.default.end : 'any',
    note: open.length ?
        '' :
        `No single vacancy of ${geo.board} ${all ? 'leaves' : 'was found that leaves'} one peg: ` +
            'this start cannot be solved.',
  };
}

// Loads a board and a game on it: `o` may give start (a 0/1 string or a hole), end, goal (a 0/1
// string), moves (texts), cursor, preset, and `solvable` (pick a start one peg can be reached
// from).
async function loadBoard(spec, o = {}) {
  const geo = await api('/api/board', spec);
  let {start, end, goal} = o;
  let note = '';
  // A drawing's start is its pegs, as the library reads them.
  if (start == null && spec.drawing)
    start = (await api('/api/game', {drawing: spec.drawing})).start;
  if (start == null && o.solvable) ({start, end, note = ''} = await solvableStart(spec, geo));
  start ??= geo.default?.start ?? single(geo, 0);
  if (!/^[01]+$/.test(start) || start.length !== geo.holes) {
    const h = geo.names.indexOf(start);
    if (h < 0)
      throw new Error(`start ${start}: neither a hole of ${geo.board} nor ${geo.holes} 0/1 digits`);
    start = single(geo, h);
  }
  if (goal && !(/^[01]+$/.test(goal) && goal.length === geo.holes))
    throw new Error(`goal ${goal}: not ${geo.holes} 0/1 digits`);
  end ??= goal ? 'any' : geo.default?.end ?? 'any';
  if (end !== 'any' && !geo.names.includes(end))
    throw new Error(`end ${end}: no hole of ${geo.board} has that name`);
  const moves = parseMoves(geo, start, o.moves || []);
  stopAnim();
  Object.assign(S, {
    geo,
    L: layout(geo),
    spec,
    start,
    end,
    goal: goal || null,
    moves,
    cursor: Math.min(o.cursor ?? moves.length, moves.length),
    edits: [],
    note: null,
    selected: null,
    chain: false,
    mode: 'play',
    cursorHole: 0,
    preset: o.preset || null,
  });
  $('preset-select').value = o.preset ? o.preset.name : '';
  syncBoardSelect();
  changed();
  if (note) say(note);
}

// The Board selector names the board played, a catalogue one or not.
function syncBoardSelect() {
  const sel = $('board-select');
  let other = $('board-other');
  const name = S.spec.board;
  if (name && [...sel.options].some((o) => o.value === name && o.id !== 'board-other')) {
    other?.remove();
    sel.value = name;
    return;
  }
  if (!other) {
    other = new Option();
    other.id = 'board-other';
    sel.add(other);
  }
  other.value = name || 'drawing';
  other.textContent = `${name || 'drawn board'} (${S.geo.holes})`;
  sel.value = other.value;
}

// Changes the problem, undoably: the game before it, moves and all, is kept for Undo.
function edit(change, keepMoves = false) {
  stopAnim();
  S.edits.push(S.snapshot());
  change();
  if (!keepMoves) {
    S.moves = [];
    S.cursor = 0;
  }
  // The problem is no longer the preset's.
  Object.assign(S, {note: null, selected: null, chain: false, preset: null});
  $('preset-select').value = '';
  changed();
}

function undo() {
  stopAnim();
  if (S.edits.length && (S.mode !== 'play' || S.cursor === 0)) {
    Object.assign(S, S.edits.pop(), {selected: null, chain: false});
    $('preset-select').value = S.preset ? S.preset.name : '';
    changed();
    say('Edit undone.');
  } else {
    setCursor(S.cursor - 1);
  }
}

function clickHole(h) {
  const pos = S.pegs();
  if (S.mode === 'edit-start') {
    const p = S.start.split('');
    p[h] = p[h] === '1' ? '0' : '1';
    return edit(() => (S.start = p.join('')));
  }
  if (S.mode === 'edit-goal') {
    const holes = S.goalHoles();
    return edit(
        () => S.setGoal(holes.includes(h) ? holes.filter((x) => x !== h) : [...holes, h]), true);
  }
  if (S.selected !== null) {
    const j = S.legalFrom(pos, S.selected).find((x) => x[2] === h);
    if (j) {
      stopAnim();
      return jump(j);
    }
  }
  if (pos[h] === '1' && S.legalFrom(pos, h).length) {
    S.selected = h;
    S.chain = S.chain && S.moves[S.cursor - 1]?.at(-1)[2] === h;
  } else {
    S.selected = null;
  }
  view.draw();
}

// ---- save, load, URL --------------------------------------------------------------------------
// The URL's hash: board (or drawing), start, end or goal, and the moves played.
function hashOf() {
  const q = new URLSearchParams();
  if (S.spec.board)
    q.set('board', S.spec.board);
  else if (S.spec.drawing)
    q.set('drawing', S.spec.drawing);
  q.set('start', S.start);
  if (S.goal)
    q.set('goal', S.goal);
  else
    q.set('end', S.end);
  if (S.cursor) q.set('moves', S.played().map((m) => S.chainText(m)).join(' '));
  return `#${q}`;
}

function save() {
  const g = {
    spec: S.spec,
    start: S.start,
    end: S.end,
    goal: S.goal,
    moves: S.moves.map((m) => S.chainText(m)),
    cursor: S.cursor
  };
  try {
    localStorage.setItem('pegsol-game', JSON.stringify(g));
  } catch {
    // Storage full or refused: the URL still carries the game.
  }
  S.hash = hashOf();
  if (location.hash !== S.hash) history.replaceState(null, '', S.hash);
}

// The game a link's hash describes, loaded; null when it names no board.
function fromHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  const spec = q.get('board') ? {board: q.get('board')} :
      q.get('drawing')        ? {drawing: q.get('drawing')} :
                                null;
  if (!spec) return null;
  const moves = (q.get('moves') || '').split(/[\s,]+/).filter(Boolean);
  return loadBoard(spec, {start: q.get('start'), end: q.get('end'), goal: q.get('goal'), moves});
}

// The game at the page's start: the link's, else the one saved in the browser, else a triangle.
async function restore() {
  let problem = '';
  try {
    const fromLink = fromHash();
    if (fromLink) return await fromLink;
  } catch (e) {
    problem = `The link's game cannot be loaded: ${e.message}`;
  }
  await restoreSaved();
  if (problem) say(problem);
}

async function restoreSaved() {
  const saved = localStorage.getItem('pegsol-game');
  if (saved) {
    try {
      const g = JSON.parse(saved);
      return await loadBoard(
          g.spec, {start: g.start, end: g.end, goal: g.goal, moves: g.moves, cursor: g.cursor});
    } catch {
      // A stale save: start afresh.
    }
  }
  return loadBoard({board: 'triangle:5'});
}

async function loadText(text) {
  const g = await api('/api/game', {text});
  const spec = g.board && !g.text.includes('\nboard:\n') ?
      {board: g.board} :
      {drawing: g.text.split('\nstart:')[0].split('board:\n')[1]};
  await loadBoard(spec, {
    start: g.start,
    end: g.goal.kind === 'hole' ? g.goal.hole : 'any',
    goal: g.goal.kind === 'position' ? g.goal.position : null,
    moves: [...g.moves, ...g.undone],
    cursor: g.moves.length,
  });
}

// ---- wiring -----------------------------------------------------------------------------------
const failSay = (p) => p.catch((e) => say(e.message));

async function init() {
  const [boards, presets] = await Promise.all([api('/api/boards'), api('/api/presets')]);
  for (const b of boards.boards)
    $('board-select').add(new Option(`${b.board} (${b.holes})`, b.board));
  for (const p of presets.presets) {
    const o = new Option(`${p.title} — ${p.difficulty_name}`, p.name);
    o.title = p.description;
    $('preset-select').add(o);
  }
  S.presets = presets.presets;
  $('board-select').onchange = () => {
    const v = $('board-select').value;
    if ($('board-select').selectedOptions[0]?.id !== 'board-other') failSay(loadBoard({board: v}));
  };
  $('preset-select').onchange = () => {
    const p = S.presets.find((x) => x.name === $('preset-select').value);
    if (p) failSay(loadBoard({board: p.board}, {start: p.start, end: p.end, preset: p}));
  };
  // Other boards: the fields' limits checked here, and a start one peg can be reached from.
  const use = (input, spec) => () => {
    if (!input.checkValidity()) {
      say(`${input.labels[0].textContent.trim()}: ${input.validationMessage}`);
      input.reportValidity();
      return;
    }
    say('Looking for a solvable start…');
    failSay(loadBoard({board: spec()}, {solvable: true}));
  };
  $('use-tri').onclick = use($('tri-rows'), () => `triangle:${$('tri-rows').value}`);
  $('use-hex').onclick = use($('hex-side'), () => `hexagon:${$('hex-side').value}`);
  $('use-rect').onclick = use($('rect-spec'), () => `rect:${$('rect-spec').value}`);
  $('use-drawing').onclick = () => failSay(loadBoard({drawing: $('drawing').value}, {end: 'any'}));
  $('undo').onclick = undo;
  $('redo').onclick = () => setCursor(S.cursor + 1, true);
  $('restart').onclick = () => {
    stopAnim();
    setCursor(0);
    if (S.moves.length) say('Back to the start: Redo plays the moves again.');
  };
  $('hint-btn').onclick = hint;
  $('finish-btn').onclick = finish;
  $('fewest-btn').onclick = fewest;
  $('wrong-btn').onclick = whereWrong;
  $('anim-play').onclick = () => (S.anim ? stopAnim() : animate());
  $('anim-step').onclick = () => {
    stopAnim();
    setCursor(S.cursor + 1, true);
  };
  $('anim-back').onclick = () => {
    stopAnim();
    setCursor(S.cursor - 1);
  };
  $('replay').oninput = () => {
    stopAnim();
    setCursor(Number($('replay').value));
  };
  const mode = (m) => () => {
    stopAnim();
    S.mode = m;
    S.selected = null;
    view.draw();
    drawSide();
  };
  $('edit-start').onclick = mode('edit-start');
  $('edit-goal').onclick = mode('edit-goal');
  $('edit-clear').onclick = () => {
    S.mode = 'edit-start';
    edit(() => (S.start = '0'.repeat(S.geo.holes)));
  };
  $('edit-fill').onclick = () => {
    S.mode = 'edit-start';
    edit(() => (S.start = '1'.repeat(S.geo.holes)));
  };
  $('goal-any').onclick = () => edit(() => S.setGoal([]), true);
  $('edit-done').onclick = () => {
    S.mode = 'play';
    changed();
  };
  $('save-btn').onclick = async () => {
    try {
      const t =
          await gameText(api, S.request(), S.moves.slice(S.cursor).map((m) => S.chainText(m)));
      $('game-text').value = t;
      download('game.txt', 'text/plain', t);
    } catch (e) {
      say(e.message);
    }
  };
  $('load-file').onchange = async (ev) => {
    const f = ev.target.files[0];
    if (f) failSay(loadText(await f.text()));
  };
  $('load-text').onclick = () => failSay(loadText($('game-text').value));
  const lastMove = () => (S.cursor ? S.moves[S.cursor - 1] : null);
  $('svg-btn').onclick = () => failSay(downloadPosition(S.geo, S.pegs(), lastMove(), 'svg'));
  $('png-btn').onclick = () => failSay(downloadPosition(S.geo, S.pegs(), lastMove(), 'png'));
  $('game-svg-btn').onclick = () =>
      useWholeGame('the game\'s picture', (g) => downloadGame(S.geo, S.start, g, 'svg'));
  $('game-png-btn').onclick = () =>
      useWholeGame('the game\'s picture', (g) => downloadGame(S.geo, S.start, g, 'png'));
  $('print-btn').onclick = () =>
      useWholeGame('the print page', (g) => printGame($('print-area'), S.geo, S.start, g));
  const jobs = createJobs({
    api,
    engine,
    $,
    request: (extra) => S.request(extra),
    position: () => S.pegs(),
    movesPlayed: () => S.cursor,
    playFewest,
    playProblem: (v, end) => failSay(loadBoard(S.spec, {start: single(S.geo, v), end})),
    status: say,
  });
  createSolutions({
    api,
    $,
    request: (extra) => S.request(extra),
    here: () => here(S.cursor),
    rewind,
    show: showSolution,
  });
  $('job-count').onclick = () => jobs.start('count');
  $('job-table').onclick = () => jobs.start('table');
  $('job-fewest').onclick = () => jobs.start('fewest');
  $('job-pause').onclick = () => jobs.action('pause');
  $('job-resume').onclick = () => jobs.action('resume');
  $('job-cancel').onclick = () => jobs.action('cancel');
  $('help-btn').onclick = () => {
    $('help').showModal();
    $('help').scrollTop = 0;
  };
  document.addEventListener('keydown', (ev) => {
    if (ev.target.matches('input, textarea, select') || $('help').open) return;
    const k = ev.key.toLowerCase();
    const mod = ev.ctrlKey || ev.metaKey;
    if (mod && k === 'z') {
      ev.preventDefault();
      $(ev.shiftKey ? 'redo' : 'undo').click();
    } else if (mod && k === 'y') {
      ev.preventDefault();
      $('redo').click();
    } else if (!mod && !ev.altKey) {
      const keys = {h: hint, f: finish, m: fewest, u: () => $('undo').click()};
      if (keys[k]) keys[k]();
    }
  });
  // A link pasted into the open tab (or its hash edited) loads the game it describes.
  window.addEventListener('hashchange', () => {
    if (location.hash === S.hash) return;
    const p = fromHash();
    if (p) p.catch((e) => say(`The link's game cannot be loaded: ${e.message}`));
  });
  await restore();
  document.body.dataset.ready = '1';
}

init().catch((e) => say(e.message));
