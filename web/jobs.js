// SPDX-License-Identifier: MIT
// The Jobs section: a census or a fewest-moves search from the game's position, or the board's
// solvability table, run as jobs of the engine (docs/api.md) with progress, pause, resume, cancel.
import {el} from './board.js';
import {fmt, plural} from './format.js';

const LABEL = {
  count: 'Census',
  table: 'Solvability table',
  fewest: 'Fewest moves'
};
const OVER = ['done', 'cancelled', 'failed'];

// The section's controller. `page` gives: api(path, body), engine (its canPause), $(id),
// request(extra) (the game's problem and moves played), position() (the 0/1 string now),
// movesPlayed(), playFewest(result), playProblem(startBits, endName), status(text).
export function createJobs(page) {
  const {api, engine, $} = page;
  let job = null;  // the live job: {id, kind, from, state}
  let timer = null;

  // Pause acts on a running job, resume on a paused one, cancel on either (none once the job has
  // ended or been cancelled, before its last poll shows the result); pausing also needs the
  // engine's word that it can (the static edition's service worker controls the page from the
  // second visit on).
  function buttons() {
    const live = !!job?.id && !OVER.includes(job.state);
    const pause = $('job-pause');
    pause.disabled = !live || !engine.canPause || job.state !== 'running';
    pause.title = engine.canPause ? 'Pause the job' :
                                    'Pausing a job needs the page\'s service worker, which ' +
            'takes over once the page has been loaded before: reload the page to pause jobs';
    $('job-resume').disabled = !live || job.state !== 'paused';
    $('job-cancel').disabled = !live;
  }

  function setState(text, state) {
    $('job-state').textContent = text;
    $('job-state').dataset.state = state;
  }

  async function start(kind) {
    if (job?.id) api(`/api/jobs/${job.id}/cancel`, {}).catch(() => {});
    clearTimeout(timer);
    const body = page.request({kind});
    job = {id: null, kind, from: page.movesPlayed(), state: 'starting'};
    const mine = job;
    buttons();
    $('job-result').replaceChildren();
    const bar = $('job-progress');
    // A fewest-moves search has bounds, not a fraction: its bar runs without a value.
    if (kind === 'fewest')
      bar.removeAttribute('value');
    else
      bar.value = 0;
    $('job-box').hidden = false;
    setState(`${LABEL[kind]} starting`, 'starting');
    try {
      const j = await api('/api/jobs', body);
      if (job !== mine) return;
      job.id = j.id;
      job.state = j.state;
      buttons();
      poll(mine);
    } catch (e) {
      if (job !== mine) return;
      job = null;
      buttons();
      setState(`${LABEL[kind]}: ${e.message}`, 'failed');
    }
  }

  async function poll(mine) {
    if (job !== mine) return;
    const j = await api(`/api/jobs/${mine.id}`).catch((e) => ({state: 'failed', error: e.message}));
    if (job !== mine) return;
    const pr = j.progress;
    const over = OVER.includes(j.state);
    const fewest = pr && pr.phase === 'fewest';
    let detail = '';
    if (pr && !over)
      detail = fewest ?
          ` — at least ${plural(pr.lower_bound, 'move')}${
              pr.best_found >= 0 ? `, best found ${fmt(pr.best_found)}` : ''}${
              pr.shortening ? ', out of memory: shortening it' :
                              `, ${fmt(pr.positions)} positions`}` :
                              ` — ${pr.phase} ${Math.round(100 * pr.fraction)}%, ${fmt(pr.positions)} positions`;
    setState(`${LABEL[mine.kind]} ${j.state}${detail}`, j.state);
    if (pr && Number.isFinite(pr.fraction)) $('job-progress').value = pr.fraction;
    mine.state = j.state;
    buttons();
    if (over) {
      job = null;
      buttons();
      if (j.state === 'done') $('job-progress').value = 1;
      showResult(j, mine);
      return;
    }
    timer = setTimeout(() => poll(mine), 300);
  }

  async function action(a) {
    if (!job?.id) return;
    const mine = job;
    try {
      const j = await api(`/api/jobs/${mine.id}/${a}`, {});
      if (job !== mine) return;
      mine.state = j.state;
      setState(`${LABEL[mine.kind]} ${j.state}`, j.state);
      buttons();
    } catch (e) {
      if (job === mine) $('job-state').textContent = `${LABEL[mine.kind]}: ${e.message}`;
    }
  }

  const fromText = (n) => (n ? `the position after ${plural(n, 'move')}` : 'the start');

  function showResult(j, mine) {
    const box = $('job-result');
    const p = (text) => {
      const e = document.createElement('p');
      e.textContent = text;
      box.appendChild(e);
      return e;
    };
    box.replaceChildren();
    if (j.error) {
      p(`${LABEL[mine.kind]} failed: ${j.error}`);
      return;
    }
    const r = j.result;
    const stopped = j.state === 'cancelled' ? 'cancelled' :
        r && r.status === 'stopped'         ? `stopped (${j.stop})` :
                                              '';
    if (!r) {
      p(`${LABEL[mine.kind]} ${stopped || j.state}: no result.`);
      return;
    }
    if (mine.kind === 'count') {
      if (r.levels?.some((l) => l.reachable > 0)) box.appendChild(funnel(r));
      if (stopped)
        p(`Census ${stopped} before it ended, so no count of the solutions: ${
            r.reachable > 0 ? `${fmt(r.reachable)} positions met in the levels it completed` :
                              'no level was completed'}.`);
      else
        p(`Census from ${fromText(mine.from)}: ${fmt(r.reachable)} positions, ${
            fmt(r.on_solution_path)} on solution paths, ${plural(r.solutions, 'solution')}${
            r.solutions_up_to_symmetry ? ` (${fmt(r.solutions_up_to_symmetry)} up to symmetry)` :
                                         ''}.`);
    } else if (mine.kind === 'fewest') {
      const m = r.minimize;
      p(m.moves === null ? `No solution from ${fromText(mine.from)}: ${r.reason || r.status}` :
            m.proven ? `Fewest moves from ${fromText(mine.from)}: ${fmt(m.moves)}, proven (${
                           fmt(r.stats.nodes)} positions).` :
                       `Best found from ${fromText(mine.from)}: ${
                           plural(
                               m.moves, 'move')}; at least ${fmt(m.lower_bound)} (${r.reason}).`);
      if (m.chains.length) {
        const b = document.createElement('button');
        b.id = 'job-play';
        b.textContent = 'Play it';
        b.onclick = () => {
          if (page.position() !== r.start) {
            page.status('The game has moved on since the job started: run it again from here.');
            return;
          }
          page.playFewest(r);
        };
        box.appendChild(b);
      }
    } else if (mine.kind === 'table') {
      const n = r.names.length;
      const yes = r.matrix.flat().filter((x) => x === 1).length;
      p(`Solvability table of ${r.board || 'the board'}${
            stopped || !r.complete ? ' (incomplete)' : ''}: ${fmt(yes)} of ${
            fmt(n * n)} pairs solvable. Rows: the vacant hole at the start; ` +
        'columns: the last peg\'s hole. Click a green square to play that problem.');
      box.appendChild(tableGrid(r, page.playProblem));
    } else {
      p(JSON.stringify(r).slice(0, 400));
    }
  }

  if (navigator.serviceWorker)
    navigator.serviceWorker.addEventListener('controllerchange', buttons);
  buttons();
  return {start, action, buttons};
}

// The census funnel: positions per peg count (log scale), all and on solution paths.
function funnel(r) {
  const lv = r.levels.filter((l) => l.reachable > 0);
  const max = Math.max(...lv.map((l) => l.reachable));
  const W = 260, rowH = 12;
  const svg = el('svg', {
    class: 'funnel',
    width: W,
    height: lv.length * rowH + 20,
    role: 'img',
    'aria-label': 'Census funnel'
  });
  const scale = (x) => (x > 0 ? (Math.log10(x + 1) / Math.log10(max + 1)) * (W - 60) : 0);
  lv.slice().sort((a, b) => b.pegs - a.pegs).forEach((l, i) => {
    const wr = scale(l.reachable), wp = scale(l.on_solution_path);
    const t = el(
        'rect',
        {class: 'reach', x: 30 + (W - 60 - wr) / 2, y: i * rowH, width: wr, height: rowH - 2}, svg);
    el('title', {}, t).textContent = `${l.pegs} pegs: ${fmt(l.reachable)} positions, ${
        fmt(l.on_solution_path)} on solution paths`;
    el('rect', {class: 'path', x: 30 + (W - 60 - wp) / 2, y: i * rowH, width: wp, height: rowH - 2},
       svg);
    el('text', {x: 0, y: i * rowH + 9}, svg).textContent = l.pegs;
  });
  el('text', {x: 0, y: lv.length * rowH + 14}, svg).textContent =
      'positions per peg count (log): all, on solution paths';
  return svg;
}

// The solvability table as a grid: row v (the start's vacant hole), column h (the last peg's
// hole), green when solvable, grey when not, hatched when the job did not settle it.
function tableGrid(r, pick) {
  const n = r.names.length, cell = 10, lab = 24;
  const size = lab + n * cell;
  const svg = el('svg', {
    class: 'table-grid',
    viewBox: `0 0 ${size} ${size}`,
    role: 'img',
    'aria-label': 'Solvability table: rows the vacant hole, columns the last hole'
  });
  r.names.forEach((name, i) => {
    el('text', {x: lab - 2, y: lab + i * cell + cell / 2, class: 'row'}, svg).textContent = name;
    el('text', {
      x: lab + i * cell + cell / 2,
      y: lab - 2,
      class: 'col',
      transform: `rotate(-90 ${lab + i * cell + cell / 2} ${lab - 2})`
    },
       svg)
        .textContent = name;
  });
  r.matrix.forEach((row, v) => row.forEach((x, h) => {
    const c =
        el('rect', {
          x: lab + h * cell,
          y: lab + v * cell,
          width: cell - 1,
          height: cell - 1,
          class: x === 1 ? 'yes' :
              x === 0    ? 'no' :
                           'open',
          'data-start': r.names[v],
          'data-end': r.names[h],
        },
           svg);
    const verdict = x === 1 ? 'solvable' : x === 0 ? 'not solvable' : 'not settled';
    el('title', {}, c).textContent = `${r.names[v]} vacant, last peg on ${r.names[h]}: ${verdict}`;
    if (x === 1) c.addEventListener('click', () => pick(v, r.names[h]));
  }));
  return svg;
}
