// SPDX-License-Identifier: MIT
// The static edition's engine as a player meets it (the counterpart of `pegsol bench --play`):
// the WebAssembly module of build/wasm/site under node (V8, the engine of Chromium), driven
// through the C entry point exactly as web/worker.js drives it. For each game: the census
// look-ups built (pegsol_prepare, timed), then along random games the whole feedback after each
// move (POST /api/analysis, as the page asks it), timed.
//   node bench/wasm_play.mjs [SITE_DIR] [--games N] [--only NAME] [--json FILE] [--lookup-seconds S]
// (--lookup-seconds: the look-ups' time cap, the worker's 60 s by default; a loaded machine may
// need more to measure them.)
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const games = Number(opt('--games', 5));
const only = opt('--only', '');
const jsonOut = opt('--json', '');
const lookupSeconds = Number(opt('--lookup-seconds', 60));
const site = args[0] || 'build/wasm/site';

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
// The main worker's caps (web/worker.js).
const LIMITS = { request_seconds: 5, analysis_seconds: 2, job_seconds: 0, lookup_memory: 512 * 2 ** 20,
  lookup_seconds: lookupSeconds, background_lookups: false, lookup_threads: 1, lookups: true, threads: 1 };
const D = withString(JSON.stringify(LIMITS), (p) => M._pegsol_new(p));
const request = (method, p, body) => JSON.parse(withString(JSON.stringify({ method, path: p, body }),
  (q) => take(M._pegsol_request(D, q))));
const prepare = (body) => JSON.parse(withString(JSON.stringify(body), (q) => take(M._pegsol_prepare(D, q, 0, 0))));

// The games of `pegsol bench --play`.
const cases = [
  ['english default', { board: 'english' }],
  ['english e4 -> any', { board: 'english', start: 'e4', end: 'any' }],
  ['english c1 -> any', { board: 'english', start: 'c1', end: 'any' }],
  ['french default', { board: 'french' }],
  ['diamond41 default', { board: 'diamond41' }],
  ['wiegleb default', { board: 'wiegleb' }],
  ['triangle:5 default', { board: 'triangle:5' }],
  ['triangle:6 default', { board: 'triangle:6' }],
  ['triangle:7 default', { board: 'triangle:7' }],
  ['triangle:8 default', { board: 'triangle:8' }],
];

let seed = 20;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pct = (v, q) => {
  if (!v.length) return 0;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
};

const rows = [];
console.log(`${'game'.padEnd(22)} ${'games'.padStart(5)} ${'moves'.padStart(6)} ${'look-ups'.padStart(30)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'unk%'.padStart(6)} ${'unk1%'.padStart(6)} ${'exact%'.padStart(7)}`);
for (const [name, spec] of cases) {
  if (only && !name.includes(only)) continue;
  const geo = request('GET', `/api/board?board=${spec.board}`).body;
  const game0 = request('POST', '/api/game', spec).body;
  const body = { ...spec, start: game0.start, end: game0.goal.kind === 'hole' ? game0.goal.hole : 'any' };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const st = prepare(body).body;
  const built = (performance.now() - t0) / 1000;
  const c1 = process.cpuUsage(c0);
  const builtCpu = (c1.user + c1.system) / 1e6;  // the module runs on one thread: its work
  const lookups = st.state === 'ready' ? `${built.toFixed(2)} s (cpu ${builtCpu.toFixed(2)}), ${(st.bytes / 2 ** 20).toFixed(1)} MiB` : `${st.state} (${built.toFixed(1)} s)`;
  const ms = [];
  let moves = 0, unknownGoal = 0, unknownOne = 0, exact = 0;
  for (let g = 0; g < games; g++) {
    let pos = game0.start;
    const played = [];
    for (;;) {
      const t = performance.now();
      const a = request('POST', '/api/analysis', { ...body, moves: played }).body;
      ms.push(performance.now() - t);
      moves++;
      unknownGoal += a.goal.verdict === 'unknown';
      unknownOne += a.one_peg.verdict === 'unknown';
      exact += a.counted && (a.lookup_note || '').startsWith('census look-up');
      const legal = geo.jump_list.filter(([f, o, t2]) => pos[f] === '1' && pos[o] === '1' && pos[t2] === '0');
      if (!legal.length) break;
      const [f, o, t2] = legal[Math.floor(random() * legal.length)];
      played.push(`${geo.names[f]}-${geo.names[t2]}`);
      const p = pos.split('');
      p[f] = '0'; p[o] = '0'; p[t2] = '1';
      pos = p.join('');
    }
  }
  const row = { game: name, games, moves, lookups: st.state, lookup_seconds: built, lookup_cpu_seconds: builtCpu, lookup_bytes: st.bytes, why: st.why,
    p50_ms: pct(ms, 0.5), p95_ms: pct(ms, 0.95), max_ms: Math.max(...ms),
    unknown_goal_pct: 100 * unknownGoal / moves, unknown_one_peg_pct: 100 * unknownOne / moves, exact_pct: 100 * exact / moves };
  rows.push(row);
  console.log(`${name.padEnd(22)} ${String(games).padStart(5)} ${String(moves).padStart(6)} ${lookups.padStart(30)} ${row.p50_ms.toFixed(3).padStart(8)} ${row.p95_ms.toFixed(3).padStart(8)} ${row.max_ms.toFixed(1).padStart(8)} ${row.unknown_goal_pct.toFixed(2).padStart(6)} ${row.unknown_one_peg_pct.toFixed(2).padStart(6)} ${row.exact_pct.toFixed(1).padStart(7)}`);
  if (st.state !== 'ready' && st.why) console.log(`  look-ups ${st.state}: ${st.why}`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ site, games, rows }, null, 1));
