// SPDX-License-Identifier: MIT
// The page's one way to the engine: the JSON API of docs/api.md, answered either by `pegsol serve`
// over HTTP or, in the static edition, by the library compiled to WebAssembly in a Web Worker
// (web/worker.js). Both end in the library's dispatcher (pegsol/api.hpp); the page cannot tell
// them apart but by `engine.kind`.

// An answer other than 2xx, with the API's message.
export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

const engineKind = () =>
  document.querySelector('meta[name="pegsol-engine"]')?.content === 'worker' ? 'worker' : 'http';

// ---- over HTTP: `pegsol serve` ------------------------------------------------------------------
class HttpEngine {
  kind = 'http';
  canPause = true;
  async request(path, body, signal) {
    const r = await fetch(path.replace(/^\//, ''), body === undefined ? { signal } : {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal,
    });
    const j = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (!r.ok) throw new ApiError(r.status, j.error || `HTTP ${r.status}`);
    return j;
  }
}

// ---- in the browser: the WebAssembly worker ---------------------------------------------------------
// Two workers answer requests, each one at a time and in order: the main one, which also builds
// each game's census look-ups (POST /api/lookups, or the first question about a game, starts
// them) and then answers that game's questions from them in microseconds, and a spare one
// (worker.js?role=quick) that answers by the searches meanwhile, and every other question. A
// request aborted before it starts is dropped; one aborted while it runs is answered and its
// answer thrown away (the engine's own caps bound every request). Jobs each get a worker of their
// own; they are paused and cancelled through the service worker (web/sw.js: the job's worker asks
// it, at each progress report, whether to go on), or cancelled by ending their worker when no
// service worker controls the page yet.
const GAME_KEYS = ['board', 'drawing', 'lattice', 'start', 'end', 'goal'];
const gameKey = (body) => JSON.stringify(GAME_KEYS.map((k) => body?.[k] ?? null));
const ASKS = new Set(['/api/analysis', '/api/hint', '/api/mistake']);

class Lane {
  constructor(engine, url) {
    this.engine = engine;
    this.url = url;
    this.queue = [];
    this.busy = null;
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(this.url);
    this.worker.onmessage = (e) => this.answered(e.data);
    this.worker.onerror = (e) => this.crashed(e.message || 'the engine failed to load');
  }

  crashed(message) {
    const all = [this.busy, ...this.queue].filter(Boolean);
    this.queue = [];
    this.busy = null;
    for (const r of all) r.reject(new ApiError(500, `internal error: ${message}`));
    this.worker.terminate();
    this.spawn();
    this.engine.pump();
  }

  answered(m) {
    const r = this.busy;
    if (m.type === 'progress') { r?.progress?.(m.status); return; }
    this.busy = null;
    if (r && m.id === r.id) {
      if (m.status >= 200 && m.status < 300) r.resolve(m.body);
      else r.reject(new ApiError(m.status, m.body?.error || `status ${m.status}`));
    }
    this.engine.pump();
  }

  // Sends the next request that is still wanted, when idle; false when idle with nothing to do.
  pump() {
    while (!this.busy && this.queue.length) {
      const r = this.queue.shift();
      if (r.signal?.aborted) { r.reject(new DOMException('aborted', 'AbortError')); continue; }
      this.busy = r;
      this.worker.postMessage(r.message);
      return true;
    }
    return !!this.busy;
  }
}

class WorkerEngine {
  kind = 'worker';
  constructor() {
    this.nextId = 1;
    this.jobs = new Map();
    this.lookups = new Map(); // game key -> the look-ups' last status
    this.pending = null;      // the game whose look-ups are to be built next
    this.main = new Lane(this, 'worker.js');
    this.quick = new Lane(this, 'worker.js?role=quick');
  }

  pump() {
    this.quick.pump();
    if (this.main.pump() || !this.pending) return;
    // The main worker is idle: it builds the look-ups asked for last.
    const { key, body } = this.pending;
    this.pending = null;
    const r = {
      id: this.nextId++, message: null,
      progress: (status) => this.lookups.set(key, status),
      resolve: (status) => this.lookups.set(key, status),
      reject: (e) => this.lookups.set(key, { state: 'failed', why: e.message, fraction: 0 }),
    };
    r.message = { type: 'prepare', id: r.id, body };
    this.lookups.set(key, { state: 'building', phase: '', level: -1, fraction: 0, seconds: 0, bytes: 0, why: '', censuses: 1 });
    this.main.busy = r;
    this.main.worker.postMessage(r.message);
  }

  // The game's look-ups: their status, having asked for them if nobody has.
  lookupStatus(body) {
    const key = gameKey(body);
    if (!this.lookups.has(key)) {
      this.lookups.set(key, { state: 'queued', phase: '', level: -1, fraction: 0, seconds: 0, bytes: 0, why: '', censuses: 1 });
      this.pending = { key, body: Object.fromEntries(GAME_KEYS.filter((k) => body[k] != null).map((k) => [k, body[k]])) };
      this.pump();
    }
    return this.lookups.get(key);
  }

  call(method, path, body, signal) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const r = { id, message: { id, method, path, body: body ?? null }, signal, resolve, reject };
      // A game's questions go to the main worker once its look-ups are built there; before, and
      // everything else, to the spare one.
      let lane = this.quick;
      if (body && ASKS.has(path)) {
        const status = this.lookupStatus(body);
        if (status.state === 'ready') lane = this.main;
      }
      signal?.addEventListener('abort', () => {
        const i = lane.queue.indexOf(r);
        if (i >= 0) { lane.queue.splice(i, 1); reject(new DOMException('aborted', 'AbortError')); }
      });
      lane.queue.push(r);
      this.pump();
    }).then((v) => {
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
      return v;
    });
  }

  async request(path, body, signal) {
    const m = path.match(/^\/api\/jobs(?:\/([0-9a-z]+)(?:\/(pause|resume|cancel))?)?$/);
    if (m) return this.jobRequest(m[1], m[2], body);
    if (path === '/api/lookups' && body) {
      // The look-ups of a game that cannot have them (too wide, or off) say so from the dispatcher.
      const status = this.lookupStatus(body);
      return { ...status };
    }
    return this.call(body === undefined ? 'GET' : 'POST', path, body, signal);
  }

  get canPause() { return !!navigator.serviceWorker?.controller; }

  // The job table of docs/api.md, kept here: each job runs in a worker of its own.
  async jobRequest(id, action, body) {
    if (!id) {
      if (body === undefined) return { jobs: [...this.jobs.values()].map((j) => this.jobJson(j)) };
      return this.startJob(body);
    }
    const j = this.jobs.get(id);
    if (!j) throw new ApiError(404, `no job ${id} (finished jobs are kept a while)`);
    if (action && !j.finished) {
      if (action === 'pause' && this.canPause) j.control = 'pause';
      if (action === 'resume') j.control = 'run';
      if (action === 'cancel') {
        j.control = 'cancel';
        if (!j.channel) this.endJob(j, { status: 200, body: null }, 'cancelled');
      }
      this.tellControl(j);
    }
    return this.jobJson(j);
  }

  async startJob(body) {
    // The dispatcher checks the job (kind, problem, moves, caps) before a worker starts.
    const check = await this.call('POST', '/api/jobs/check', body);
    const running = [...this.jobs.values()].filter((j) => !j.finished).length;
    if (running >= 2) throw new ApiError(503, `the page runs ${running} jobs, its most; retry when one ends`);
    const id = String(this.nextId++);
    const j = {
      id, kind: check.kind, control: 'run', progress: null, result: null, error: '', stop: 'finished',
      finished: false, channel: this.canPause, worker: new Worker('worker.js'),
    };
    this.jobs.set(id, j);
    j.worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'progress') j.progress = m.progress;
      else if (m.type === 'done') this.endJob(j, m);
    };
    j.worker.onerror = (e) => this.endJob(j, { status: 500, body: { error: `internal error: ${e.message}` } });
    this.tellControl(j);
    j.worker.postMessage({ type: 'job', id, body, channel: j.channel });
    for (const [k, old] of this.jobs) if (this.jobs.size > 32 && old.finished) this.jobs.delete(k);
    return this.jobJson(j);
  }

  endJob(j, m, forced) {
    if (j.finished) return;
    j.finished = true;
    j.worker.terminate();
    if (m.status >= 200 && m.status < 300) {
      j.result = m.body;
      j.stop = forced || m.body?.stop || 'finished';
    } else {
      j.error = m.body?.error || `status ${m.status}`;
    }
    if (forced) j.control = forced === 'cancelled' ? 'cancel' : j.control;
    clearInterval(j.keepAlive);
    this.tellControl(j);
  }

  // The service worker holds each job's control word for the job's worker to read.
  tellControl(j) {
    const sw = navigator.serviceWorker?.controller;
    if (!sw) return;
    sw.postMessage({ type: 'pegsol-job', id: j.id, control: j.finished ? 'gone' : j.control });
    clearInterval(j.keepAlive);
    // A paused job's word is sent again now and then: a service worker may be stopped and
    // restarted by the browser, and then knows nothing.
    if (!j.finished && j.control === 'pause') j.keepAlive = setInterval(() => this.tellControl(j), 5000);
  }

  jobJson(j) {
    const state = j.finished ? (j.error ? 'failed' : j.control === 'cancel' ? 'cancelled' : 'done')
      : j.control === 'cancel' ? 'cancelling' : j.control === 'pause' ? 'paused' : 'running';
    return {
      id: j.id, kind: j.kind, state, progress: j.progress, result: j.result,
      error: j.error || null, stop: j.finished ? j.stop : j.control === 'cancel' ? 'cancelled' : 'finished',
    };
  }
}

// The page's engine, chosen by index.html's <meta name="pegsol-engine">.
export function createEngine() {
  if (engineKind() === 'http') return new HttpEngine();
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => {});
  return new WorkerEngine();
}
