// Where everything on the table goes, in pixels: the size of a card, each pile's and
// foundation's box, how far apart a pile's cards fan, and the room where messages appear.
// Cards are sized by the window's width and height both, in whichever of the game's
// arrangements (the server's grids: its own, and any folded one for a wide window) gives
// the biggest cards with every card on the screen and room left for a message beside the
// cards, never over them. Pure: the same window and piles give the same layout.

import type { Grid, Grids } from "./api";

export interface Box { x: number; y: number; w: number; h: number }

export interface Sizes {
  cw: number; // a card's width and height
  ch: number;
  font: number; // its corner index
  cap: number; // the height of a pile's or foundation's caption (its name), and its font
  capFont: number;
  gapX: number;
  gapY: number;
}

export interface Layout {
  sizes: Sizes;
  arrangement: number; // which of the grids
  slots: Map<string, Box>; // "p0", "f2": each pile's and foundation's box, on the table
  steps: Map<number, number>; // how far apart each pile's cards lie
  width: number; // the table's size
  height: number;
  message: Box; // where messages go, on the table's area: no card is there
}

const PAD = 8; // around the table
const MIN_CW = 14;
const MAX_CW = 112;
const SHRINK = 0.7; // the least share of their dealt size cards shrink to as piles grow
const MESSAGE = { w: 170, h: 60 }; // the least room a message needs
const RESERVE = { right: 220, below: 76 }; // the room kept for one where none is left over

export function sizes(cw: number): Sizes {
  const capFont = Math.min(13, Math.max(9, Math.round(cw * 0.17)));
  return {
    cw, ch: Math.round(cw * 1.4), font: Math.max(12, Math.round(cw * 0.28)), capFont, cap: capFont + 5,
    gapX: Math.max(4, Math.round(cw * 0.07)), gapY: Math.max(5, Math.round(cw * 0.08)),
  };
}

// A fan's spacing when there is room (the corner index and a little more), and the least
// that still shows each card's index.
export const easyStep = (s: Sizes) => Math.max(s.font + 6, Math.round(s.ch * 0.25));
export const leastStep = (s: Sizes) => s.font + 4;

export const key = (kind: string, index: number) => `${kind[0] ?? ""}${String(index)}`;

interface Placed { rowTop: number[]; rowH: number[]; width: number; height: number; cellH: Map<string, number> }

// The rows' heights for cards of width ``cw``: each pile's room for its dealt cards at an
// easy fan, and for any more it holds now at the least one.
function place(grid: Grid, s: Sizes, lengths: number[], dealt: number[], squeeze = 1): Placed {
  const rows = Math.max(...grid.cells.map((c) => c.row + c.rows - 1));
  const rowH = new Array<number>(rows + 1).fill(0);
  const need = (kind: string, index: number): number => {
    if (kind === "foundation") return s.cap * 2 + s.ch;
    const d = Math.max(1, dealt[index] ?? 1);
    const n = Math.max(d, lengths[index] ?? 0);
    return s.cap + s.ch + ((d - 1) * easyStep(s) + (n - d) * leastStep(s)) * squeeze;
  };
  for (const c of grid.cells) if (c.rows === 1) rowH[c.row] = Math.max(rowH[c.row] ?? 0, need(c.kind, c.index));
  for (const c of grid.cells) {
    if (c.rows === 1) continue;
    const last = c.row + c.rows - 1;
    let have = (c.rows - 1) * s.gapY;
    for (let r = c.row; r <= last; r++) have += rowH[r] ?? 0;
    const short = need(c.kind, c.index) - have;
    if (short > 0) rowH[last] = (rowH[last] ?? 0) + short;
  }
  const rowTop = new Array<number>(rows + 1).fill(0);
  let y = 0;
  for (let r = 1; r <= rows; r++) { rowTop[r] = y; y += (rowH[r] ?? 0) + s.gapY; }
  const cellH = new Map<string, number>();
  for (const c of grid.cells) {
    const last = c.row + c.rows - 1;
    cellH.set(key(c.kind, c.index), (rowTop[last] ?? 0) + (rowH[last] ?? 0) - (rowTop[c.row] ?? 0));
  }
  return { rowTop, rowH, width: grid.cols * s.cw + (grid.cols - 1) * s.gapX, height: y - s.gapY, cellH };
}

type Reserve = "none" | "right" | "below";

function layoutOf(grid: Grid, index: number, cw: number, area: { w: number; h: number }, lengths: number[],
  dealt: number[], reserve: Reserve, squeeze = 1): Layout {
  const s = sizes(cw);
  const p = place(grid, s, lengths, dealt, squeeze);
  const roomW = area.w - 2 * PAD - (reserve === "right" ? RESERVE.right : 0);
  const x0 = PAD + Math.max(0, Math.floor((roomW - p.width) / 2));
  const y0 = PAD;
  const slots = new Map<string, Box>();
  const steps = new Map<number, number>();
  for (const c of grid.cells) {
    const k = key(c.kind, c.index);
    const h = p.cellH.get(k) ?? s.ch;
    slots.set(k, { x: x0 + (c.col - 1) * (s.cw + s.gapX), y: y0 + (p.rowTop[c.row] ?? 0), w: s.cw, h });
    if (c.kind === "pile") {
      const n = lengths[c.index] ?? 0;
      const room = h - s.cap - s.ch;
      steps.set(c.index, n > 1 ? Math.min(easyStep(s), room / (n - 1)) : easyStep(s));
    }
  }
  const table = { x: x0, y: y0, w: p.width, h: p.height };
  return { sizes: s, arrangement: index, slots, steps, width: p.width, height: p.height,
    message: freeRoom(grid, s, p, table, area) };
}

// The biggest room for a message where no card is: an empty run of a row's cells, or beside
// or below the table.
function freeRoom(grid: Grid, s: Sizes, p: Placed, table: Box, area: { w: number; h: number }): Box {
  const rooms: Box[] = [];
  const below = table.y + table.h + s.gapY;
  rooms.push({ x: PAD, y: below, w: area.w - 2 * PAD, h: area.h - PAD - below });
  const right = table.x + table.w + s.gapX;
  rooms.push({ x: right, y: PAD, w: area.w - PAD - right, h: area.h - 2 * PAD });
  rooms.push({ x: PAD, y: PAD, w: table.x - s.gapX - PAD, h: area.h - 2 * PAD });
  for (let r = 1; r < p.rowH.length; r++) {
    const taken = new Set<number>();
    for (const c of grid.cells) if (c.row <= r && r < c.row + c.rows) taken.add(c.col);
    let run = 0;
    for (let col = 1; col <= grid.cols + 1; col++) {
      if (col <= grid.cols && !taken.has(col)) { run++; continue; }
      if (run) {
        const first = col - run;
        rooms.push({ x: table.x + (first - 1) * (s.cw + s.gapX), y: table.y + (p.rowTop[r] ?? 0),
          w: run * s.cw + (run - 1) * s.gapX, h: p.rowH[r] ?? 0 });
      }
      run = 0;
    }
  }
  const fit = rooms.filter((b) => b.w >= MESSAGE.w && b.h >= MESSAGE.h);
  const best = (fit.length ? fit : rooms).reduce((a, b) => (b.w * b.h > a.w * a.h ? b : a));
  return { x: Math.round(best.x), y: Math.round(best.y), w: Math.max(0, Math.floor(best.w)), h: Math.max(0, Math.floor(best.h)) };
}

const roomy = (l: Layout) => l.message.w >= MESSAGE.w && l.message.h >= MESSAGE.h;

// The layout with the biggest cards that puts every card in ``area`` and leaves room for a
// message; ``lengths``: each pile's cards now. As play lengthens the piles, the cards grow
// smaller, to no less than SHRINK of their size as dealt; past that the fans close up.
export function layout(grids: Grids, area: { w: number; h: number }, lengths: number[]): Layout {
  const dealt = biggest(grids, area, grids.dealt, MIN_CW, 1);
  const least = dealt ? Math.max(MIN_CW, Math.floor(dealt.sizes.cw * SHRINK)) : MIN_CW;
  const grown = biggest(grids, area, lengths, least, 1);
  if (grown) return grown;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 12; i++) {
    const mid = (lo + hi) / 2;
    if (biggest(grids, area, lengths, least, mid, least)) lo = mid; else hi = mid;
  }
  return biggest(grids, area, lengths, least, lo, least)
    ?? layoutOf(grids.arrangements[0], 0, MIN_CW, area, lengths, grids.dealt, "none", 0);
}

// The layout with the biggest cards from ``least`` to ``most`` wide that fits, or null.
function biggest(grids: Grids, area: { w: number; h: number }, lengths: number[], least: number,
  squeeze: number, most = MAX_CW): Layout | null {
  let best: Layout | null = null;
  for (const [index, grid] of grids.arrangements.entries()) {
    for (const reserve of ["none", "right", "below"] as const) {
      const w = area.w - 2 * PAD - (reserve === "right" ? RESERVE.right : 0);
      const h = area.h - 2 * PAD - (reserve === "below" ? RESERVE.below : 0);
      const fits = (cw: number) => {
        const p = place(grid, sizes(cw), lengths, grids.dealt, squeeze);
        return p.width <= w && p.height <= h;
      };
      let lo = least;
      let hi = most;
      if (!fits(lo)) continue;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(mid)) lo = mid; else hi = mid - 1;
      }
      const made = layoutOf(grid, index, lo, area, lengths, grids.dealt, reserve, squeeze);
      if (roomy(made) && (!best || made.sizes.cw > best.sizes.cw)) best = made;
    }
  }
  return best;
}
