// SPDX-License-Identifier: MIT
// The board on the page: the game drawn (pegs, targets, the goal, the last move, the rings, a
// hint), the slide of a move, and the pointer and keys that play on it.
import {el, path} from './board.js';

// The view of `S` (a Game with the page's selected, mode, hint, ends, slide, kbd, cursorHole) in
// the <svg> `svg`; `act.click(hole)` is a click on a hole, `act.drop(jump)` a peg dropped on its
// target. Gives draw() and markEnds().
export function createView(svg, S, act) {
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

  function draw() {
    svg.replaceChildren();
    const L = S.L;
    svg.setAttribute('viewBox', L.viewBox);
    const defs = el('defs', {}, svg);
    const mk =
        el('marker', {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 5,
          refY: 5,
          markerWidth: 3,
          markerHeight: 3,
          orient: 'auto'
        },
           defs);
    el('path', {d: 'M0,0 L10,5 L0,10 z', fill: '#2b6cb0'}, mk);
    const pos = S.mode === 'edit-start' ? S.start : S.pegs();
    const targets = S.selected !== null ? S.legalFrom(pos, S.selected) : [];
    const goals = new Set(S.goalHoles());
    // The last move played: its path, the holes it emptied and the peg that landed.
    const last = S.mode === 'play' && S.cursor > 0 ? S.moves[S.cursor - 1] : null;
    const emptied = new Set(last ? last.flatMap(([f, o]) => [f, o]) : []);
    const landing = last ? last[last.length - 1][2] : -1;
    if (last)
      el('polyline',
         {points: path(last).map((h) => L.pts[h].join(',')).join(' '), class: 'last-move'}, svg);
    const small = S.geo.holes > 60;
    L.pts.forEach(([x, y], h) => {
      const g = el('g', {'data-hole': h, class: 'cell'}, svg);
      const t = targets.find((j) => j[2] === h);
      const hole = `hole${t ? ' target' : ''}${emptied.has(h) && pos[h] !== '1' ? ' emptied' : ''}`;
      el('circle', {cx: x, cy: y, r: 0.4, class: hole, 'data-hole': h}, g);
      if (goals.has(h))
        el('circle', {
          cx: x,
          cy: y,
          r: 0.46,
          class: S.mode === 'edit-goal' ? 'goal-mark picking' : 'goal-mark'
        },
           g);
      if (pos[h] === '1') {
        const cls = `peg${h === S.selected ? ' selected' : ''}${h === landing ? ' last' : ''}`;
        el('circle', {cx: x, cy: y, r: 0.3, class: cls, 'data-hole': h}, g);
      }
      if (!small)
        el('text', {x, y, class: pos[h] === '1' ? 'label on-peg' : 'label'}, g).textContent =
            S.name(h);
      if (h === S.cursorHole && S.kbd) el('circle', {cx: x, cy: y, r: 0.44, class: 'cursor'}, g);
    });
    markEnds();
    if (S.hint)
      for (const [f, , t] of S.hint)
        el('line', {
          x1: L.pts[f][0],
          y1: L.pts[f][1],
          x2: (L.pts[f][0] + 3 * L.pts[t][0]) / 4,
          y2: (L.pts[f][1] + 3 * L.pts[t][1]) / 4,
          class: 'hint-arrow'
        },
           svg);
    slide();
  }

  // Rings the holes the last peg can still end on (S.ends), and marks the holes of a proof that
  // the goal is lost (S.proof), without drawing the board again.
  function markEnds() {
    for (const r of svg.querySelectorAll('.end-ring, .proof-mark')) r.remove();
    for (const h of S.proof || []) {
      const g = svg.querySelector(`g.cell[data-hole="${h}"]`);
      const [x, y] = S.L.pts[h];
      if (g) g.insertBefore(el('rect', {x: x - 0.47, y: y - 0.47, width: 0.94, height: 0.94, rx: 0.12, class: 'proof-mark'}), g.children[0]);
    }
    for (const h of S.ends) {
      const g = svg.querySelector(`g.cell[data-hole="${h}"]`);
      const [x, y] = S.L.pts[h];
      if (g) g.insertBefore(el('circle', {cx: x, cy: y, r: 0.5, class: 'end-ring'}), g.children[1]);
    }
  }

  // The move just made slides its peg along its path and fades the jumped pegs (not when the
  // player asks for reduced motion).
  function slide() {
    const move = S.slide;
    S.slide = null;
    if (!move || reducedMotion.matches) return;
    const to = move[move.length - 1][2];
    const peg = svg.querySelector(`circle.peg[data-hole="${to}"]`);
    if (!peg) return;
    const [tx, ty] = S.L.pts[to];
    const duration = 180 * move.length;
    const frames = path(move).map(
        (h) => ({transform: `translate(${S.L.pts[h][0] - tx}px, ${S.L.pts[h][1] - ty}px)`}));
    peg.animate(frames, {duration, easing: 'ease-in-out'});
    for (const [, o] of move) {
      const [x, y] = S.L.pts[o];
      const ghost = el('circle', {cx: x, cy: y, r: 0.3, class: 'peg ghost'}, svg);
      ghost.animate([{opacity: 1}, {opacity: 0}], {duration, fill: 'forwards'}).onfinish = () =>
          ghost.remove();
    }
  }

  function holeAt(ev) {
    const t = document.elementFromPoint(ev.clientX, ev.clientY);
    const g = t && t.closest('[data-hole]');
    return g ? Number(g.getAttribute('data-hole')) : null;
  }

  // The pointer in the board's own units.
  function boardPoint(ev) {
    const m = svg.getScreenCTM().inverse();
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m);
    return [p.x, p.y];
  }

  // The hole under a point of the board (within half a hole spacing), or null.
  function nearestHole([x, y]) {
    let best = null, bd = 0.5;
    S.L.pts.forEach(([hx, hy], h) => {
      const d = Math.hypot(hx - x, hy - y);
      if (d < bd) [best, bd] = [h, d];
    });
    return best;
  }

  // The pointer (a click, a drag) and the keys (a cursor, Enter, Escape) on the board.
  function bind() {
    let drag = null;
    svg.addEventListener('pointerdown', (ev) => {
      const h = holeAt(ev);
      if (h === null) return;
      S.kbd = false;
      act.click(h);
      if (S.mode === 'play' && S.selected === h) {
        drag = {from: h, x: ev.clientX, y: ev.clientY, moved: false};
        svg.setPointerCapture?.(ev.pointerId);
      }
    });
    // A dragged peg follows the pointer, and lands on the hole it is dropped on when it may.
    svg.addEventListener('pointermove', (ev) => {
      if (!drag) return;
      if (!drag.moved && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
      const peg = svg.querySelector(`circle.peg[data-hole="${drag.from}"]`);
      if (!peg) return;
      // Drawn last, so that it passes over the other pegs.
      if (!drag.moved) svg.appendChild(peg);
      drag.moved = true;
      const [x, y] = boardPoint(ev);
      const [hx, hy] = S.L.pts[drag.from];
      peg.setAttribute('transform', `translate(${x - hx} ${y - hy})`);
      peg.classList.add('dragging');
    });
    svg.addEventListener('pointerup', (ev) => {
      const d = drag;
      drag = null;
      if (!d || !d.moved) return;
      const h = nearestHole(boardPoint(ev));
      const j = S.selected === d.from && S.legalFrom(S.pegs(), d.from).find((x) => x[2] === h);
      if (j)
        act.drop(j);
      else
        draw();
    });
    svg.addEventListener('pointercancel', () => {
      if (drag) draw();
      drag = null;
    });
    svg.addEventListener('keydown', (ev) => {
      const L = S.L;
      const dirs = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
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
          if (d < bd) [best, bd] = [h, d];
        });
        if (best !== null) S.cursorHole = best;
        draw();
      } else if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        S.kbd = true;
        act.click(S.cursorHole);
      } else if (ev.key === 'Escape') {
        S.selected = null;
        draw();
      }
    });
  }

  bind();
  return {draw, markEnds};
}
