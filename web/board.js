// SPDX-License-Identifier: MIT
// Board geometry and SVG drawing, shared by the play view, the print page and the downloads.
const NS = 'http://www.w3.org/2000/svg';

// Screen positions of the holes: square lattices by row and column, the triangular lattice
// skewed (row r, k) to x = k - r/2, y = r * sqrt(3)/2.
export function layout(geo) {
  const tri = geo.lattice === 'triangular';
  const pts = geo.coords.map(([r, c]) => (tri ? [c - r / 2, r * Math.sqrt(3) / 2] : [c, r]));
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const minX = Math.min(...xs) - 0.6, minY = Math.min(...ys) - 0.6;
  const w = Math.max(...xs) - minX + 0.6, h = Math.max(...ys) - minY + 0.6;
  return {pts, minX, minY, w, h, viewBox: `${minX} ${minY} ${w} ${h}`};
}

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The holes a move (a chain of [from, over, to] jumps) visits, in order.
export const path = (move) => [move[0][0], ...move.map((j) => j[2])];

// The position after a move: a 0/1 string.
export function apply(pegs, move) {
  const p = pegs.split('');
  for (const [f, o, t] of move) {
    p[f] = '0';
    p[o] = '0';
    p[t] = '1';
  }
  return p.join('');
}

// Draws `pegs` into `parent` at (dx, dy) in the layout's units; `move`, when given, is the move
// that led there: its path is drawn, the holes it emptied shaded and its landing peg ringed.
function drawPosition(parent, L, pegs, move, dx = 0, dy = 0) {
  const g = el('g', {transform: `translate(${dx} ${dy})`}, parent);
  el('rect', {x: L.minX, y: L.minY, width: L.w, height: L.h, fill: '#f6f1e7'}, g);
  const emptied = new Set(move ? move.flatMap(([f, o]) => [f, o]) : []);
  const landing = move ? move[move.length - 1][2] : -1;
  L.pts.forEach(([x, y], h) => {
    const fill = emptied.has(h) ? '#e9b9a6' : '#d9cbb3';
    el('circle', {cx: x, cy: y, r: 0.38, fill, stroke: '#a89678', 'stroke-width': 0.04}, g);
    if (pegs[h] === '1') el('circle', {cx: x, cy: y, r: 0.3, fill: '#b5542c'}, g);
    if (h === landing)
      el('circle', {cx: x, cy: y, r: 0.34, fill: 'none', stroke: '#e0a800', 'stroke-width': 0.09},
         g);
  });
  if (move) {
    const points = path(move).map((h) => L.pts[h].join(',')).join(' ');
    el('polyline', {points, fill: 'none', stroke: '#2b6cb0', 'stroke-width': 0.08, opacity: 0.8},
       g);
  }
  return g;
}

// A static picture of `pegs` (0/1 string) on the board: an <svg> element; opts.move marks the
// move that led there.
export function picture(geo, pegs, opts = {}) {
  const L = layout(geo);
  const size = opts.size || 240;
  const svg = el('svg', {xmlns: NS, viewBox: L.viewBox, width: size, height: size * L.h / L.w});
  drawPosition(svg, L, pegs, opts.move);
  return svg;
}

// The whole game as a grid of small boards, as `pegsol solve --svg` draws it: the start, then
// the position after each move (a chain of jumps is one move), each titled with its move.
export function sequence(geo, start, moves, opts = {}) {
  const L = layout(geo);
  const frames = moves.length + 1;
  const cols = opts.columns || Math.max(1, Math.ceil(Math.sqrt(frames)));
  const rows = Math.ceil(frames / cols);
  const gap = 0.4, band = 0.9;  // between frames, and the title's band above each
  const fw = L.w + gap, fh = L.h + band + gap;
  const scale = opts.scale || 22;  // pixels per hole spacing
  const W = cols * fw + gap, H = rows * fh + gap + (opts.title ? band : 0);
  const svg = el('svg', {
    xmlns: NS,
    viewBox: `0 0 ${W} ${H}`,
    width: Math.round(W * scale),
    height: Math.round(H * scale),
    'font-family': 'sans-serif',
  });
  el('rect', {x: 0, y: 0, width: W, height: H, fill: '#fff'}, svg);
  const top = opts.title ? band : 0;
  if (opts.title)
    el('text', {x: gap, y: band * 0.7, 'font-size': 0.55, fill: '#222'}, svg).textContent =
        opts.title;
  let pegs = start;
  for (let i = 0; i < frames; i++) {
    const move = i > 0 ? moves[i - 1] : null;
    if (move) pegs = apply(pegs, move);
    const x = gap + (i % cols) * fw, y = top + gap + Math.floor(i / cols) * fh;
    const frame = el('g', {class: 'frame'}, svg);
    const title = move ? `${i}. ${path(move).map((h) => geo.names[h]).join('-')}` : 'start';
    el('text', {
      x: x + L.w / 2,
      y: y + band * 0.65,
      'font-size': 0.5,
      'text-anchor': 'middle',
      fill: '#222'
    },
       frame)
        .textContent = title;
    drawPosition(frame, L, pegs, move, x - L.minX, y + band - L.minY);
  }
  return svg;
}

// An <svg> element as the text of an SVG file.
export const svgText = (svg) => new XMLSerializer().serializeToString(svg);

// An <svg> element drawn into a PNG: a Promise of its Blob.
export function pngBlob(svg) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const c = document.createElement('canvas');
      c.width = Number(svg.getAttribute('width'));
      c.height = Number(svg.getAttribute('height'));
      c.getContext('2d').drawImage(img, 0, 0, c.width, c.height);
      c.toBlob((b) => (b ? resolve(b) : reject(new Error('the picture could not be drawn'))));
    };
    img.onerror = () => reject(new Error('the picture could not be drawn'));
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText(svg));
  });
}
