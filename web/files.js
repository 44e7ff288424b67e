// SPDX-License-Identifier: MIT
// The page's files: the game as text (docs/game-format.md), pictures to download, the print page.
import {apply, path, picture, pngBlob, sequence, svgText} from './board.js';

// The game file of the moves played (from the engine), with the moves undone after them as its
// `undone:` section; the engine reads the whole text back, so a bad move is named here.
export async function gameText(api, request, undone) {
  let text = (await api('/api/game', request)).text;
  if (undone.length)
    text = text.replace(/\n?$/, '\n') + 'undone:\n' + undone.map((m) => `${m}\n`).join('');
  await api('/api/game', {text});
  return text;
}

export function download(name, type, data) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], {type}));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// The position as an SVG or PNG file.
export async function downloadPosition(geo, pegs, move, format) {
  const svg = picture(geo, pegs, {size: 480, move});
  if (format === 'svg')
    download('pegsol.svg', 'image/svg+xml', svgText(svg));
  else
    download('pegsol.png', 'image/png', await pngBlob(svg));
}

// The whole game (`game`: {moves, title}) as a sequence of small boards, SVG or PNG.
export async function downloadGame(geo, start, game, format) {
  const svg = sequence(geo, start, game.moves, {title: game.title});
  if (format === 'svg')
    download('pegsol-game.svg', 'image/svg+xml', svgText(svg));
  else
    download('pegsol-game.png', 'image/png', await pngBlob(svg));
}

// Fills the print page with the game (a title, a line saying which moves were played and which
// the engine found, then the start and one small board per move) and opens the browser's print.
export function printGame(area, geo, start, game) {
  area.replaceChildren();
  const h = document.createElement('h1');
  h.textContent = game.title;
  const note = document.createElement('p');
  note.textContent = game.note;
  area.append(h, note);
  let pegs = start;
  const fig = (caption, move) => {
    const f = document.createElement('figure');
    f.appendChild(picture(geo, pegs, {size: 150, move}));
    const c = document.createElement('figcaption');
    c.textContent = caption;
    f.appendChild(c);
    area.appendChild(f);
  };
  fig('start');
  game.moves.forEach((m, i) => {
    pegs = apply(pegs, m);
    fig(`${i + 1}. ${path(m).map((x) => geo.names[x]).join('-')}`, m);
  });
  const title = document.title;
  document.title = game.title;
  window.print();
  document.title = title;
}
