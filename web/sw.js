// SPDX-License-Identifier: MIT
// The static edition's service worker: keeps every file of the site for offline play (the list
// and the cache's name are written in by cmake/wasm_site.cmake), and carries the page's word to
// a running job's worker (web/worker.js asks `__pegsol__/job/ID` at each progress report: 'run',
// 'pause' (the answer waits while the job is paused), 'cancel', or 'gone').
const CACHE = '__PEGSOL_CACHE__';
const FILES = ['__PEGSOL_FILES__'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('pegsol-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// Jobs' words, as the page last sent them, and the answers waiting for a paused job to go on.
const words = new Map();
const waiting = new Map();

self.addEventListener('message', (e) => {
  const m = e.data;
  if (!m || m.type !== 'pegsol-job') return;
  words.set(m.id, m.control);
  if (m.control !== 'pause') {
    for (const answer of waiting.get(m.id) || []) answer(m.control);
    waiting.delete(m.id);
  }
  if (m.control === 'gone') words.delete(m.id);
});

// A paused job's question is answered when the page says to go on, or after 10 s with 'pause'
// (the worker asks again): no answer waits long enough for the browser to end this worker.
function word(id) {
  const w = words.get(id) ?? 'run';
  if (w !== 'pause') return Promise.resolve(w);
  return new Promise((resolve) => {
    const list = waiting.get(id) || [];
    list.push(resolve);
    waiting.set(id, list);
    setTimeout(() => resolve('pause'), 10000);
  });
}

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  const job = url.pathname.match(/__pegsol__\/job\/([0-9a-z]+)$/);
  if (job) {
    e.respondWith(word(job[1]).then((w) => new Response(w, { headers: { 'Cache-Control': 'no-store' } })));
    return;
  }
  if (e.request.method !== 'GET' || url.origin !== self.location.origin) return;
  // The site's files from the cache (the page itself for its folder's URL, whatever the hash);
  // anything else from the network.
  e.respondWith(caches.open(CACHE).then(async (c) => {
    const hit = await c.match(e.request, { ignoreSearch: true });
    return hit || fetch(e.request);
  }));
});
