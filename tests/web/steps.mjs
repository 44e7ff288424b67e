// SPDX-License-Identifier: MIT
// Steps of the page's end-to-end test (tests/web/e2e.mjs) for its rough edges and what players
// expect: each takes the test's context `t` (page, api of the reference server, check, shot, ...)
// and works on either engine, checking the page against the reference server's answers.
import {readFileSync} from 'node:fs';

// The moves (chains of [from, over, to]) grouped as the page groups jumps: a jump by the peg
// that just landed joins its move.
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
const chainText = (geo, m) => [m[0][0], ...m.map((j) => j[2])].map((h) => geo.names[h]).join('-');
// Opens (or closes) one of the page's <details> sections.
export const open = (t, id, on = true) => t.page.evaluate(([i, o]) => {
  document.getElementById(i).open = o;
}, [id, on]);
const withCommas = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const legalJumps = (geo, pos) =>
    geo.jump_list.filter(([f, o, t]) => pos[f] === '1' && pos[o] === '1' && pos[t] === '0');
function play(pos, [f, o, t]) {
  const p = pos.split('');
  p[f] = '0';
  p[o] = '0';
  p[t] = '1';
  return p.join('');
}

// Plays from `start` by a fixed rule until no jump is left: the jumps played and the final pegs.
function playOut(geo, start, pick) {
  let pos = start.split('');
  const moves = [];
  for (;;) {
    const legal =
        geo.jump_list.filter(([f, o, t]) => pos[f] === '1' && pos[o] === '1' && pos[t] === '0');
    if (!legal.length) break;
    const [f, o, t] = pick(legal, moves.length);
    pos[f] = '0';
    pos[o] = '0';
    pos[t] = '1';
    moves.push([f, o, t]);
  }
  return {moves, pegs: pos.filter((c) => c === '1').length};
}

// Loads a game through the URL's hash, as a link pasted into the open tab does.
export async function goHash(t, hash, pegs) {
  await t.page.evaluate((h) => {
    location.hash = h;
  }, hash);
  return t.waitText('#pegs-count', pegs);
}

// The triangle's win: the moves it took and the fewest the engine finds from the start.
export async function winSaysFewest(t, sol) {
  const n = chains(sol.moves).length;
  const best = await t.api(
      '/api/solve', {board: 'triangle:5', start: '011111111111111', end: 'any', minimize: 'moves'});
  const m = best.minimize.moves;
  const want = m === n ? 'That is the fewest possible.' : `The fewest possible: ${m} moves.`;
  t.check(
      'win-moves', (await t.text('#status')).startsWith(`Solved in ${n} moves!`),
      await t.text('#status'));
  t.check(
      'win-fewest',
      best.minimize.proven && await t.waitText('#status', new RegExp(want.replace('.', '\\.'))),
      await t.text('#status'));
  t.check('win-outcome', await t.page.getAttribute('#status', 'data-outcome') === 'won');
}

// A loss: a game played out to no move left with pegs to spare says so plainly.
export async function lossSaysSo(t, geo) {
  const start = '011111111111111';
  let lost = null;
  for (let k = 0; k < 8 && !lost; k++) {
    const r = playOut(geo, start, (legal, i) => legal[(i * (k + 1) + k) % legal.length]);
    if (r.pegs > 1) lost = r;
  }
  t.check('loss-found', lost !== null);
  if (!lost) return;
  const moves = lost.moves.map((j) => chainText(geo, [j])).join(' ');
  await goHash(
      t, `#board=triangle:5&start=${start}&end=any&moves=${encodeURIComponent(moves)}`,
      `${lost.pegs} pegs`);
  t.check(
      'loss-says',
      await t.waitText(
          '#status', new RegExp(`^No move left: ${lost.pegs} pegs remain and the goal`)),
      await t.text('#status'));
  t.check('loss-outcome', await t.page.getAttribute('#status', 'data-outcome') === 'lost');
  await t.ready();
  await t.shot('20-lost');
}

// Numbers with thousands separators: the triangle's ways from its start.
export async function thousands(t) {
  const a =
      await t.api('/api/analysis', {board: 'triangle:5', start: '011111111111111', end: 'any'});
  const shown = await t.text('#feedback-body b.ways');
  t.check(
      'thousands', a.ways_goal >= 1000 && shown === withCommas(a.ways_goal),
      `${shown} / ${a.ways_goal}`);
}

// Finish this game on a board already solved says so at once.
export async function finishSolved(t) {
  await t.page.click('#finish-btn');
  t.check('finish-solved', await t.waitText('#status', /^Already solved/), await t.text('#status'));
}

// The move list keeps the current move in view.
export async function listScrolls(t) {
  const inView = () => t.page.evaluate(() => {
    const ol = document.getElementById('move-list');
    const li = ol.querySelector('li.current');
    return !!li && ol.scrollHeight > ol.clientHeight && li.offsetTop >= ol.scrollTop &&
        li.offsetTop + li.offsetHeight <= ol.scrollTop + ol.clientHeight + 1;
  });
  t.check('list-scrolls-end', await inView());
  await t.page.evaluate(() => {
    const r = document.getElementById('replay');
    r.value = 1;
    r.dispatchEvent(new Event('input'));
  });
  t.check('list-scrolls-start', await inView());
}

// Save game keeps the undone moves, and loading the file brings them back to redo.
export async function saveUndone(t, geo) {
  await goHash(
      t, '#board=triangle:5&start=011111111111111&end=any&moves=4-1%206-4%201-6', '11 pegs');
  await t.page.click('#undo');
  await open(t, 'files');
  const dl = t.page.waitForEvent('download');
  await t.page.click('#save-btn');
  await dl;
  const saved = await t.page.inputValue('#game-text');
  t.check('save-undone', saved.endsWith('moves:\n4-1\n6-4\nundone:\n1-6\n'), saved);
  await t.page.click('#restart');
  await t.page.click('#load-text');
  t.check(
      'load-undone',
      await t.waitText('#moves-count', '2 moves') &&
          (await t.page.$$('#move-list li')).length === 3 && !(await t.page.isDisabled('#redo')));
  await open(t, 'files', false);
}

// Restart keeps the moves to redo.
export async function restartKeeps(t) {
  const n = (await t.page.$$('#move-list li')).length;
  await t.page.click('#restart');
  t.check('restart', await t.waitText('#moves-count', '0 moves'));
  t.check(
      'restart-keeps',
      n > 0 && (await t.page.$$('#move-list li')).length === n &&
          !(await t.page.isDisabled('#redo')));
  await t.page.click('#redo');
  t.check('restart-redo', await t.waitText('#moves-count', '1 move'));
  await t.page.click('#restart');
}

// A link pasted into the open tab loads its game; a drawn board's link carries the drawing.
export async function links(t) {
  // A link whose moves are illegal: the page says so, on a new tab and in an open one.
  const bad = '#board=triangle:5&start=011111111111111&end=any&moves=1-4';
  await t.page.goto('about:blank');
  await t.page.goto(t.base + bad);
  await t.page.waitForSelector('body[data-ready="1"]');
  t.check(
      'bad-link-load',
      await t.waitText('#status', /^The link's game cannot be loaded: move 1 \(1-4\): /),
      await t.text('#status'));
  await t.ready();
  await t.page.evaluate((h) => {
    location.hash = h;
  }, bad.replace('1-4', '2-4'));
  t.check(
      'bad-link-open',
      await t.waitText('#status', /^The link's game cannot be loaded: move 1 \(2-4\): /),
      await t.text('#status'));
  t.check(
      'hashchange',
      await goHash(t, '#board=triangle:6&moves=4-1', '19 pegs') &&
          (await t.text('#moves-count')) === '1 move' &&
          (await t.page.inputValue('#board-select')) === 'triangle:6');
  await open(t, 'board-more');
  await t.page.fill('#drawing', 'ooooo\noo.oo\nooooo\n');
  await t.page.click('#use-drawing');
  await t.waitText('#pegs-count', '14 pegs');
  const hash = await t.page.evaluate(() => location.hash);
  t.check('drawing-link', hash.includes('drawing=') && !hash.includes('board=triangle'), hash);
  await t.page.reload();
  t.check(
      'drawing-link-reload',
      await t.waitText('#pegs-count', '14 pegs') &&
          (await t.page.$eval('#board-select', (s) => s.selectedOptions[0].textContent)) ===
              'drawn board (15)');
  await t.ready();
  await open(t, 'board-more', false);
}

// A game whose goal is a whole position keeps it: shown, asked about, saved and in the link.
export async function goalPosition(t) {
  const goal = '000000000000101';
  await open(t, 'files');
  await t.page.fill('#game-text', `pegsol game\nboard: triangle:5\nstart: 4\ngoal: ${goal}\n`);
  await t.page.click('#load-text');
  t.check(
      'goal-position', await t.waitText('#status', 'Goal: the marked position (2 pegs)'),
      await t.text('#status'));
  t.check('goal-position-marks', (await t.page.$$('#board circle.goal-mark')).length === 2);
  t.check(
      'goal-position-link', (await t.page.evaluate(() => location.hash)).includes(`goal=${goal}`));
  await t.page.waitForSelector(
      '#feedback-body[data-state="done"], #feedback-body[data-state="verdict"]');
  const a = await t.api('/api/analysis', {board: 'triangle:5', start: '4', goal, count: false});
  const v = await t.page.$eval(
      '#feedback-body div:nth-child(2)', (d) => [d.textContent, d.dataset.verdict]);
  t.check(
      'goal-position-verdict',
      v[0].startsWith('Goal (the marked position)') && v[1] === a.goal.verdict, v.join(' '));
  const dl = t.page.waitForEvent('download');
  await t.page.click('#save-btn');
  await dl;
  t.check(
      'goal-position-saved', (await t.page.inputValue('#game-text')).includes(`goal: ${goal}\n`));
  await t.ready();
  await t.shot('21-goal-position');
  await open(t, 'files', false);
}

// Print solution on an unfinished game prints the moves played and a finish from there, under a
// title; the whole game downloads as a sequence of boards; a lost game prints nothing and says why.
export async function printUnfinished(t, geo, sol, shots) {
  const [a, b] = sol.moves;
  const played = [a, b].map((j) => chainText(geo, [j]));
  await goHash(
      t, `#board=triangle:5&start=011111111111111&end=any&moves=${played.join('%20')}`, '12 pegs');
  await t.ready();
  const r = await t.api(
      '/api/solve', {board: 'triangle:5', start: '011111111111111', end: 'any', moves: played});
  const rest = chains(r.moves.slice(r.kept_moves));
  await t.page.evaluate(() => {
    window.printed = 0;
    window.print = () => {
      window.printed++;
    };
  });
  await open(t, 'files');
  await t.page.click('#print-btn');
  await t.page.waitForFunction(() => window.printed > 0);
  const caps = await t.page.$$eval('#print-area figure', (l) => l.map((f) => f.textContent));
  t.check(
      'print-unfinished',
      caps.length === 3 + rest.length && caps[1] === `1. ${played[0]}` &&
          caps[2] === `2. ${played[1]}`,
      caps.join(' | '));
  t.check(
      'print-title', (await t.text('#print-area h1')).startsWith('pegsol — triangle:5'),
      await t.text('#print-area h1'));
  t.check(
      'print-says',
      (await t.text('#status')) ===
          `The print page: Moves 1-2 as played, then moves 3-${
              2 + rest.length} found by the engine.`,
      await t.text('#status'));
  await t.page.emulateMedia({media: 'print'});
  await t.shot('22-print-unfinished');
  await t.page.emulateMedia({media: 'screen'});
  // The whole game as pictures: one frame per move and the start.
  const svgDl = t.page.waitForEvent('download');
  await t.page.click('#game-svg-btn');
  const svgFile = await svgDl;
  const svg = readFileSync(await svgFile.path(), 'utf8');
  const frames = svg.split('class="frame"').length - 1;
  t.check(
      'game-svg',
      svgFile.suggestedFilename() === 'pegsol-game.svg' && frames === 3 + rest.length &&
          svg.includes('>start</text>') && svg.includes(`>1. ${played[0]}</text>`),
      `${frames} frames`);
  const pngDl = t.page.waitForEvent('download');
  await t.page.click('#game-png-btn');
  const png = readFileSync(await (await pngDl).path());
  t.check(
      'game-png', png.subarray(1, 4).toString() === 'PNG' && png.readUInt32BE(16) > 200,
      `${png.length} bytes`);
  // A game that cannot be won any more: no solution to print, and the page says so.
  let losing = null;
  const after = [a].reduce(play, '011111111111111');
  for (const j1 of legalJumps(geo, after)) {
    for (const j2 of legalJumps(geo, play(after, j1))) {
      const moves = [a, j1, j2].map((j) => chainText(geo, [j]));
      const an = await t.api(
          '/api/analysis',
          {board: 'triangle:5', start: '011111111111111', end: 'any', moves, count: false});
      if (an.one_peg.verdict === 'not solvable') {
        losing = moves;
        break;
      }
    }
    if (losing) break;
  }
  t.check('losing-game-found', losing !== null);
  if (losing) {
    await goHash(
        t, `#board=triangle:5&start=011111111111111&end=any&moves=${losing.join('%20')}`,
        '11 pegs');
    await t.page.click('#print-btn');
    t.check(
        'print-none',
        await t.waitText(
            '#status', /^No solution for the print page: the goal cannot be reached/) &&
            await t.page.evaluate(() => window.printed) === 1,
        await t.text('#status'));
  }
  await open(t, 'files', false);
}

// The editor: its edits undone (the moves they cleared included), clear and fill, and a goal of
// several pegs, asked about with "goal".
export async function editor(t, eng) {
  const hole = (name) => `#board g.cell[data-hole="${eng.names.indexOf(name)}"]`;
  await t.page.click(`${hole('d3')} circle.peg`);
  await t.page.click(`${hole('d1')} circle.target`);
  await t.waitText('#moves-count', '1 move');
  await open(t, 'editor');
  await t.page.click('#edit-start');
  await t.page.click(hole('a3'));
  t.check('edit-clears-moves', await t.waitText('#moves-count', '0 moves'));
  await t.page.click('#undo');
  t.check(
      'edit-undone',
      await t.waitText('#moves-count', '1 move') && (await t.text('#status')) === 'Edit undone.',
      await t.text('#status'));
  // A start with no pegs: no request the engine must refuse, so nothing on the console. The
  // undone edit's feedback settled first, so that no answer arriving during the click can move
  // the panel under it (under load, once, the click on Clear left the board as it was).
  await t.settled(60);
  const noiseBefore = t.noise.length;
  const clearedAt = Date.now();
  await t.page.click('#edit-clear');
  t.check('edit-clear', await t.waitText('#pegs-count', '0 pegs'));
  const cleared = await t.waitText('#feedback-body', /No pegs on the board/);
  const settled = await t.settled(60, clearedAt);
  t.check(
      'edit-clear-no-console-error', cleared && settled && t.noise.length === noiseBefore,
      `feedback shown: ${cleared}, requests still open: ${t.inFlight()}; ` +
          t.noise.slice(noiseBefore).join('; '));
  await t.page.click('#edit-fill');
  t.check('edit-fill', await t.waitText('#pegs-count', '33 pegs'));
  await t.page.click('#undo');
  await t.page.click('#undo');
  // Back to the preset's start (its pegs shown while editing) and the move played on it.
  t.check(
      'edit-clear-fill-undone',
      await t.waitText('#moves-count', '1 move') && (await t.text('#pegs-count')) === '9 pegs',
      await t.text('#pegs-count'));
}

// The goal as several holes: clicked in, asked about as a position, clicked out again.
export async function editorGoal(t, eng) {
  const hole = (name) => `#board g.cell[data-hole="${eng.names.indexOf(name)}"]`;
  await t.page.click('#goal-any');
  await t.page.click('#edit-goal');
  await t.page.click(hole('d4'));
  t.check(
      'editor-goal', (await t.text('#status')).includes('one peg on d4'), await t.text('#status'));
  await t.page.click(hole('d5'));
  t.check(
      'editor-goal-two', (await t.text('#status')).includes('Goal: the marked position (2 pegs)'),
      await t.text('#status'));
  await t.page.click('#edit-done');
  // The goal's verdict, read in the same moment as the state that shows it: the feedback is asked
  // again, and redrawn, once the game's look-ups are ready.
  const v = await (await t.page.waitForFunction(() => {
    const b = document.querySelector('#feedback-body');
    if (!['done', 'verdict'].includes(b?.dataset.state)) return null;
    return b.querySelector('div:nth-child(2)')?.dataset.verdict ?? null;
  })).jsonValue();
  const q = new URLSearchParams((await t.page.evaluate(() => location.hash)).slice(1));
  const a = await t.api(
      '/api/analysis',
      {board: 'english', start: q.get('start'), goal: q.get('goal'), count: false});
  t.check(
      'editor-goal-asked', q.get('goal')?.replace(/0/g, '').length === 2 && v === a.goal.verdict,
      `${q.get('goal')} ${v}`);
  await t.shot('10b-editor-goal');
  await t.page.click('#edit-goal');
  await t.page.click(hole('d5'));
  await t.page.click('#edit-done');
  await t.ready();
  t.check(
      'editor-goal-back', (await t.text('#status')).includes('one peg on d4'),
      await t.text('#status'));
}

// Jobs from the game's position: a census (against the reference server's job), a fewest-moves
// search played from its answer, and the board's solvability table as a grid.
export async function jobsFromHere(t) {
  const moves = ['4-1', '6-4'];
  await goHash(
      t, `#board=triangle:5&start=011111111111111&end=any&moves=${moves.join('%20')}`, '12 pegs');
  await t.ready();
  const ref = await t.refJob(
      {kind: 'count', board: 'triangle:5', start: '011111111111111', end: 'any', moves});
  await open(t, 'jobs');
  await t.page.click('#job-count');
  await t.page.waitForSelector('#job-state[data-state="done"]', {timeout: 60000});
  const census = await t.text('#job-result p');
  t.check(
      'census-from-here',
      census.startsWith('Census from the position after 2 moves: ') &&
          census.includes(`, ${withCommas(ref.solutions)} solution`),
      `${census} / ${ref.solutions}`);
  // A new job: the last one's result goes at once and a fewest search's bar has no value.
  const fresh = await t.page.evaluate(() => {
    document.getElementById('job-fewest').click();
    const bar = document.getElementById('job-progress');
    return [document.getElementById('job-result').children.length, bar.hasAttribute('value')];
  });
  t.check('job-fresh', fresh[0] === 0 && fresh[1] === false, JSON.stringify(fresh));
  await t.page.waitForSelector('#job-state[data-state="done"]', {timeout: 60000});
  const best = await t.api(
      '/api/solve',
      {board: 'triangle:5', start: '011111111111111', end: 'any', moves, minimize: 'moves'});
  t.check(
      'fewest-from-here',
      best.minimize.proven &&
          (await t.text('#job-result p'))
              .startsWith(
                  `Fewest moves from the position after 2 moves: ${best.minimize.moves}, proven`),
      await t.text('#job-result p'));
  await t.page.click('#job-play');
  t.check(
      'fewest-from-here-played',
      await t.waitText(
          '#moves-note',
          `Moves 3-${2 + best.minimize.moves}: the fewest, ${
              best.minimize.moves} moves, proven (no shorter finish exists).`),
      await t.text('#moves-note'));
  await t.page.waitForFunction(
      () => document.getElementById('pegs-count').textContent === '1 peg', null, {timeout: 30000});
  // The census bar starts empty.
  const bar = await t.page.evaluate(() => {
    document.getElementById('job-count').click();
    return document.getElementById('job-progress').value;
  });
  t.check('job-bar-empty', bar === 0, String(bar));
  await t.page.waitForSelector('#job-state[data-state="done"]', {timeout: 60000});
  // The solvability table: a grid of the board's holes, as the reference server's job has it.
  const table = await t.refJob({kind: 'table', board: 'triangle:5'});
  await t.page.click('#job-table');
  await t.page.waitForSelector('#job-state[data-state="done"]', {timeout: 60000});
  const cells =
      await t.page.$$eval('.table-grid rect', (l) => l.map((r) => r.getAttribute('class')));
  const yes = table.matrix.flat().filter((x) => x === 1).length;
  t.check(
      'table-grid', cells.length === 15 * 15 && cells.filter((c) => c === 'yes').length === yes,
      `${cells.length} cells`);
  await t.shot('23-table');
  const cell = await t.page.$('.table-grid rect.yes');
  const [s, e] = [await cell.getAttribute('data-start'), await cell.getAttribute('data-end')];
  await cell.click();
  t.check(
      'table-pick',
      await t.waitText('#status', `Goal: one peg on ${e}`) &&
          (await t.text('#pegs-count')) === '14 pegs' &&
          (await t.page.$(`#board g.cell[data-hole="${Number(s) - 1}"] circle.peg`)) === null,
      await t.text('#status'));
  await open(t, 'jobs', false);
}

// Other boards: the rows field's limit, the Board selector naming any board, a solvable start.
export async function otherBoards(t) {
  await open(t, 'board-more');
  const before = await t.text('#pegs-count');
  await t.page.fill('#tri-rows', '40');
  await t.page.click('#use-tri');
  t.check(
      'rows-limit',
      (await t.text('#status')).includes('32') && (await t.text('#pegs-count')) === before,
      await t.text('#status'));
  // The 10-hole triangle: its corner cannot be solved; the first vacancy that can is used.
  await t.page.fill('#tri-rows', '4');
  await t.page.click('#use-tri');
  await t.waitText('#pegs-count', '9 pegs');
  await t.page.waitForSelector('#feedback-body [data-verdict]');
  const start =
      new URLSearchParams((await t.page.evaluate(() => location.hash)).slice(1)).get('start');
  const first = start.indexOf('0');
  let earlier = true;
  for (let h = 0; h < first; h++) {
    const a = await t.api(
        '/api/analysis', {board: 'triangle:4', start: String(h + 1), end: 'any', count: false});
    if (a.one_peg.verdict === 'solvable') earlier = false;
  }
  const a = await t.api('/api/analysis', {board: 'triangle:4', start, end: 'any', count: false});
  // Waited for, not read once: the feedback is redrawn when the game's look-ups are ready.
  const shown = await (await t.page.waitForFunction(
      () => document.querySelector('#feedback-body [data-verdict]')?.dataset.verdict ?? null))
      .jsonValue();
  t.check('solvable-start', a.one_peg.verdict === 'solvable' && earlier && shown === 'solvable',
          start);
  t.check(
      'board-select-other',
      (await t.page.$eval('#board-select', (s) => s.selectedOptions[0].textContent)) ===
          'triangle:4 (10)');
  await t.ready();
  await t.shot('24-triangle-4');
  await open(t, 'board-more', false);
}

// Moves slide (a peg animation per move) unless the player asks for reduced motion.
export async function motion(t, browser, base) {
  const count = async (page) => {
    await page.goto('about:blank');
    await page.goto(base + '#board=triangle:5&start=011111111111111&end=any');
    await page.waitForSelector('body[data-ready="1"]');
    await page.evaluate(() => {
      window.slides = 0;
      const animate = Element.prototype.animate;
      Element.prototype.animate = function(...a) {
        window.slides++;
        return animate.apply(this, a);
      };
    });
    await page.click('#board circle.peg[data-hole="3"]');
    await page.click('#board circle.target[data-hole="0"]');
    await page.waitForFunction(
        () => document.getElementById('moves-count').textContent === '1 move');
    return page.evaluate(() => window.slides);
  };
  t.check('motion', await count(t.page) > 0);
  const c = await browser.newContext({reducedMotion: 'reduce'});
  t.check('reduced-motion', await count(await c.newPage()) === 0);
  await c.close();
}

// The static edition's Pause: disabled, saying why, while no service worker controls the page.
export async function pauseNeedsWorker(t, browser, base) {
  const c = await browser.newContext({serviceWorkers: 'block'});
  const p = await c.newPage();
  await p.goto(base + '#board=triangle:5');
  await p.waitForSelector('body[data-ready="1"]');
  await p.evaluate(() => {
    document.getElementById('jobs').open = true;
  });
  await p.click('#job-count');
  await p.waitForSelector('#job-state[data-state="running"], #job-state[data-state="done"]');
  const title = await p.getAttribute('#job-pause', 'title');
  t.check(
      'pause-needs-worker', await p.isDisabled('#job-pause') && /service worker/.test(title),
      title);
  await p.screenshot(
      {path: `${t.shots}/25-pause-needs-worker.png`, fullPage: true, animations: 'disabled'});
  await c.close();
}

// The phone: a short header, and Help opening at its title.
export async function phone(t) {
  const h = (await t.page.$eval('header', (e) => e.getBoundingClientRect().height));
  t.check('phone-header', h <= 100, `${h} px`);
  await t.page.click('#help-btn');
  const d = await t.page.$eval(
      '#help',
      (e) =>
          [e.scrollTop,
           e.querySelector('h2').getBoundingClientRect().top - e.getBoundingClientRect().top]);
  t.check('phone-help-top', d[0] === 0 && d[1] >= 0 && d[1] < 40, JSON.stringify(d));
  await t.shot('16b-phone-help');
  await t.page.keyboard.press('Escape');
}

// The distinct solutions from the game's position, put on the board one at a time and stepped
// through, as the reference server lists them.
export async function solutions(t, geo) {
  const moves = ['4-1', '6-4'];
  const start = '011111111111111';
  await goHash(t, `#board=triangle:5&start=${start}&end=any&moves=${moves.join('%20')}`, '12 pegs');
  await t.ready();
  const ref = await t.api(
      '/api/solutions',
      {board: 'triangle:5', start, end: 'any', moves, distinct: true, limit: 100});
  const n = ref.solutions.length;
  const said = ref.status === 'complete' ?
      `${n} distinct solutions from here.` :
      `The first ${n} distinct solutions from here (there are more).`;
  await open(t, 'solutions');
  await t.page.click('#sol-find');
  t.check(
      'solutions-found', n > 1 && await t.waitText('#sol-summary', said),
      await t.text('#sol-summary'));
  const list = async () =>
      (await t.page.$$eval('#move-list li', (l) => l.map((x) => x.textContent))).join(' ');
  const want =
      (i) => [...moves, ...chains(ref.solutions[i].moves).map((m) => chainText(geo, m))].join(' ');
  t.check(
      'solution-first',
      await t.waitText('#sol-index', `Solution 1 of ${n}`) && (await list()) === want(0) &&
          (await t.text('#moves-count')) === '2 moves',
      await list());
  await t.page.click('#anim-step');
  t.check(
      'solution-step',
      await t.waitText('#moves-count', '3 moves') && (await t.text('#pegs-count')) === '11 pegs');
  await t.page.click('#sol-next');
  t.check(
      'solution-next',
      await t.waitText('#sol-index', `Solution 2 of ${n}`) &&
          (await t.text('#moves-count')) === '2 moves' && (await list()) === want(1),
      await list());
  await t.shot('26-solutions');
  await open(t, 'solutions', false);
}
