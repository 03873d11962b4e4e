// The table: piles and foundations as labelled groups of cards, each named on the table as
// hints and refusals name it, laid out to fit the window (layout.ts), played by drag and
// drop (Pointer Events: mouse, pen and touch alike), by tapping a card then where it goes,
// by double-tapping a card up to its foundation, and from the keyboard (arrows between
// piles, Enter to pick up and put down, F to send up, Escape to put back). A picked card
// lights every place it can go; a hint lights its card and where it goes. Each card is one
// element from board to board, so a card that moves glides from where it was (motion.ts).
// The table only proposes moves: the server plays them, or says why not.

import type { BoardData, CardData, Cell, HintData } from "./api";
import { key, layout, type Box, type Layout } from "./layout";
import { celebrate, deal, flights, glide, springBack, where } from "./motion";

const SUITS = "♣♦♥♠";
const DRAG_PX = 6; // a press that moves less is a tap
const DOUBLE_MS = 350; // two taps on one card within this: up to its foundation

export type Propose = (move: string, dragged: HTMLElement | null) => void;

interface Slot { kind: "pile" | "foundation"; index: number; el: HTMLElement; base: HTMLElement; cap: HTMLElement; count: HTMLElement | null }

export class Table {
  board: BoardData | null = null;
  laid: Layout | null = null;
  private watched = false; // another player's table, watched: nothing is proposed on it
  private slots: Slot[] = [];
  private cards: HTMLElement[] = [];
  private picked: number | null = null; // the pile whose top card is picked up
  private lastTap = { pile: -1, at: 0 };
  private press: { pile: number; card: HTMLElement; x: number; y: number; id: number; moved: boolean } | null = null;

  constructor(private el: HTMLElement, private propose: Propose, private announce: (text: string) => void,
    private laidOut: (l: Layout) => void) {
    el.addEventListener("pointerdown", (e) => { this.down(e); });
    el.addEventListener("pointermove", (e) => { this.move(e); });
    el.addEventListener("pointerup", (e) => { this.up(e); });
    el.addEventListener("pointercancel", () => { this.cancelDrag(); });
    el.addEventListener("keydown", (e) => { this.key(e); });
  }

  get dragging(): boolean { return this.press !== null; }

  // Whether the table shows another player's game, to watch only (no card is picked up).
  get readOnly(): boolean { return this.watched; }
  set readOnly(on: boolean) {
    this.watched = on;
    this.el.classList.toggle("watching", on);
    this.pick(null);
    this.press = null;
  }

  // The board as it now is; each card that moved glides there from where it was.
  show(board: BoardData): void {
    const focused = document.activeElement as HTMLElement | null;
    const refocus = focused && this.el.contains(focused) ? focused.dataset.slot : undefined;
    const before = where(this.cards);
    const first = this.board === null;
    const dealt = !first && (this.board?.ref[0] !== board.ref[0] || this.board.game !== board.game);
    const wasWon = this.board ? won(this.board) : true;
    this.board = board;
    this.el.dataset.ref = board.ref.join(".");
    this.el.dataset.game = board.game;
    this.picked = null;
    this.press = null;
    this.el.classList.toggle("two", !board.fourColour);
    this.el.classList.toggle("finished", board.finished);
    this.build(board);
    this.lay();
    if (refocus) this.el.querySelector<HTMLElement>(`[data-slot="${refocus}"]`)?.focus();
    const box = this.el.getBoundingClientRect();
    if (dealt) {
      deal(this.cards.filter((c) => !c.closest(".foundation")), { x: box.left + box.width / 2, y: box.top });
    } else {
      const order = (c: HTMLElement) => Number(c.dataset.order ?? 0);
      glide(flights(before, this.cards, order), { x: box.left + box.width / 2, y: box.top + box.height / 3 });
    }
    if (won(board) && !wasWon && !dealt && !first) celebrate(this.foundationTops());
  }

  // No board any more (the game was forgotten elsewhere): an empty table.
  clear(): void {
    this.board = null;
    this.picked = null;
    this.press = null;
    this.slots = [];
    this.cards = [];
    delete this.el.dataset.ref;
    delete this.el.dataset.game;
    this.el.replaceChildren();
  }

  foundationTops(): HTMLElement[] {
    return this.slots.filter((s) => s.kind === "foundation")
      .map((s) => [...s.el.querySelectorAll<HTMLElement>(".card")].at(-1))
      .filter((c): c is HTMLElement => c !== undefined);
  }

  // Where the empty piles are (a won game's): the box its celebration is shown in.
  pilesBox(): Box | null {
    const boxes = this.slots.filter((s) => s.kind === "pile").map((s) => s.el.getBoundingClientRect());
    if (!boxes.length) return null;
    const x = Math.min(...boxes.map((b) => b.left));
    const y = Math.min(...boxes.map((b) => b.top));
    return { x, y, w: Math.max(...boxes.map((b) => b.right)) - x, h: Math.max(...boxes.map((b) => b.bottom)) - y };
  }

  // -- drawing ----------------------------------------------------------------------------

  // The slots and cards of ``board``: each card element kept where its card was, so that
  // it can glide (of two alike, in Corner Stones' two decks, the one in the same place).
  private build(board: BoardData): void {
    const cells = board.grids.arrangements[0].cells;
    const kept = new Map(this.slots.map((s) => [key(s.kind, s.index), s]));
    const slots: Slot[] = [];
    for (const cell of [...cells].sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === "foundation" ? -1 : 1))) {
      slots.push(kept.get(key(cell.kind, cell.index)) ?? this.slotElement(cell));
    }
    this.slots = slots;
    this.el.replaceChildren(...slots.map((s) => s.el));
    const old = new Map<string, { el: HTMLElement; at: string }[]>();
    for (const c of this.cards) {
      const code = c.dataset.code ?? "";
      old.set(code, [...(old.get(code) ?? []), { el: c, at: c.dataset.at ?? "" }]);
    }
    const wanted: { slot: Slot; i: number; card: CardData; at: string; top: boolean; el?: HTMLElement | undefined }[] = [];
    for (const s of slots) {
      const pile = s.kind === "pile" ? sent(board.piles[s.index], s) : null;
      const f = s.kind === "foundation" ? sent(board.foundations[s.index], s) : null;
      const cards = pile?.cards ?? f?.cards ?? [];
      cards.forEach((card, i) => {
        wanted.push({ slot: s, i, card, at: `${key(s.kind, s.index)}.${String(i)}`, top: i === cards.length - 1 });
      });
      this.label(s, board);
    }
    for (const pass of [true, false]) {
      for (const w of wanted) {
        if (w.el) continue;
        const same = old.get(w.card.code) ?? [];
        const i = pass ? same.findIndex((o) => o.at === w.at) : same.length ? 0 : -1;
        if (i >= 0) w.el = same.splice(i, 1)[0]?.el;
      }
    }
    const made: HTMLElement[] = [];
    wanted.forEach((w, order) => {
      const c = w.el ?? cardElement(w.card);
      c.dataset.at = w.at;
      c.dataset.order = String(w.slot.kind === "foundation" ? 1000 + order : order);
      c.style.transform = "";
      c.classList.remove("dragging", "picked", "lit", "hint-from", "hint-to");
      c.classList.toggle("top", w.top && w.slot.kind === "pile" && !board.finished);
      const hidden = w.slot.kind === "foundation" && !w.top;
      if (hidden) c.setAttribute("aria-hidden", "true"); else c.removeAttribute("aria-hidden");
      w.slot.el.insertBefore(c, w.slot.count);
      made.push(c);
    });
    for (const left of old.values()) for (const o of left) o.el.remove();
    this.cards = made;
  }

  private label(s: Slot, board: BoardData): void {
    s.el.classList.remove("target", "hint-to");
    s.base.classList.remove("lit", "hint-to");
    if (s.kind === "pile") {
      const pile = sent(board.piles[s.index], s);
      s.el.setAttribute("aria-label", pile.label);
      s.cap.textContent = pile.name;
    } else {
      const f = sent(board.foundations[s.index], s);
      s.el.setAttribute("aria-label", f.label);
      s.cap.textContent = f.name;
      s.base.textContent = f.base;
      if (s.count) s.count.textContent = `${String(f.count)}/${String(f.size)}`;
    }
  }

  private slotElement(cell: Cell): Slot {
    const el = document.createElement("div");
    el.className = `slot ${cell.kind}`;
    el.setAttribute("role", "group");
    el.tabIndex = 0;
    el.dataset.slot = key(cell.kind, cell.index);
    const cap = document.createElement("span");
    cap.className = "cap";
    cap.setAttribute("aria-hidden", "true");
    const base = document.createElement("div");
    base.className = "base";
    base.setAttribute("aria-hidden", "true");
    el.append(cap, base);
    let count: HTMLElement | null = null;
    if (cell.kind === "foundation") {
      count = document.createElement("span");
      count.className = "count";
      count.setAttribute("aria-hidden", "true");
      el.append(count);
    }
    return { kind: cell.kind, index: cell.index, el, base, cap, count };
  }

  // Lay the table out in the window it has now (again after a resize: no card moves then).
  lay(): void {
    const board = this.board;
    if (!board) return;
    const top = this.el.getBoundingClientRect().top;
    const area = { w: document.documentElement.clientWidth, h: window.innerHeight - top };
    const l = layout(board.grids, area, board.piles.map((p) => p.cards.length));
    this.laid = l;
    const s = l.sizes;
    const vars: Record<string, number> = { cw: s.cw, ch: s.ch, font: s.font, cap: s.cap, capFont: s.capFont };
    for (const [name, px] of Object.entries(vars)) this.el.style.setProperty(`--${name}`, `${String(px)}px`);
    this.el.style.height = `${String(Math.max(0, Math.floor(area.h)))}px`;
    const cells = board.grids.arrangements[l.arrangement]?.cells ?? [];
    for (const slot of this.slots) {
      const box = l.slots.get(key(slot.kind, slot.index));
      const cell = cells.find((c) => c.kind === slot.kind && c.index === slot.index);
      if (!box || !cell) continue;
      Object.assign(slot.el.style, { left: `${String(box.x)}px`, top: `${String(box.y)}px`, width: `${String(box.w)}px`, height: `${String(box.h)}px` });
      const step = slot.kind === "pile" ? l.steps.get(slot.index) ?? 0 : 0;
      [...slot.el.querySelectorAll<HTMLElement>(".card")].forEach((c, i) => {
        c.style.top = `${String(s.cap + i * step)}px`;
        c.style.zIndex = String(i + 1);
      });
    }
    this.laidOut(l);
  }

  // -- lighting ---------------------------------------------------------------------------

  private topOf(slot: Slot): HTMLElement {
    return [...slot.el.querySelectorAll<HTMLElement>(".card")].at(-1) ?? slot.base;
  }

  private targets(src: number): Set<string> {
    const mine = (this.board?.moves ?? []).filter((m) => m.split(" ")[0] === String(src + 1));
    return new Set(mine.map((m) => m.split(" ")[1] ?? ""));
  }

  private moveName(slot: Slot): string {
    return slot.kind === "foundation" ? `f${String(slot.index + 1)}` : String(slot.index + 1);
  }

  // Every place the card on pile ``src`` can go lights, whatever lies there.
  private highlight(src: number | null): void {
    const wanted = src === null ? new Set<string>() : this.targets(src);
    for (const s of this.slots) {
      const on = wanted.has(this.moveName(s));
      s.el.classList.toggle("target", on);
      for (const c of s.el.querySelectorAll(".lit")) c.classList.remove("lit");
      if (on) this.topOf(s).classList.add("lit");
    }
  }

  // A hint's move lit: its card, and where it goes.
  hint(h: HintData | null): void {
    for (const c of this.el.querySelectorAll(".hint-from, .hint-to")) c.classList.remove("hint-from", "hint-to");
    if (!h || !("move" in h)) return;
    const [src, dst] = h.move.split(" ");
    const from = this.slots.find((s) => s.kind === "pile" && String(s.index + 1) === src);
    const to = this.slots.find((s) => this.moveName(s) === dst);
    if (from) this.topOf(from).classList.add("hint-from");
    if (to) this.topOf(to).classList.add("hint-to");
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

  // -- proposing moves ------------------------------------------------------------------

  private moveText(src: number, slot: Slot): string {
    return `${String(src + 1)} ${this.moveName(slot)}`;
  }

  // A tap (or Enter) on a slot: pick up its top card, or put the picked one there.
  private tap(slot: Slot): void {
    if (this.picked === null) {
      if (slot.kind === "pile" && this.board?.piles[slot.index]?.cards.length && !this.board.finished) this.pick(slot.index);
      return;
    }
    const src = this.picked;
    this.pick(null);
    if (slot.kind === "pile" && slot.index === src) return; // put back
    this.propose(this.moveText(src, slot), null);
  }

  private toFoundation(pile: number): void {
    this.pick(null);
    this.propose(`${String(pile + 1)} f`, null);
  }

  // -- pointer: drag, tap, double-tap ---------------------------------------------------

  private slotAt(target: EventTarget | null): Slot | undefined {
    const el = target instanceof Element ? target.closest(".slot") : null;
    return this.slots.find((s) => s.el === el);
  }

  private down(e: PointerEvent): void {
    if (e.button !== 0 || this.press || this.watched) return;
    const card = e.target instanceof Element ? e.target.closest<HTMLElement>(".card.top") : null;
    const slot = this.slotAt(e.target);
    if (!card || slot?.kind !== "pile") return;
    e.preventDefault();
    for (const a of card.getAnimations()) a.finish();
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
    p.card.style.transform = `translate(${String(dx)}px, ${String(dy)}px)`;
  }

  private up(e: PointerEvent): void {
    const p = this.press;
    if (p?.moved && e.pointerId === p.id) {
      this.press = null;
      this.highlight(null);
      const slot = this.slotAt(document.elementFromPoint(e.clientX, e.clientY));
      if (!slot || (slot.kind === "pile" && slot.index === p.pile)) this.dropped(p.card, null);
      else this.dropped(p.card, this.moveText(p.pile, slot));
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

  private dropped(card: HTMLElement, move: string | null): void {
    if (move === null) springBack(card); // put back where it was
    else this.propose(move, card);
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
    } else if (this.watched) {
      return; // (only looked at: moving between places is all the keys do)
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

// Every card is on a foundation.
export function won(board: BoardData): boolean {
  return board.finished && board.piles.every((p) => p.cards.length === 0);
}

// The pile or foundation a slot names: a board that lacks one its grid names is not drawn
// (it is no board the server makes).
function sent<T>(slot: T | undefined, s: { kind: string; index: number }): T {
  if (slot === undefined) throw new Error(`the board has no ${s.kind} ${String(s.index + 1)}`);
  return slot;
}

function cardElement(card: CardData): HTMLElement {
  const el = document.createElement("div");
  el.className = `card c${String(card.suit)}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", card.name);
  el.dataset.code = card.code;
  const suit = SUITS.charAt(card.suit);
  const index = document.createElement("span");
  index.className = "index";
  index.textContent = card.rank + suit;
  index.setAttribute("aria-hidden", "true");
  const big = document.createElement("span");
  big.className = "big";
  big.textContent = suit;
  big.setAttribute("aria-hidden", "true");
  el.append(index, big);
  return el;
}
