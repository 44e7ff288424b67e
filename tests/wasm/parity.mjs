// SPDX-License-Identifier: MIT
// The static edition's engine against the native one: the same requests of the JSON API
// (docs/api.md) and jobs, through the WebAssembly module of build/wasm/site and through the native
// library's C entry point (tests/wasm/dispatch_lines.cpp), must get the same answers on small
// boards, figures that measure time aside.
//   node tests/wasm/parity.mjs SITE_DIR DISPATCH_LINES
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [site, native] = process.argv.slice(2);
if (!site || !native) {
  console.error('usage: node tests/wasm/parity.mjs SITE_DIR DISPATCH_LINES');
  process.exit(2);
}
// Both ends must exist before the module is evaluated: a missing file would otherwise surface as a
// stack trace through the module's own source.
for (const [what, file, mode] of [['the static edition', path.join(site, 'pegsol.js'), constants.R_OK],
  ['the static edition', path.join(site, 'pegsol.wasm'), constants.R_OK],
  ['the native driver (build target pegsol_dispatch_lines)', native, constants.X_OK]]) {
  try { accessSync(file, mode); } catch {
    console.error(`FAIL ${what} is missing or not usable: ${file}`);
    process.exit(1);
  }
}
let failures = 0, passes = 0;
const fail = (name, detail) => { failures++; console.log(`FAIL ${name}: ${detail}`); };

// ---- the WebAssembly module, as web/worker.js drives it ------------------------------------------
// pegsol.js is a classic script (importScripts in the worker); the repository's package.json makes
// .js files ES modules here, so it is evaluated as the worker would.
const require = createRequire(import.meta.url);
const file = path.resolve(site, 'pegsol.js');
const createPegsol = new Function('require', '__filename', '__dirname', 'module',
  `${readFileSync(file, 'utf8')}\nreturn createPegsol;`)(require, file, path.dirname(file), {});
const M = await createPegsol({ wasmBinary: readFileSync(path.join(site, 'pegsol.wasm')) });
const withString = (s, f) => {
  const n = M.lengthBytesUTF8(s) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(s, p, n);
  try { return f(p); } finally { M._free(p); }
};
const take = (p) => { const s = M.UTF8ToString(p); M._pegsol_free(p); return s; };
const LIMITS = JSON.stringify({ background_lookups: false, lookup_threads: 1, threads: 1 });
const D = withString(LIMITS, (p) => M._pegsol_new(p));
if (!D) { console.log('FAIL the module refused its limits'); process.exit(1); }
const progressSeen = [];
const progress = M.addFunction((p) => { progressSeen.push(JSON.parse(M.UTF8ToString(p))); return 0; }, 'iii');
const wasm = (line) => {
  const r = JSON.parse(line);
  if (r.job) return JSON.parse(withString(JSON.stringify(r.job), (p) => take(M._pegsol_run_job(D, p, progress, 0))));
  if (r.prepare) return JSON.parse(withString(JSON.stringify(r.prepare), (p) => take(M._pegsol_prepare(D, p, 0, 0))));
  return JSON.parse(withString(line, (p) => take(M._pegsol_request(D, p))));
};

// ---- the native library ------------------------------------------------------------------------
const child = spawn(native, [LIMITS], { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('error', (e) => { console.error(`FAIL the native driver ${native} did not start: ${e.message}`); process.exit(1); });
const lines = [];
const waiters = [];
let buffer = '';
child.stdout.on('data', (d) => {
  buffer += d;
  let i;
  while ((i = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (waiters.length) waiters.shift()(line); else lines.push(line);
  }
});
const nativeCall = (line) => new Promise((resolve) => {
  waiters.push((l) => resolve(JSON.parse(l)));
  child.stdin.write(line + '\n');
});

// Figures of time and of the machine: "seconds" anywhere, "stats", the look-up note's build time,
// the CPU kernels, the memory held (native pages and WebAssembly heap differ).
const TIMING = new Set(['seconds', 'stats', 'eta_seconds', 'kernels', 'version', 'peak_bytes', 'memory_bytes', 'lookup_note']);
// A search's position count is a figure of the search like `stats.nodes`, also inside reasons
// ("no solution among N positions searched"): the verdict must agree, the count may not (see
// docs/static.md).
function strip(v) {
  if (typeof v === 'string') return v.replace(/\b\d+ positions searched\b/g, 'N positions searched');
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) if (!TIMING.has(k)) o[k] = strip(x);
    return o;
  }
  return v;
}
const same = (a, b) => JSON.stringify(strip(a)) === JSON.stringify(strip(b));

async function compare(name, request, pick = (x) => x) {
  const line = JSON.stringify(request);
  const [w, n] = [wasm(line), await nativeCall(line)];
  if (w.status !== n.status) return fail(name, `status ${w.status} (wasm) vs ${n.status} (native): ${JSON.stringify(w.body).slice(0, 300)}`);
  const [a, b] = [pick(w.body), pick(n.body)];
  if (!same(a, b)) return fail(name, `wasm ${JSON.stringify(strip(a)).slice(0, 400)}\n   native ${JSON.stringify(strip(b)).slice(0, 400)}`);
  passes++;
  return w.body;
}
const get = (p) => ({ method: 'GET', path: p });
const post = (p, body) => ({ method: 'POST', path: p, body });

// The catalogue, presets, boards.
await compare('boards', get('/api/boards'));
await compare('presets', get('/api/presets'));
for (const b of ['triangle:5', 'english', 'hexagon:3', 'rect:3x5', 'french']) await compare(`board ${b}`, get(`/api/board?board=${b}`));
await compare('board drawing', post('/api/board', { drawing: '..o..\n.ooo.\nooooo\n' }));
await compare('board square8', post('/api/board', { board: 'rect:3x4', lattice: 'square8' }));

// Solves: first solutions (depth-first: the same moves), proofs of impossibility, moves kept,
// fewest moves.
const solves = [
  { board: 'triangle:5', start: '4', end: '1' },
  { board: 'triangle:5', start: '1', end: 'any' },
  { board: 'triangle:6', start: '1', end: 'any', algorithm: 'dfs' },
  { board: 'rect:3x5', start: 'a2', end: 'any', algorithm: 'dfs' },
  { board: 'french', start: 'd4', end: 'd4' },
  { board: 'english', algorithm: 'dfs' },
  { board: 'triangle:5', start: '1', moves: ['4-1', '6-4'] },
  { board: 'triangle:5', start: '1', end: '13', minimize: 'moves' },
  { board: 'triangle:6', start: '4', moves: '13-4', minimize: 'moves' },
];
// A solution's moves may differ (the depth-first search's order ties are broken alike, but its
// pruning tables are sized by the platform's word): the outcome must agree, and each answer is a
// solution the library replayed before returning it.
const outcome = (r) => ({
  status: r.status, stop: r.stop, reason: r.reason, jumps: r.moves?.length, kept: r.kept_moves,
  start: r.start, final: r.status === 'solved' ? r.final : null, minimize: r.minimize && { moves: r.minimize.moves, proven: r.minimize.proven, lower_bound: r.minimize.lower_bound },
});
for (const s of solves) await compare(`solve ${JSON.stringify(s)}`, post('/api/solve', s), (r) => (s.end === 'any' || s.moves ? outcome(r) : r));

// Games, analyses, hints and the first mistake along random games (a fixed seed).
let seed = 20;
let countedBoth = 0;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (const [board, start, end] of [['triangle:5', '1', 'any'], ['triangle:6', '4', '4'], ['rect:3x5', 'c2', 'c2'], ['english', 'd4', 'd4']]) {
  const geo = (await nativeCall(JSON.stringify(get(`/api/board?board=${board}`)))).body;
  const moves = [];
  let pos = (await nativeCall(JSON.stringify(post('/api/game', { board, start, end })))).body.position;
  for (let step = 0; step < 40; step++) {
    const legal = geo.jump_list.filter(([f, o, t]) => pos[f] === '1' && pos[o] === '1' && pos[t] === '0');
    if (!legal.length) break;
    const [f, o, t] = legal[Math.floor(random() * legal.length)];
    moves.push(`${geo.names[f]}-${geo.names[t]}`);
    const p = pos.split('');
    p[f] = '0'; p[o] = '0'; p[t] = '1';
    pos = p.join('');
    const req = { board, start, end, moves };
    const name = `${board} ${start}->${end} after ${moves.length}`;
    const verdicts = (a) => ({ goal: a.goal.verdict, one_peg: a.one_peg.verdict, counted: a.counted, ways_goal: a.ways_goal, ways_one_peg: a.ways_one_peg, end_holes: a.end_holes });
    if (board === 'english') {
      // Verdicts the searches settle may differ in their solutions (a beam runs for a set time):
      // the verdicts themselves must agree, "unknown" aside.
      const [w, n] = [wasm(JSON.stringify(post('/api/analysis', { ...req, count: false }))), await nativeCall(JSON.stringify(post('/api/analysis', { ...req, count: false })))];
      for (const k of ['goal', 'one_peg']) {
        const [a, b] = [w.body[k].verdict, n.body[k].verdict];
        if (a !== b && a !== 'unknown' && b !== 'unknown') fail(`${name} ${k}`, `${a} vs ${b}`); else passes++;
      }
    } else {
      // The ways are counted within a time share: a loaded machine may leave one side uncounted,
      // and then the verdicts alone are compared.
      const areq = post('/api/analysis', req);
      const [w, n] = [wasm(JSON.stringify(areq)), await nativeCall(JSON.stringify(areq))];
      const both = w.body.counted && n.body.counted;
      const pick = (a) => (both ? verdicts(a) : { goal: a.goal.verdict, one_peg: a.one_peg.verdict });
      if (!same(pick(w.body), pick(n.body))) fail(`analysis ${name}`, `wasm ${JSON.stringify(pick(w.body))} native ${JSON.stringify(pick(n.body))}`);
      else { passes++; if (both) countedBoth++; }
      await compare(`mistake ${name}`, post('/api/mistake', req), (m) => ({ now: m.now, start_lost: m.start_lost, move: m.move, rewind_to: m.rewind_to }));
    }
    await compare(`game ${name}`, post('/api/game', req));
  }
}
// The census look-ups, built on both sides: then every analysis is counted, exactly, from them.
let exact = 0;
for (const [board, start, end] of [['triangle:5', '1', 'any'], ['triangle:6', '4', '4'], ['rect:3x5', 'c2', 'c2']]) {
  const ready = await compare(`prepare ${board} ${start}->${end}`, { prepare: { board, start, end } }, (s) => ({ state: s.state, censuses: s.censuses }));
  if (ready?.state !== 'ready') fail(`prepare ${board}`, JSON.stringify(ready));
  const geo = (await nativeCall(JSON.stringify(get(`/api/board?board=${board}`)))).body;
  let pos = (await nativeCall(JSON.stringify(post('/api/game', { board, start, end })))).body.position;
  const moves = [];
  for (;;) {
    const req = { board, start, end, moves };
    const a = await compare(`exact ${board} ${start}->${end} after ${moves.length}`, post('/api/analysis', req),
      // The hint may differ (a solution remembered from an earlier search is followed first, and
      // first solutions may differ between the builds); the library's tests check every hint.
      (x) => ({ goal: x.goal.verdict, one_peg: x.one_peg.verdict, counted: x.counted, ways_goal: x.ways_goal, ways_one_peg: x.ways_one_peg, end_holes: x.end_holes, hinted: !!x.hint, explanation: x.goal.explanation }));
    if (a?.counted) exact++;
    const legal = geo.jump_list.filter(([f, o, t]) => pos[f] === '1' && pos[o] === '1' && pos[t] === '0');
    if (!legal.length) break;
    const [f, o, t] = legal[Math.floor(random() * legal.length)];
    moves.push(`${geo.names[f]}-${geo.names[t]}`);
    const p = pos.split('');
    p[f] = '0'; p[o] = '0'; p[t] = '1';
    pos = p.join('');
  }
}
if (exact < 20) fail('exact', `only ${exact} analyses answered from the look-ups`); else passes++;

await compare('game text', post('/api/game', { text: 'board: triangle:5\nstart: 1\nmoves: 4-1 6-4\n' }));

// Errors: the same status and message.
for (const [name, r] of [
  ['unknown board', post('/api/solve', { board: 'englsh' })],
  ['illegal move', post('/api/solve', { board: 'triangle:5', start: '1', moves: ['4-1', '4-1'] })],
  ['file refused', post('/api/solve', { board: '@/etc/passwd' })],
  ['no endpoint', get('/api/nope')],
  ['wrong type', post('/api/solve', { board: 5 })],
]) await compare(`error ${name}`, r);

// Jobs: census, table, fewest, solve, from a start and from a game's position.
for (const job of [
  { kind: 'count', board: 'triangle:5', start: '1' },
  { kind: 'count', board: 'triangle:6', start: '4', end: '4', moves: ['13-4'] },
  { kind: 'count', board: 'rect:3x5', start: 'c2', end: 'any' },
  { kind: 'table', board: 'triangle:5' },
  { kind: 'fewest', board: 'triangle:5', start: '1' },
  { kind: 'solve', board: 'triangle:6', start: '1' },
  { kind: 'census', board: 'triangle:5' },
  { kind: 'count', board: 'wiegleb' },
]) {
  await compare(`job ${JSON.stringify(job)}`, { job }, (r) => (job.kind === 'table'
    ? { ...r, certificates: r.certificates?.map((c) => ({ vacancy: c.vacancy, end: c.end, solvable: c.solvable, reason: c.reason })) }
    : job.kind === 'solve' || job.kind === 'fewest' ? outcome(r) : r));
}
if (!progressSeen.length) fail('progress', 'no job reported progress'); else passes++;
if (countedBoth < 10) fail('counted', `only ${countedBoth} analyses were counted on both sides`); else passes++;

child.stdin.end();
console.log(`parity: ${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
