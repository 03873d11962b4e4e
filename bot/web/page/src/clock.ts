// The time a game has been played and the hints asked for it, as the server counts them
// for its result: each board brings both, and the clock goes on from there while the page
// is shown and the game is not over (paused while the page is hidden); a hint answered
// since the board counts at once.

export function clockText(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, "0");
  return h ? `${String(h)}:${two(m)}:${two(s % 60)}` : `${String(m)}:${two(s % 60)}`;
}

export interface Played { seconds: number; hints: number }

export class Clock {
  private board: string | null = null; // the board on the table: "row:revision"
  private base = 0; // ms played as the last board had it, and since then while shown
  private asked = 0; // the hints, likewise
  private since: number | null = null; // when the running stretch began
  private over = false;
  private ticking = 0;

  constructor(private el: HTMLElement) {
    document.addEventListener("visibilitychange", () => { this.run(); });
  }

  // The board shown now (its game's row and revision): what it says was played, and
  // whether the game is over. The same board again (a refused move shows it anew) leaves
  // the clock going on from where it is.
  follow(ref: readonly [number, number], played: Played, over: boolean): void {
    const key = ref.join(":");
    if (key === this.board) {
      this.asked = Math.max(this.asked, played.hints);
    } else {
      this.stop();
      this.board = key;
      this.base = played.seconds * 1000;
      this.asked = played.hints;
    }
    this.over = over;
    this.run();
  }

  // No board any more: nothing to count.
  clear(): void {
    this.stop();
    this.board = null;
    this.show();
  }

  hinted(): void {
    this.asked += 1;
  }

  get ms(): number { return this.base + (this.since === null ? 0 : Date.now() - this.since); }
  get hints(): number { return this.asked; }

  private run(): void {
    const going = this.board !== null && !this.over && !document.hidden;
    if (going && this.since === null) {
      this.since = Date.now();
      clearInterval(this.ticking); // each second counted from the start of the stretch
      this.ticking = window.setInterval(() => { this.show(); }, 1000);
    }
    if (!going) this.stop();
    this.show();
  }

  private stop(): void {
    clearInterval(this.ticking);
    if (this.since !== null) {
      this.base += Date.now() - this.since;
      this.since = null;
    }
  }

  private show(): void {
    this.el.textContent = this.board !== null ? clockText(this.ms) : "";
  }
}
