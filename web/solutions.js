// SPDX-License-Identifier: MIT
// The Solutions section: the distinct solutions from the game's position (POST /api/solutions,
// one per class of reorderings of independent jumps), each put on the board to step through.
import {fmt, plural} from './format.js';
import {chains} from './game.js';

// The section's controller. `page` gives: api(path, body), $(id), request(extra) (the game's
// problem and moves played), here() (a token of the moves played), show(moves, note) (plays
// nothing: puts the solution's moves after the moves played, to step through), rewind() (back
// to the position the solutions start from, when the game still holds it).
export function createSolutions(page) {
  const {api, $} = page;
  let found = null;  // {from: here() at the question, list: [[jump...]...], index}

  function summary(r) {
    const n = r.solutions.length;
    if (r.status === 'impossible') return `No solution from here: ${r.reason}`;
    if (r.status === 'complete')
      return n ? `${plural(n, 'distinct solution')} from here.` : 'No solution from here.';
    if (r.status === 'limit')
      return `The first ${fmt(n)} distinct solutions from here (there are more).`;
    return `${plural(n, 'distinct solution')} found before the search stopped (${r.stop}).`;
  }

  function nav() {
    $('sol-nav').hidden = !found || !found.list.length;
    if (!found || !found.list.length) return;
    $('sol-index').textContent = `Solution ${fmt(found.index + 1)} of ${fmt(found.list.length)}`;
    $('sol-prev').disabled = found.index === 0;
    $('sol-next').disabled = found.index === found.list.length - 1;
  }

  // Puts solution i on the board, after the moves played when the solutions were found.
  function pick(i) {
    if (page.here() !== found.from && !page.rewind(found.from)) {
      $('sol-summary').textContent =
          'The game has moved on since: find the solutions from here again.';
      found = null;
      nav();
      return;
    }
    found.index = i;
    nav();
    page.show(chains(found.list[i]), `Solution ${i + 1} of ${found.list.length}`);
  }

  async function find() {
    found = null;
    nav();
    $('sol-summary').textContent = 'Looking for the distinct solutions from here…';
    const from = page.here();
    try {
      const r = await api('/api/solutions', page.request({distinct: true, limit: 100}));
      if (page.here() !== from) return;
      $('sol-summary').textContent = summary(r);
      found = {from, list: r.solutions.map((s) => s.moves), index: 0};
      if (found.list.length)
        pick(0);
      else
        nav();
    } catch (e) {
      $('sol-summary').textContent = e.message;
    }
  }

  $('sol-find').onclick = find;
  $('sol-prev').onclick = () => found && pick(found.index - 1);
  $('sol-next').onclick = () => found && pick(found.index + 1);
  return {find};
}
