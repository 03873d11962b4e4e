// Cards that move: each card glides from where it was to where it lands (a quarter of a
// second), several going up one after another, a redeal gathering the cards and dealing
// them again, a new deal dealt from one point; a win celebrated by the foundations' cards.
// None of it where the device asks for reduced motion, or where the player turned it off
// (the page's own setting, kept in this browser).

const KEPT = "solitaire.motion"; // "off" where the player turned it off
const CARD_MS = 250;
const EASE = "cubic-bezier(.2,.75,.3,1)";

const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

export const motion = {
  get reduced(): boolean { return reduced(); },
  get chosen(): boolean { return localStorage.getItem(KEPT) !== "off"; },
  set chosen(on: boolean) { if (on) localStorage.removeItem(KEPT); else localStorage.setItem(KEPT, "off"); },
  get on(): boolean { return !reduced() && this.chosen; },
};

// Where each card was, before the table is drawn anew: on the screen, and in which pile or
// foundation (its element's ``data-at``: "p3.2", the third card of the fourth pile).
export type Before = Map<HTMLElement, { rect: DOMRect; slot: string }>;

const slotOf = (el: HTMLElement) => (el.dataset.at ?? "").split(".")[0] ?? "";

export function where(cards: Iterable<HTMLElement>): Before {
  const at: Before = new Map();
  for (const el of cards) at.set(el, { rect: el.getBoundingClientRect(), slot: slotOf(el) });
  return at;
}

// A card that moved: by how far; whether it went up to a foundation, and whether it
// changed places (else the table was laid out anew around it).
export interface Flight { el: HTMLElement; dx: number; dy: number; up: boolean; moved: boolean; order: number }

// The cards that moved, by how far: a card drawn where it lies now, shown first where it was.
export function flights(before: Before, cards: Iterable<HTMLElement>, order: (el: HTMLElement) => number): Flight[] {
  const moved: Flight[] = [];
  for (const el of cards) {
    const was = before.get(el);
    if (!was) continue;
    const now = el.getBoundingClientRect();
    const dx = was.rect.left - now.left;
    const dy = was.rect.top - now.top;
    if (Math.abs(dx) + Math.abs(dy) < 1) continue;
    moved.push({ el, dx, dy, up: el.closest(".foundation") !== null, moved: was.slot !== slotOf(el), order: order(el) });
  }
  return moved;
}

function lift(el: HTMLElement, animation: Animation): void {
  el.classList.add("flying");
  const done = () => { el.classList.remove("flying"); };
  animation.addEventListener("finish", done);
  animation.addEventListener("cancel", done);
}

// Glide every moved card into place: one or two together; more up to the foundations one
// after another; a redeal (many cards moving between piles) gathered at ``centre`` and
// dealt out again.
export function glide(moved: Flight[], centre: { x: number; y: number }): void {
  if (!motion.on || !moved.length) return;
  const between = moved.filter((f) => !f.up && f.moved);
  const up = moved.filter((f) => f.up && f.moved).sort((a, b) => a.order - b.order);
  const around = moved.filter((f) => !f.moved); // laid out anew: each glides alone
  around.forEach((f) => { fly(f, 0); });
  if (between.length > 4) { gather(between, centre); return; }
  const apart = up.length > 1 ? Math.min(90, 1200 / up.length) : 0;
  between.forEach((f) => { fly(f, 0); });
  up.forEach((f, i) => { fly(f, i * apart); });
}

function fly(f: Flight, delay: number): void {
  const a = f.el.animate([{ transform: `translate(${String(f.dx)}px, ${String(f.dy)}px)` }, { transform: "none" }],
    { duration: CARD_MS, delay, easing: EASE, fill: "backwards" });
  lift(f.el, a);
}

function gather(moved: Flight[], centre: { x: number; y: number }): void {
  const sorted = [...moved].sort((a, b) => a.order - b.order);
  const apart = Math.min(14, 700 / sorted.length);
  sorted.forEach((f, i) => {
    const now = f.el.getBoundingClientRect();
    const gx = centre.x - now.left - now.width / 2;
    const gy = centre.y - now.top - now.height / 2;
    const a = f.el.animate([
      { transform: `translate(${String(f.dx)}px, ${String(f.dy)}px)` },
      { transform: `translate(${String(gx)}px, ${String(gy)}px)`, offset: 0.45 },
      { transform: "none" },
    ], { duration: CARD_MS * 2.4, delay: i * apart, easing: "ease-in-out", fill: "backwards" });
    lift(f.el, a);
  });
}

// A new deal: each card dealt from ``from`` to its place, one after another.
export function deal(cards: HTMLElement[], from: { x: number; y: number }): void {
  if (!motion.on) return;
  const apart = Math.min(12, 600 / Math.max(cards.length, 1));
  cards.forEach((el, i) => {
    const now = el.getBoundingClientRect();
    const a = el.animate([
      { transform: `translate(${String(from.x - now.left)}px, ${String(from.y - now.top)}px)`, opacity: 0 },
      { transform: "none", opacity: 1 },
    ], { duration: CARD_MS, delay: i * apart, easing: EASE, fill: "backwards" });
    lift(el, a);
  });
}

// A won game: the foundations' top cards leap in turn.
export function celebrate(tops: HTMLElement[]): void {
  if (!motion.on) return;
  tops.forEach((el, i) => {
    el.animate([
      { transform: "none" }, { transform: "translateY(-22%) rotate(-8deg) scale(1.08)", offset: 0.4 }, { transform: "none" },
    ], { duration: 700, delay: 150 * i, iterations: 3, easing: "ease-in-out" });
  });
}

// A refused drop: the card goes back to where it was picked up.
export function springBack(card: HTMLElement): void {
  card.classList.remove("dragging");
  const moved = card.style.transform;
  card.style.transform = "";
  if (!motion.on || !moved) return;
  card.animate([{ transform: moved }, { transform: "none" }], { duration: 180, easing: "ease-out" });
}
