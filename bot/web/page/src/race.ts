// The table's race (the socket's {"table"} pushes carry it): one row under the players,
// saying how it stands — counting down to its deal, under way with the time left, or over
// with who won — then its racers, best first, each with how their game stands (a racer
// still playing: their cards home, as the players' row shows them). The time left is the
// server's: each push says the server's time, so the page's own clock need not agree.
// The buttons that start and join a race are in the players' row (players.ts).

import { clockText } from "./clock";
import type { PageWords, TableData, TablePlayer, TableRace, TableRacer } from "./page.gen";

export type RaceWords = Pick<PageWords, "raceStarts" | "raceJoined" | "raceRunning" | "raceOver" |
  "raceWins" | "raceTie" | "raceNobody" | "racerWon" | "racerWonHints" | "racerLost" | "racerResigned" |
  "racerLeft" | "racerPlaying" | "racerUnfinished" | "moveOne" | "moveOther" | "players">;

export class RacePanel {
  private race: TableRace | null = null;
  private players = new Map<string, TablePlayer>();
  private you = "";
  private aheadS = 0; // the server's clock less the page's
  private timer = 0;
  private line: HTMLElement | null = null;

  constructor(private el: HTMLElement, private words: RaceWords, private language: string,
    private gameName: (id: string) => string, private resized: () => void) {}

  show(table: TableData): void {
    const had = this.race !== null;
    this.race = table.race;
    this.you = table.you;
    this.aheadS = table.now - Date.now() / 1000;
    this.players = new Map(table.players.map((p) => [p.id, p]));
    clearInterval(this.timer);
    if (this.race === null) { this.hide(had); return; }
    this.render(this.race);
    if (this.race.status !== "over") this.timer = window.setInterval(() => { this.tick(); }, 1000);
    if (!had) { this.el.hidden = false; this.resized(); }
  }

  // No race at the table (or no table): the row goes.
  hide(had = this.race !== null): void {
    this.race = null;
    clearInterval(this.timer);
    this.el.replaceChildren();
    this.el.hidden = true;
    if (had) this.resized();
  }

  // Whether the page's own player races in the race under way.
  racing(): boolean {
    return this.race !== null && this.race.status !== "over" && this.race.racers.some((r) => r.id === this.you);
  }

  private render(race: TableRace): void {
    this.el.setAttribute("aria-label", this.status(race));
    const line = document.createElement("span");
    line.className = "line";
    line.textContent = this.status(race);
    this.line = line;
    const list = document.createElement("ol");
    list.setAttribute("aria-label", this.words.players);
    list.append(...race.racers.map((r) => this.item(r, race)));
    this.el.replaceChildren(line, list);
  }

  // Once a second while it counts down or runs: the time left, anew.
  private tick(): void {
    if (this.race && this.line) this.line.textContent = this.status(this.race);
  }

  private status(race: TableRace): string {
    const game = this.gameName(race.game);
    const now = Date.now() / 1000 + this.aheadS;
    if (race.status === "counting") {
      const seconds = String(Math.max(0, Math.ceil(race.startsAt - now)));
      if (race.racers.some((r) => r.id === this.you)) return fill(this.words.raceJoined, { game, seconds });
      const by = race.racers.find((r) => r.id === race.by)?.name ?? "";
      return fill(this.words.raceStarts, { name: by, game, seconds });
    }
    if (race.status === "running") {
      return fill(this.words.raceRunning, { game, time: clockText(Math.max(0, (race.endsAt ?? now) - now) * 1000) });
    }
    const winner = race.racers.find((r) => r.id === race.winner);
    const end = winner ? fill(this.words.raceWins, { name: winner.name })
      : race.racers.some((r) => r.outcome === "won") ? this.words.raceTie : this.words.raceNobody;
    return `${fill(this.words.raceOver, { game })} · ${end}`;
  }

  private item(r: TableRacer, race: TableRace): HTMLLIElement {
    const li = document.createElement("li");
    li.dataset.racer = r.id;
    if (r.id === this.you) li.classList.add("you");
    if (r.outcome === "won") li.classList.add("won");
    else if (r.outcome !== null) li.classList.add("over");
    li.textContent = `${r.name} · ${this.how(r, race)}`;
    return li;
  }

  private how(r: TableRacer, race: TableRace): string {
    if (r.outcome === "won") {
      const said = r.hints > 0 ? this.words.racerWonHints : this.words.racerWon;
      return fill(said, { moves: this.moves(r.moves ?? 0), time: clockText((r.seconds ?? 0) * 1000) });
    }
    if (r.outcome === "lost") return this.words.racerLost;
    if (r.outcome === "resigned") return this.words.racerResigned;
    if (r.outcome === "abandoned") return this.words.racerLeft;
    if (race.status === "over") return this.words.racerUnfinished;
    const p = this.players.get(r.id);
    if (race.status === "running" && p?.game === race.game) return `${String(p.home)}/${String(p.cards)}`;
    return this.words.racerPlaying;
  }

  private moves(count: number): string {
    const one = new Intl.PluralRules(this.language).select(count) === "one";
    const number = new Intl.NumberFormat(this.language).format(count);
    return (one ? this.words.moveOne : this.words.moveOther).replace("{count}", number);
  }
}

// A text with its {facts} filled in.
function fill(text: string, facts: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/gu, (whole, name: string) => facts[name] ?? whole);
}
