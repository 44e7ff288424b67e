// SPDX-License-Identifier: MIT
// Text helpers of the page: HTML escaping, numbers with thousands separators, plurals.

// The text made safe inside HTML.
export const esc = (s) => String(s).replace(
    /[&<>"]/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'})[c]);

// The browser's thousands separator (a comma in English).
const GROUP =
    new Intl.NumberFormat().formatToParts(1000).find((p) => p.type === 'group')?.value ?? ',';

// A count with thousands separators: a number or a string of digits (the API writes counts past
// 2^53 as strings); anything else as it is, null as a dash.
export function fmt(n) {
  if (n === null || n === undefined) return '—';
  const s = String(n);
  const m = s.match(/^(-?)(\d+)(\.\d+)?$/);
  if (!m) return s;
  return m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, GROUP) + (m[3] ?? '');
}

// "1 move", "2 moves" (the count with thousands separators).
export const plural = (n, word) => `${fmt(n)} ${word}${Number(n) === 1 ? '' : 's'}`;
