// SPDX-License-Identifier: MIT
// The static edition's engine in a Web Worker: the library's C entry point (pegsol/pegsol.h),
// compiled to WebAssembly (pegsol.js, pegsol.wasm). web/engine.js talks to it:
//   {id, method, path, body}            -> {id, status, body}         one request of docs/api.md
//   {type: 'prepare', id, body}         -> {type: 'progress', id, status}..., {id, status, body}
//                                          the census look-ups of a game, built now
//   {type: 'job', id, body, channel}    -> {type: 'progress', progress}..., {type: 'done', status, body}
// A job's worker asks the service worker at each progress report whether to go on, pause or stop
// (web/sw.js); without one (`channel` false) it runs to its end or until its worker is ended.
// worker.js?role=quick is the spare that answers while the main worker builds look-ups: it never
// builds them (the searches answer there).
/* global createPegsol */
importScripts('pegsol.js');

const QUICK = new URL(self.location.href).searchParams.get('role') === 'quick';

// The caps of the page's engine (the Limits of pegsol/api.hpp): the server's, but jobs have no
// time cap (the player's own machine; they can be cancelled), look-ups are built in this thread,
// one at a time, on demand, and kept up to 256 MiB.
const LIMITS = {
  request_seconds: 5,
  analysis_seconds: 2,
  job_seconds: 0,
  job_memory: 1024 * 1024 * 1024,
  lookup_memory: 512 * 1024 * 1024,
  lookup_seconds: 60,
  background_lookups: false,
  lookup_threads: 1,
  lookups: !QUICK,
  threads: 1,
};

let M = null;
let D = 0;
const ready = createPegsol().then((m) => {
  M = m;
  D = withString(JSON.stringify(LIMITS), (p) => M._pegsol_new(p));
  if (!D) throw new Error('the engine refused its limits');
});

function withString(s, f) {
  const n = M.lengthBytesUTF8(s) + 1;
  const p = M._malloc(n);
  M.stringToUTF8(s, p, n);
  try { return f(p); } finally { M._free(p); }
}

function takeString(p) {
  const s = M.UTF8ToString(p);
  M._pegsol_free(p);
  return s;
}

// One request through the dispatcher: {status, body}.
function request(method, path, body) {
  const text = JSON.stringify({ method, path, body });
  return JSON.parse(withString(text, (p) => takeString(M._pegsol_request(D, p))));
}

// The job's control word from the service worker: 'run', 'pause' (held until it changes),
// 'cancel', or 'run' when no service worker answers.
function controlWord(id) {
  for (;;) {
    let word = 'run';
    try {
      const x = new XMLHttpRequest();
      x.open('GET', `__pegsol__/job/${id}`, false);
      x.send();
      if (x.status === 200) word = x.responseText;
    } catch (e) {
      word = 'run';
    }
    if (word !== 'pause') return word;
  }
}

// The look-ups of a game built now, each step reported: {status, body}.
function prepare(id, body) {
  const progress = M.addFunction((p) => {
    postMessage({ type: 'progress', id, status: JSON.parse(M.UTF8ToString(p)) });
    return 0;
  }, 'iii');
  try {
    return JSON.parse(withString(JSON.stringify(body), (p) => takeString(M._pegsol_prepare(D, p, progress, 0))));
  } finally {
    M.removeFunction(progress);
  }
}

function runJob(id, body, channel) {
  const progress = M.addFunction((p) => {
    postMessage({ type: 'progress', progress: JSON.parse(M.UTF8ToString(p)) });
    if (!channel) return 0;
    const word = controlWord(id);
    if (word === 'pause') return 0;
    return word === 'cancel' || word === 'gone' ? 1 : 0;
  }, 'iii');
  try {
    const text = withString(JSON.stringify(body), (p) => takeString(M._pegsol_run_job(D, p, progress, 0)));
    return JSON.parse(text);
  } finally {
    M.removeFunction(progress);
  }
}

onmessage = async (e) => {
  const m = e.data;
  try {
    await ready;
  } catch (err) {
    postMessage({ id: m.id, type: 'done', status: 500, body: { error: `internal error: ${err.message || err}`, status: 500 } });
    return;
  }
  if (m.type === 'job') {
    const r = runJob(m.id, m.body, m.channel);
    postMessage({ type: 'done', id: m.id, status: r.status, body: r.body });
    return;
  }
  let r;
  try {
    r = m.type === 'prepare' ? prepare(m.id, m.body)
      : m.path === '/api/jobs/check' ? checkJob(m.body) : request(m.method, m.path, m.body);
  } catch (err) {
    r = { status: 500, body: { error: `internal error: ${err.message || err}`, status: 500 } };
  }
  postMessage({ id: m.id, status: r.status, body: r.body });
};

// POST /api/jobs's body checked by the dispatcher before a job's worker starts: {kind} or an error.
function checkJob(body) {
  return JSON.parse(withString(JSON.stringify(body), (p) => takeString(M._pegsol_check_job(D, p))));
}
