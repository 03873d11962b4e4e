// The table: piles and foundations as labelled groups of cards, laid out on the grid the
// server sends, played by drag and drop (Pointer Events: mouse, pen and touch alike), by
// tapping a card then where it goes, by double-tapping a card up to its foundation, and
// from the keyboard (arrows between piles, Enter to pick up and put down, F to send up,
// Escape to put back). The table only proposes moves: the server plays them, or says why not.

import type { BoardData, CardData, Cell } from "./api";

const SUITS = "♣♦♥♠";
const DRAG_PX = 6; // a press that moves less is a tap
const DOUBLE_MS = 350; // two taps on one card within this: up to its foundation

export type Propose = (move: string, dragged: HTMLElement | null) => void;

interface Slot { kind: "pile" | "foundation"; index: number; el: HTMLElement }

export class Table {
  board: BoardData | null = null;
  private slots: Slot[] = [];
  private picked: number | null = null; // the pile whose top card is picked up
  private lastTap = { pile: -1, at: 0 };
  private press: { pile: number; card: HTMLElement; x: number; y: number; id: number; moved: boolean } | null = null;

  constructor(private el: HTMLElement, private propose: Propose, private announce: (text: string) => void) {
    el.addEventListener("pointerdown", (e) => { this.down(e); });
    el.addEventListener("pointermove", (e) => { this.move(e); });
    el.addEventListener("pointerup", (e) => { this.up(e); });
    el.addEventListener("pointercancel", () => { this.cancelDrag(); });
    el.addEventListener("keydown", (e) => { this.key(e); });
  }

  get dragging(): boolean { return this.press !== null; }

  show(board: BoardData): void {
    const focused = document.activeElement as HTMLElement | null;
    const refocus = focused && this.el.contains(focused) ? focused.dataset.slot : undefined;
    this.board = board;
    this.el.dataset.ref = board.ref.join(".");
    this.picked = null;
    this.press = null;
    this.el.style.setProperty("--cols", String(board.grid.cols));
    document.documentElement.style.setProperty("--cols", String(board.grid.cols));
    this.el.classList.toggle("two", !board.fourColour);
    const slots: Slot[] = [];
    const made: HTMLElement[] = [];
    for (const cell of board.grid.cells) {
      const el = this.slotElement(board, cell);
      slots.push({ kind: cell.kind, index: cell.index, el });
      made.push(el);
    }
    // Reading order, as the commands number them: foundations, then piles.
    slots.sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === "foundation" ? -1 : 1));
    made.sort((a, b) => slots.findIndex((s) => s.el === a) - slots.findIndex((s) => s.el === b));
    this.slots = slots;
    this.el.replaceChildren(...made);
    if (refocus) this.el.querySelector<HTMLElement>(`[data-slot="${refocus}"]`)?.focus();
  }

  private slotElement(board: BoardData, cell: Cell): HTMLElement {
    const el = document.createElement("div");
    el.className = `slot ${cell.kind}`;
    el.setAttribute("role", "group");
    el.tabIndex = 0;
    el.dataset.slot = `${cell.kind[0]}${cell.index}`;
    el.style.gridColumn = String(cell.col);
    el.style.gridRow = `${cell.row} / span ${cell.rows}`;
    if (cell.kind === "pile") {
      const pile = sent(board.piles[cell.index], cell);
      el.setAttribute("aria-label", pile.label);
      pile.cards.forEach((card, i) => {
        const c = cardElement(card);
        c.style.top = `calc(${i} * var(--step))`;
        if (i === pile.cards.length - 1 && !board.finished) c.classList.add("top");
        el.append(c);
      });
      el.style.height = `calc(${Math.max(pile.cards.length - 1, 0)} * var(--step) + var(--ch))`;
    } else {
      const f = sent(board.foundations[cell.index], cell);
      el.setAttribute("aria-label", f.label);
      el.dataset.base = f.base;
      for (const card of f.cards) el.append(cardElement(card));
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = `f${cell.index + 1} · ${f.count}/${f.size}`;
      count.setAttribute("aria-hidden", "true");
      el.append(count);
    }
    return el;
  }

  // -- proposing moves ------------------------------------------------------------------

  private moveText(src: number, slot: Slot): string {
    return slot.kind === "foundation" ? `${src + 1} f${slot.index + 1}` : `${src + 1} ${slot.index + 1}`;
  }

  private targets(src: number): Set<string> {
    const mine = (this.board?.moves ?? []).filter((m) => m.split(" ")[0] === String(src + 1));
    return new Set(mine.map((m) => m.split(" ")[1] ?? ""));
  }

  private highlight(src: number | null): void {
    const wanted = src === null ? new Set<string>() : this.targets(src);
    for (const s of this.slots) {
      const name = s.kind === "foundation" ? `f${s.index + 1}` : String(s.index + 1);
      s.el.classList.toggle("target", wanted.has(name));
    }
  }

  private pick(pile: number | null): void {
    for (const c of this.el.querySelectorAll(".picked")) c.classList.remove("picked");
    this.picked = pile;
    this.highlight(pile);
    if (pile === null) return;
    const top = this.topCard(pile);
    top?.classList.add("picked");
    const name = this.board?.piles[pile]?.cards.at(-1)?.name;
    if (name) this.announce(name);
  }

  private topCard(pile: number): HTMLElement | null {
    return this.slotOf("pile", pile)?.el.querySelector(".card.top") ?? null;
  }

  private slotOf(kind: string, index: number): Slot | undefined {
    return this.slots.find((s) => s.kind === kind && s.index === index);
  }

  // A tap (or Enter) on a slot: pick up its top card, or put the picked one there.
  private tap(slot: Slot): void {
    if (this.picked === null) {
      if (slot.kind === "pile" && this.board?.piles[slot.index]?.cards.length) this.pick(slot.index);
      return;
    }
    const src = this.picked;
    this.pick(null);
    if (slot.kind === "pile" && slot.index === src) return; // put back
    this.propose(this.moveText(src, slot), null);
  }

  private toFoundation(pile: number): void {
    this.pick(null);
    this.propose(`${pile + 1} f`, null);
  }

  // -- pointer: drag, tap, double-tap ---------------------------------------------------

  private slotAt(target: EventTarget | null): Slot | undefined {
    const el = target instanceof Element ? target.closest(".slot") : null;
    return this.slots.find((s) => s.el === el);
  }

  private down(e: PointerEvent): void {
    if (e.button !== 0 || this.press) return;
    const card = e.target instanceof Element ? e.target.closest<HTMLElement>(".card.top") : null;
    const slot = this.slotAt(e.target);
    if (!card || slot?.kind !== "pile") return;
    e.preventDefault();
    card.setPointerCapture(e.pointerId);
    this.press = { pile: slot.index, card, x: e.clientX, y: e.clientY, id: e.pointerId, moved: false };
  }

  private move(e: PointerEvent): void {
    const p = this.press;
    if (e.pointerId !== p?.id) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (!p.moved && Math.hypot(dx, dy) < DRAG_PX) return;
    if (!p.moved) {
      p.moved = true;
      this.pick(null);
      p.card.classList.add("dragging");
      this.highlight(p.pile);
    }
    p.card.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  private up(e: PointerEvent): void {
    const p = this.press;
    if (p?.moved && e.pointerId === p.id) {
      this.press = null;
      this.highlight(null);
      const slot = this.slotAt(document.elementFromPoint(e.clientX, e.clientY));
      if (!slot || (slot.kind === "pile" && slot.index === p.pile)) springBack(p.card);
      else this.propose(this.moveText(p.pile, slot), p.card);
      return;
    }
    this.press = null;
    const slot = this.slotAt(e.target);
    if (!slot) { this.pick(null); return; }
    const now = e.timeStamp;
    if (slot.kind === "pile" && this.lastTap.pile === slot.index && now - this.lastTap.at < DOUBLE_MS) {
      this.lastTap = { pile: -1, at: 0 };
      this.toFoundation(slot.index);
      return;
    }
    this.lastTap = { pile: slot.kind === "pile" ? slot.index : -1, at: now };
    this.tap(slot);
  }

  private cancelDrag(): void {
    if (this.press?.moved) springBack(this.press.card);
    this.press = null;
    this.highlight(null);
  }

  // -- keyboard -------------------------------------------------------------------------

  private key(e: KeyboardEvent): void {
    const slot = this.slotAt(e.target);
    if (!slot) return;
    const at = this.slots.indexOf(slot);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (step !== undefined) {
      this.slots[(at + step + this.slots.length) % this.slots.length]?.el.focus();
    } else if (e.key === "Enter" || e.key === " ") {
      this.tap(slot);
    } else if (e.key === "Escape") {
      this.pick(null);
    } else if ((e.key === "f" || e.key === "F") && slot.kind === "pile") {
      this.toFoundation(slot.index);
    } else {
      return;
    }
    e.preventDefault();
  }
}

export function springBack(card: HTMLElement): void {
  card.classList.remove("dragging");
  card.classList.add("back");
  card.style.transform = "";
  card.addEventListener("transitionend", () => { card.classList.remove("back"); }, { once: true });
}

// The pile or foundation a cell of the grid names: a board whose grid names one it lacks
// is not drawn (it is no board the server makes).
function sent<T>(slot: T | undefined, cell: Cell): T {
  if (slot === undefined) throw new Error(`the board has no ${cell.kind} ${cell.index + 1}`);
  return slot;
}

function cardElement(card: CardData): HTMLElement {
  const el = document.createElement("div");
  el.className = `card c${card.suit}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", card.name);
  el.dataset.code = card.code;
  const suit = SUITS.charAt(card.suit);
  const index = document.createElement("span");
  index.textContent = card.rank + suit;
  index.setAttribute("aria-hidden", "true");
  const big = document.createElement("span");
  big.className = "big";
  big.textContent = suit;
  big.setAttribute("aria-hidden", "true");
  el.append(index, big);
  return el;
}
