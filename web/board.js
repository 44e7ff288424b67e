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
  return { pts, viewBox: `${minX} ${minY} ${w} ${h}`, w, h };
}

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// A static picture of `pegs` (0/1 string) on the board: an <svg> element.
export function picture(geo, pegs, opts = {}) {
  const L = layout(geo);
  const svg = el('svg', { xmlns: NS, viewBox: L.viewBox, width: opts.size || 240, height: (opts.size || 240) * L.h / L.w });
  el('rect', { x: L.viewBox.split(' ')[0], y: L.viewBox.split(' ')[1], width: L.w, height: L.h, fill: '#f6f1e7' }, svg);
  L.pts.forEach(([x, y], h) => {
    el('circle', { cx: x, cy: y, r: 0.38, fill: '#d9cbb3', stroke: '#a89678', 'stroke-width': 0.04 }, svg);
    if (pegs[h] === '1') el('circle', { cx: x, cy: y, r: 0.3, fill: opts.highlight === h ? '#2b6cb0' : '#b5542c' }, svg);
  });
  if (opts.jump) {
    const [f, , t] = opts.jump;
    el('line', { x1: L.pts[f][0], y1: L.pts[f][1], x2: L.pts[t][0], y2: L.pts[t][1], stroke: '#2b6cb0', 'stroke-width': 0.1 }, svg);
  }
  return svg;
}
