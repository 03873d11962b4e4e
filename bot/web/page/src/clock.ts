// The time a game has been played on this page, paused while the page is hidden and once
// the game is over; and the hints asked for it here. Kept in this browser by the game's
// row, so a reload goes on where it was.

const KEPT = "solitaire.played."; // + the game's row: {"ms": played, "hints": asked}

interface Played { ms: number; hints: number }

export function clockText(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, "0");
  return h ? `${String(h)}:${two(m)}:${two(s % 60)}` : `${String(m)}:${two(s % 60)}`;
}

export class Clock {
  private row: number | null = null;
  private played: Played = { ms: 0, hints: 0 };
  private since: number | null = null; // when the running stretch began
  private over = false;
  private ticking = 0;

  constructor(private el: HTMLElement) {
    document.addEventListener("visibilitychange", () => { this.run(); });
  }

  // The game shown now: its row, and whether it is over.
  follow(row: number, over: boolean): void {
    if (row !== this.row) {
      this.stop();
      this.row = row;
      this.played = read(row);
    }
    this.over = over;
    this.run();
  }

  hinted(): void {
    this.played.hints += 1;
    this.save();
  }

  get ms(): number { return this.played.ms + (this.since === null ? 0 : Date.now() - this.since); }
  get hints(): number { return this.played.hints; }

  private run(): void {
    const going = this.row !== null && !this.over && !document.hidden;
    if (going && this.since === null) {
      this.since = Date.now();
      clearInterval(this.ticking); // each second counted from the start of the stretch
      this.ticking = window.setInterval(() => { this.tick(); }, 1000);
    }
    if (!going) this.stop();
    this.show();
  }

  private stop(): void {
    clearInterval(this.ticking);
    if (this.since !== null) {
      this.played.ms += Date.now() - this.since;
      this.since = null;
      this.save();
    }
  }

  private tick(): void {
    if (this.since === null) return;
    this.show();
    this.save();
  }

  private show(): void {
    this.el.textContent = this.row === null ? "" : clockText(this.ms);
  }

  private save(): void {
    if (this.row === null) return;
    try {
      localStorage.setItem(KEPT + String(this.row), JSON.stringify({ ms: this.ms, hints: this.hints }));
    } catch { /* a browser that keeps nothing: the clock starts again on a reload */ }
  }
}

function read(row: number): Played {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT + String(row)) ?? "null") as Record<string, unknown> | null;
    const number = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
    return { ms: number(kept?.ms), hints: number(kept?.hints) };
  } catch {
    return { ms: 0, hints: 0 };
  }
}
