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
// Requests go to one worker, one at a time, in order; a request aborted before it starts is
// dropped, one aborted while it runs is answered and its answer thrown away (the worker has one
// thread and the engine's own time caps bound every request). Jobs each get a worker of their own;
// they are paused and cancelled through the service worker (web/sw.js: the job's worker asks it,
// at each progress report, whether to go on), or cancelled by ending their worker when no service
// worker controls the page yet.
class WorkerEngine {
  kind = 'worker';
  constructor() {
    this.queue = [];
    this.busy = null;
    this.nextId = 1;
    this.jobs = new Map();
    this.spawn();
  }

  get canPause() { return !!navigator.serviceWorker?.controller; }

  spawn() {
    this.worker = new Worker('worker.js');
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
  }

  answered(m) {
    if (m.type === 'log') return;
    const r = this.busy;
    this.busy = null;
    if (r && m.id === r.id) {
      if (m.status >= 200 && m.status < 300) r.resolve(m.body);
      else r.reject(new ApiError(m.status, m.body?.error || `status ${m.status}`));
    }
    this.pump();
  }

  pump() {
    while (!this.busy && this.queue.length) {
      const r = this.queue.shift();
      if (r.signal?.aborted) { r.reject(new DOMException('aborted', 'AbortError')); continue; }
      this.busy = r;
      this.worker.postMessage({ id: r.id, method: r.method, path: r.path, body: r.body });
    }
  }

  call(method, path, body, signal) {
    return new Promise((resolve, reject) => {
      const r = { id: this.nextId++, method, path, body: body ?? null, signal, resolve, reject };
      signal?.addEventListener('abort', () => {
        const i = this.queue.indexOf(r);
        if (i >= 0) { this.queue.splice(i, 1); reject(new DOMException('aborted', 'AbortError')); }
      });
      this.queue.push(r);
      this.pump();
    }).then((v) => {
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
      return v;
    });
  }

  async request(path, body, signal) {
    const m = path.match(/^\/api\/jobs(?:\/([0-9a-z]+)(?:\/(pause|resume|cancel))?)?$/);
    if (m) return this.jobRequest(m[1], m[2], body);
    return this.call(body === undefined ? 'GET' : 'POST', path, body, signal);
  }

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
