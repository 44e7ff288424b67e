// The page: play, feedback, hints, finishing, replay, editor, files, jobs. Every answer comes from
// the engine's JSON API (docs/api.md); the page only draws and keeps the game's moves.
import { layout, el, picture } from './board.js';
import { createEngine } from './engine.js';

const $ = (id) => document.getElementById(id);
const S = {
  geo: null, spec: {}, start: '', end: 'any', moves: [], cursor: 0,
  selected: null, cursorHole: 0, mode: 'play', hint: null, ends: [], anim: null,
  feedbackCtl: null, lost: false, job: null,
};

// Every answer comes from the engine: `pegsol serve` over HTTP, or the WebAssembly worker of the
// static edition (engine.js); the same requests and answers either way.
const engine = createEngine();
const api = (path, body, signal) => engine.request(path, body, signal);

// ---- game state -----------------------------------------------------------------------------
const names = (h) => S.geo.names[h];
const chainText = (m) => [m[0][0], ...m.map((j) => j[2])].map(names).join('-');
const played = () => S.moves.slice(0, S.cursor);
function pegsAt(n) {
  const p = S.start.split('');
  for (const m of S.moves.slice(0, n)) for (const [f, o, t] of m) { p[f] = '0'; p[o] = '0'; p[t] = '1'; }
  return p.join('');
}
const pegs = () => pegsAt(S.cursor);
const legalFrom = (pos, h) => S.geo.jump_list.filter(([f, o, t]) => f === h && pos[o] === '1' && pos[t] === '0');
const anyLegal = (pos) => S.geo.jump_list.some(([f, o, t]) => pos[f] === '1' && pos[o] === '1' && pos[t] === '0');
function request(extra = {}) {
  const r = { ...S.spec, start: S.start, end: S.end, moves: played().map(chainText), ...extra };
  return r;
}

function jump(j) {
  const last = S.moves[S.cursor - 1];
  if (last && S.cursor === S.moves.length && last[last.length - 1][2] === j[0] && S.chain)
    last.push(j);
  else { S.moves = S.moves.slice(0, S.cursor); S.moves.push([j]); S.cursor++; }
  S.chain = true;
  S.selected = legalFrom(pegs(), j[2]).length ? j[2] : null;
  changed();
}

function setCursor(n) { S.cursor = Math.max(0, Math.min(S.moves.length, n)); S.selected = null; S.chain = false; changed(); }

// ---- drawing ----------------------------------------------------------------------------------
function draw() {
  const svg = $('board');
  svg.replaceChildren();
  const L = layout(S.geo);
  svg.setAttribute('viewBox', L.viewBox);
  const defs = el('defs', {}, svg);
  const mk = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#2b6cb0' }, mk);
  const pos = S.mode === 'edit-start' ? S.start : pegs();
  const targets = S.selected !== null ? legalFrom(pos, S.selected) : [];
  const goalHole = S.end !== 'any' ? S.geo.names.indexOf(S.end) : -1;
  const small = S.geo.holes > 60;
  L.pts.forEach(([x, y], h) => {
    const g = el('g', { 'data-hole': h, class: 'cell' }, svg);
    const t = targets.find((j) => j[2] === h);
    el('circle', { cx: x, cy: y, r: 0.4, class: t ? 'hole target' : 'hole', 'data-hole': h }, g);
    if (h === goalHole) el('circle', { cx: x, cy: y, r: 0.46, class: 'goal-mark' }, g);
    if (S.ends.includes(h)) el('circle', { cx: x, cy: y, r: 0.5, class: 'end-ring' }, g);
    if (pos[h] === '1') el('circle', { cx: x, cy: y, r: 0.3, class: h === S.selected ? 'peg selected' : 'peg', 'data-hole': h }, g);
    if (!small) el('text', { x, y, class: pos[h] === '1' ? 'label on-peg' : 'label' }, g).textContent = names(h);
    if (h === S.cursorHole && S.kbd) el('circle', { cx: x, cy: y, r: 0.44, class: 'cursor' }, g);
  });
  if (S.hint) for (const [f, , t] of S.hint)
    el('line', { x1: L.pts[f][0], y1: L.pts[f][1], x2: (L.pts[f][0] + 3 * L.pts[t][0]) / 4, y2: (L.pts[f][1] + 3 * L.pts[t][1]) / 4, class: 'hint-arrow' }, svg);
}

function drawSide() {
  const pos = pegs();
  const n = [...pos].filter((c) => c === '1').length;
  $('pegs-count').textContent = `${n} peg${n === 1 ? '' : 's'}`;
  $('moves-count').textContent = `${S.cursor} move${S.cursor === 1 ? '' : 's'}`;
  const ol = $('move-list');
  ol.replaceChildren();
  S.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = chainText(m);
    if (i >= S.cursor) li.style.opacity = 0.45;
    if (i === S.cursor - 1) li.className = 'current';
    li.onclick = () => setCursor(i + 1);
    ol.appendChild(li);
  });
  const note = S.note && S.note.moves === S.moves ? S.note : null;
  $('moves-note').textContent = note ? note.text : '';
  $('moves-note').hidden = !note;
  if (note) $('moves-note').dataset.proven = note.proven;
  $('undo').disabled = S.cursor === 0;
  $('redo').disabled = S.cursor === S.moves.length;
  $('replay').max = S.moves.length;
  $('replay').value = S.cursor;
  const goal = S.end === 'any' ? 'one peg anywhere' : `one peg on ${S.end}`;
  $('status').textContent = S.mode === 'edit-start' ? 'Editor: click holes to place or remove pegs'
    : S.mode === 'edit-goal' ? 'Editor: click the goal hole'
      : !anyLegal(pos) ? (won(pos) ? 'Solved! ' : 'No move left. ') + `Goal: ${goal}` : `Goal: ${goal}`;
}

function won(pos) {
  const n = [...pos].filter((c) => c === '1').length;
  return n === 1 && (S.end === 'any' || pos[S.geo.names.indexOf(S.end)] === '1');
}

function changed() {
  S.hint = null;
  draw();
  drawSide();
  save();
  feedback();
}

// ---- live feedback ----------------------------------------------------------------------------
function verdictHtml(label, v) {
  const cls = v.verdict === 'solvable' ? 'ok' : v.verdict === 'not solvable' ? 'bad' : 'unknown';
  const why = v.verdict === 'solvable' ? '' : ` — ${esc(v.reason)}`;
  return `<div class="${cls}" data-verdict="${v.verdict}">${label}: <b>${v.verdict}</b>${why}</div>`;
}
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

async function feedback() {
  if (S.feedbackCtl) S.feedbackCtl.abort();
  const ctl = new AbortController();
  S.feedbackCtl = ctl;
  const body = $('feedback-body');
  body.dataset.state = 'pending';
  body.innerHTML = '<i>thinking…</i>';
  S.ends = [];
  // The verdicts first (a look-up or a short search), then the count of the ways left, which
  // may take longer: each is shown as it arrives.
  try {
    const a = await api('/api/analysis', { ...request(), count: false }, ctl.signal);
    if (ctl.signal.aborted) return;
    let html = verdictHtml('One peg', a.one_peg);
    if (S.end !== 'any') html += verdictHtml(`Goal ${esc(S.end)}`, a.goal);
    S.lost = a.goal.verdict === 'not solvable';
    $('wrong-btn').hidden = !(S.lost && S.cursor > 0);
    body.innerHTML = html + '<div class="counting"><i>counting the ways left…</i></div>';
    body.dataset.state = 'verdict';
    const c = await api('/api/analysis', request(), ctl.signal);
    if (ctl.signal.aborted) return;
    if (c.counted) {
      html += `<div>Ways to finish from here: <b>${c.ways_goal}</b>${S.end !== 'any' ? ` (to one peg anywhere: ${c.ways_one_peg})` : ''}</div>`;
      html += `<div>The last peg can still end on: ${c.end_holes.map(esc).join(', ') || '—'} (ringed)</div>`;
      S.ends = c.end_hole_indices;
    } else if (c.count_note) html += `<div class="unknown">Not counted: ${esc(c.count_note)}</div>`;
    body.innerHTML = html;
    body.dataset.state = 'done';
    draw();
  } catch (e) {
    if (e.name !== 'AbortError') { body.textContent = e.message; body.dataset.state = 'error'; }
  }
}

// ---- hint, finish, where did I go wrong ----------------------------------------------------------
async function hint() {
  try {
    const h = await api('/api/hint', request());
    if (h.move) { S.hint = h.move.jumps; $('status').textContent = `Hint: ${h.move.notation}`; draw(); }
    else $('status').textContent = h.verdict === 'solvable' ? 'Already solved' : `No hint: ${h.reason}`;
  } catch (e) { $('status').textContent = e.message; }
}

async function finish() {
  $('status').textContent = 'Solving from here…';
  try {
    const r = await api('/api/solve', request());
    if (r.status !== 'solved') { $('status').textContent = `Cannot finish: ${r.reason}`; return; }
    const rest = [];
    for (const j of r.moves.slice(r.kept_moves || 0)) {
      const last = rest[rest.length - 1];
      if (last && last[last.length - 1][2] === j[0]) last.push(j); else rest.push([j]);
    }
    S.moves = S.moves.slice(0, S.cursor).concat(rest);
    S.chain = false;
    animate();
  } catch (e) { $('status').textContent = e.message; }
}

// Plays the rest in the fewest moves (a move: jumps by one peg in a row), keeping the moves played.
// The server's search is capped in time: stopped, it plays the best found and gives both bounds.
async function fewest() {
  $('status').textContent = 'Looking for the fewest moves from here…';
  try { playFewest(await api('/api/solve', request({ minimize: 'moves' }))); } catch (e) { $('status').textContent = e.message; }
}
// Plays a fewest-moves answer (/api/solve or a fewest job) from the current position.
function playFewest(r) {
  const m = r.minimize;
  if (!m.chains.length) { $('status').textContent = r.status === 'solved' ? 'Already solved' : `Cannot finish: ${r.reason}`; return; }
  const from = S.cursor;
  S.moves = S.moves.slice(0, from).concat(m.chains);
  S.chain = false;
  const plural = (n) => `${n} move${n === 1 ? '' : 's'}`;
  const range = from ? `Moves ${from + 1}-${S.moves.length}` : 'These moves';
  // The note stays with this move list: a move played makes a new list and drops it.
  S.note = {
    moves: S.moves, proven: m.proven,
    text: m.proven ? `${range}: the fewest, ${plural(m.moves)}, proven (no shorter finish exists).`
      : `${range}: the best found, ${plural(m.moves)}; every finish takes at least ${plural(m.lower_bound)} (${r.reason}).`,
  };
  animate();
}

function animate() {
  stopAnim();
  $('anim-bar').hidden = false;
  $('anim-play').textContent = 'Pause';
  S.anim = setInterval(() => {
    if (S.cursor >= S.moves.length) { stopAnim(); return; }
    setCursor(S.cursor + 1);
  }, 600);
}
function stopAnim() { if (S.anim) clearInterval(S.anim); S.anim = null; $('anim-play').textContent = 'Play'; }

async function whereWrong() {
  $('status').textContent = 'Looking for the first losing move…';
  try {
    const m = await api('/api/mistake', request());
    if (m.move === null) { $('status').textContent = m.start_lost ? `The start itself cannot reach the goal: ${m.reason}` : m.note || 'The game is not lost'; return; }
    setCursor(m.rewind_to);
    $('status').textContent = `Move ${m.move + 1} (${m.move_notation}) lost the game: ${m.reason}. Rewound to just before it.`;
  } catch (e) { $('status').textContent = e.message; }
}

// ---- boards, presets, editor ----------------------------------------------------------------
async function loadBoard(spec, start, end, moves = []) {
  const geo = await api('/api/board', spec);
  // A drawing's start is its pegs, as the library reads them.
  if (start == null && spec.drawing) start = (await api('/api/game', { drawing: spec.drawing })).start;
  S.geo = geo;
  S.spec = spec;
  S.start = start ?? geo.default?.start ?? '1'.repeat(geo.holes).replace(/^1/, '0');
  S.end = end ?? geo.default?.end ?? 'any';
  S.moves = [];
  S.cursor = 0;
  S.selected = null;
  S.chain = false;
  for (const text of moves) {
    const hs = text.split('-').map((n) => geo.names.indexOf(n));
    const m = [];
    for (let i = 0; i + 1 < hs.length; i++) {
      const j = geo.jump_list.find(([f, , t]) => f === hs[i] && t === hs[i + 1]);
      if (!j) throw new Error(`move ${text}: not a jump of ${geo.board}`);
      m.push(j);
    }
    S.moves.push(m);
  }
  S.cursor = S.moves.length;
  if (spec.board) $('board-select').value = spec.board;
  changed();
}

function clickHole(h) {
  const pos = pegs();
  if (S.mode === 'edit-start') {
    const p = S.start.split(''); p[h] = p[h] === '1' ? '0' : '1'; S.start = p.join('');
    S.moves = []; S.cursor = 0; changed(); return;
  }
  if (S.mode === 'edit-goal') { S.end = names(h); S.mode = 'play'; changed(); return; }
  if (S.selected !== null) {
    const j = legalFrom(pos, S.selected).find((x) => x[2] === h);
    if (j) { stopAnim(); jump(j); return; }
  }
  if (pos[h] === '1' && legalFrom(pos, h).length) { S.selected = h; S.chain = S.chain && S.moves[S.cursor - 1]?.at(-1)[2] === h; }
  else S.selected = null;
  draw();
}

function holeAt(ev) {
  const t = document.elementFromPoint(ev.clientX, ev.clientY);
  const g = t && t.closest('[data-hole]');
  return g ? Number(g.getAttribute('data-hole')) : null;
}

function bindBoard() {
  const svg = $('board');
  let drag = null;
  svg.addEventListener('pointerdown', (ev) => {
    const h = holeAt(ev);
    if (h === null) return;
    S.kbd = false;
    drag = { from: h, x: ev.clientX, y: ev.clientY };
    clickHole(h);
  });
  svg.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    const h = holeAt(ev);
    const moved = Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 8;
    if (moved && h !== null && h !== drag.from && S.selected === drag.from) clickHole(h);
    drag = null;
  });
  svg.addEventListener('keydown', (ev) => {
    const L = layout(S.geo);
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[ev.key]) {
      ev.preventDefault();
      S.kbd = true;
      const [dx, dy] = dirs[ev.key];
      const [cx, cy] = L.pts[S.cursorHole];
      let best = null, bd = Infinity;
      L.pts.forEach(([x, y], h) => {
        const along = (x - cx) * dx + (y - cy) * dy;
        if (along <= 0.1) return;
        const d = along + 3 * Math.abs((x - cx) * dy - (y - cy) * dx);
        if (d < bd) { bd = d; best = h; }
      });
      if (best !== null) S.cursorHole = best;
      draw();
    } else if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); S.kbd = true; clickHole(S.cursorHole); }
    else if (ev.key === 'Escape') { S.selected = null; draw(); }
  });
}

// ---- save, load, URL --------------------------------------------------------------------------
function gameState() { return { spec: S.spec, start: S.start, end: S.end, moves: S.moves.map(chainText), cursor: S.cursor }; }
function save() {
  const g = gameState();
  localStorage.setItem('pegsol-game', JSON.stringify(g));
  const q = new URLSearchParams();
  if (g.spec.board) q.set('board', g.spec.board);
  q.set('start', g.start); q.set('end', g.end);
  if (g.cursor) q.set('moves', g.moves.slice(0, g.cursor).join(' '));
  if (!g.spec.drawing) history.replaceState(null, '', `#${q}`);
}
async function restore() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (q.get('board')) return loadBoard({ board: q.get('board') }, q.get('start'), q.get('end'), (q.get('moves') || '').split(' ').filter(Boolean));
  const saved = localStorage.getItem('pegsol-game');
  if (saved) {
    try {
      const g = JSON.parse(saved);
      await loadBoard(g.spec, g.start, g.end, g.moves);
      setCursor(g.cursor);
      return;
    } catch { /* a stale save: start afresh */ }
  }
  return loadBoard({ board: 'triangle:5' });
}

async function gameText() { return (await api('/api/game', request())).text; }
function download(name, type, data) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([data], { type }));
  a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
}
async function loadText(text) {
  const g = await api('/api/game', { text });
  const spec = g.board && !g.text.includes('\nboard:\n') ? { board: g.board } : { drawing: g.text.split('\nstart:')[0].split('board:\n')[1] };
  const end = g.goal.kind === 'hole' ? g.goal.hole : 'any';
  await loadBoard(spec, g.start, end, [...g.moves, ...g.undone]);
  setCursor(g.moves.length);
}

function svgText() {
  const s = picture(S.geo, pegs(), { size: 480 });
  return new XMLSerializer().serializeToString(s);
}
function png() {
  const img = new Image();
  img.onload = () => {
    const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    c.getContext('2d').drawImage(img, 0, 0);
    c.toBlob((b) => download('pegsol.png', 'image/png', b));
  };
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText());
}
async function printSolution() {
  let moves = S.moves;
  if (!won(pegsAt(S.moves.length))) {
    const r = await api('/api/solve', { ...S.spec, start: S.start, end: S.end });
    if (r.status !== 'solved') { $('status').textContent = `No solution to print: ${r.reason}`; return; }
    moves = r.moves.map((j) => [j]);
  }
  const area = $('print-area');
  area.replaceChildren();
  const p = S.start.split('');
  const fig = (caption, jmp) => {
    const f = document.createElement('figure');
    f.appendChild(picture(S.geo, p.join(''), { size: 150, jump: jmp }));
    const c = document.createElement('figcaption'); c.textContent = caption; f.appendChild(c);
    area.appendChild(f);
  };
  fig('start');
  moves.flat().forEach((j, i) => { const [f, o, t] = j; p[f] = '0'; p[o] = '0'; p[t] = '1'; fig(`${i + 1}. ${names(f)}-${names(t)}`, j); });
  window.print();
}

// ---- jobs -------------------------------------------------------------------------------------
// Pause, resume and cancel act on a live job only: disabled while none runs or one is starting.
function jobButtons(live) { for (const b of ['job-pause', 'job-resume', 'job-cancel']) $(b).disabled = !live; }
async function startJob(kind) {
  jobButtons(false);
  $('job-state').textContent = `${kind} starting`;
  $('job-state').dataset.state = 'starting';
  try {
    const j = await api('/api/jobs', { ...S.spec, kind, start: S.start, end: S.end });
    S.job = j.id;
    $('job-box').hidden = false;
    $('job-result').replaceChildren();
    jobButtons(true);
    pollJob();
  } catch (e) { $('job-state').textContent = e.message; $('job-box').hidden = false; }
}
async function pollJob() {
  if (!S.job) return;
  const j = await api(`/api/jobs/${S.job}`).catch((e) => ({ state: 'failed', error: e.message }));
  const pr = j.progress;
  // A finished fewest job's last report lags its result (shown below): no bounds then.
  const over = ['done', 'cancelled', 'failed'].includes(j.state);
  const detail = !pr || (over && pr.phase === 'fewest') ? '' : pr.phase === 'fewest'
    ? ` — at least ${pr.lower_bound} moves${pr.best_found >= 0 ? `, best found ${pr.best_found}` : ''}${pr.shortening ? ', out of memory: shortening it' : `, ${pr.positions} positions`}`
    : ` — ${pr.phase} ${Math.round(100 * pr.fraction)}%, ${pr.positions} positions`;
  $('job-state').textContent = `${j.kind || ''} ${j.state}${detail}`;
  $('job-state').dataset.state = j.state;
  if (j.progress) $('job-progress').value = j.progress.fraction;
  if (['done', 'cancelled', 'failed'].includes(j.state)) {
    S.job = null;
    jobButtons(false);
    if (j.state === 'done') $('job-progress').value = 1;
    showResult(j);
    return;
  }
  setTimeout(pollJob, 300);
}
async function jobAction(a) { if (S.job) { const j = await api(`/api/jobs/${S.job}/${a}`, {}); $('job-state').textContent = `${j.kind} ${j.state}`; $('job-state').dataset.state = j.state; } }

function showResult(j) {
  const box = $('job-result');
  if (j.error) { box.textContent = j.error; return; }
  const r = j.result;
  if (!r) return;
  if (r.levels) {
    const lv = r.levels.filter((l) => l.reachable > 0);
    const max = Math.max(...lv.map((l) => l.reachable));
    const W = 260, rowH = 12;
    const svg = el('svg', { class: 'funnel', width: W, height: lv.length * rowH + 20, role: 'img', 'aria-label': 'Census funnel' });
    lv.slice().sort((a, b) => b.pegs - a.pegs).forEach((l, i) => {
      const scale = (x) => (x > 0 ? (Math.log10(x + 1) / Math.log10(max + 1)) * (W - 60) : 0);
      const wr = scale(l.reachable), wp = scale(l.on_solution_path);
      el('rect', { class: 'reach', x: 30 + (W - 60 - wr) / 2, y: i * rowH, width: wr, height: rowH - 2 }, svg);
      el('rect', { class: 'path', x: 30 + (W - 60 - wp) / 2, y: i * rowH, width: wp, height: rowH - 2 }, svg);
      el('text', { x: 0, y: i * rowH + 9 }, svg).textContent = l.pegs;
    });
    el('text', { x: 0, y: lv.length * rowH + 14 }, svg).textContent = 'positions per peg count (log): all, on solution paths';
    box.replaceChildren(svg);
    const p = document.createElement('p');
    p.textContent = `${r.reachable} positions, ${r.on_solution_path} on solution paths, ${r.solutions} solutions (stop: ${j.stop})`;
    box.appendChild(p);
  } else if (r.minimize) {
    // A fewest-moves job: played from the position it started at, while the game is still there.
    const m = r.minimize;
    const p = document.createElement('p');
    p.textContent = m.moves === null ? `No solution: ${r.reason || r.status}`
      : m.proven ? `Fewest moves from the job's position: ${m.moves}, proven (${r.stats.nodes} positions).`
        : `Best found: ${m.moves} moves; at least ${m.lower_bound} (${r.reason}).`;
    box.replaceChildren(p);
    if (m.chains.length) {
      const b = document.createElement('button');
      b.id = 'job-play';
      b.textContent = 'Play it';
      b.onclick = () => {
        if (pegs() !== r.start) { $('status').textContent = 'The game has moved on since the job started: run it again from here.'; return; }
        playFewest(r);
      };
      box.appendChild(b);
    }
  } else if (r.matrix) {
    const p = document.createElement('p');
    const yes = r.matrix.flat().filter((x) => x === 1).length;
    p.textContent = `Solvability table: ${yes} solvable pairs of ${r.matrix.length ** 2}${r.complete ? '' : ' (incomplete)'}`;
    box.replaceChildren(p);
  } else box.textContent = JSON.stringify(r).slice(0, 400);
}

// ---- wiring -----------------------------------------------------------------------------------
async function init() {
  const [boards, presets] = await Promise.all([api('/api/boards'), api('/api/presets')]);
  for (const b of boards.boards) $('board-select').add(new Option(`${b.board} (${b.holes})`, b.board));
  for (const p of presets.presets) $('preset-select').add(new Option(`${p.title} — ${p.difficulty_name}`, p.name));
  S.presets = presets.presets;
  $('board-select').onchange = () => { $('preset-select').value = ''; loadBoard({ board: $('board-select').value }); };
  $('preset-select').onchange = () => {
    const p = S.presets.find((x) => x.name === $('preset-select').value);
    if (p) loadBoard({ board: p.board }, p.start, p.end);
  };
  const use = (spec) => () => loadBoard({ board: spec() }).catch((e) => { $('status').textContent = e.message; });
  $('use-tri').onclick = use(() => `triangle:${$('tri-rows').value}`);
  $('use-hex').onclick = use(() => `hexagon:${$('hex-side').value}`);
  $('use-rect').onclick = use(() => `rect:${$('rect-spec').value}`);
  $('use-drawing').onclick = () => loadBoard({ drawing: $('drawing').value }, undefined, 'any').catch((e) => { $('status').textContent = e.message; });
  $('undo').onclick = () => { stopAnim(); setCursor(S.cursor - 1); };
  $('redo').onclick = () => setCursor(S.cursor + 1);
  $('restart').onclick = () => { stopAnim(); S.moves = []; setCursor(0); };
  $('hint-btn').onclick = hint;
  $('finish-btn').onclick = finish;
  $('fewest-btn').onclick = fewest;
  $('wrong-btn').onclick = whereWrong;
  $('anim-play').onclick = () => (S.anim ? stopAnim() : animate());
  $('anim-step').onclick = () => { stopAnim(); setCursor(S.cursor + 1); };
  $('anim-back').onclick = () => { stopAnim(); setCursor(S.cursor - 1); };
  $('replay').oninput = () => { stopAnim(); setCursor(Number($('replay').value)); };
  $('edit-start').onclick = () => { S.mode = 'edit-start'; S.moves = []; S.cursor = 0; changed(); };
  $('edit-goal').onclick = () => { S.mode = 'edit-goal'; drawSide(); };
  $('goal-any').onclick = () => { S.end = 'any'; changed(); };
  $('edit-done').onclick = () => { S.mode = 'play'; changed(); };
  $('save-btn').onclick = async () => { const t = await gameText(); $('game-text').value = t; download('game.txt', 'text/plain', t); };
  $('load-file').onchange = async (ev) => { const f = ev.target.files[0]; if (f) loadText(await f.text()).catch((e) => { $('status').textContent = e.message; }); };
  $('load-text').onclick = () => loadText($('game-text').value).catch((e) => { $('status').textContent = e.message; });
  $('svg-btn').onclick = () => download('pegsol.svg', 'image/svg+xml', svgText());
  $('png-btn').onclick = png;
  $('print-btn').onclick = printSolution;
  $('job-count').onclick = () => startJob('count');
  $('job-table').onclick = () => startJob('table');
  $('job-fewest').onclick = () => startJob('fewest');
  $('job-pause').onclick = () => jobAction('pause');
  $('job-resume').onclick = () => jobAction('resume');
  $('job-cancel').onclick = () => jobAction('cancel');
  $('help-btn').onclick = () => $('help').showModal();
  document.addEventListener('keydown', (ev) => {
    if (ev.target.matches('input, textarea, select')) return;
    const k = ev.key.toLowerCase();
    if ((ev.ctrlKey || ev.metaKey) && k === 'z') { ev.preventDefault(); $('undo').click(); }
    else if ((ev.ctrlKey || ev.metaKey) && k === 'y') { ev.preventDefault(); $('redo').click(); }
    else if (!ev.ctrlKey && !ev.metaKey && k === 'h') hint();
    else if (!ev.ctrlKey && !ev.metaKey && k === 'f') finish();
    else if (!ev.ctrlKey && !ev.metaKey && k === 'm') fewest();
    else if (!ev.ctrlKey && !ev.metaKey && k === 'u') $('undo').click();
  });
  bindBoard();
  await restore();
  document.body.dataset.ready = '1';
}

init().catch((e) => { $('status').textContent = e.message; });
