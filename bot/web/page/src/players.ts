// Who is at the Activity's table (the socket's {"table"} pushes): a list named "Players"
// above the cards, each item with the player's avatar (their initials where they have
// none, as dev users do), naming the player and their cards home ("Player 2 · 12/52"),
// then their moves; another player's item opens their table to watch, unless their boards
// are private (then it says so when the pointer rests on it). It shows only at a table (a page playing alone has none), telling the
// table's layout when it appears or goes, as the cards must then fit the room left. The
// page's own player comes first, marked, always in view on a narrow screen; the others
// follow in the order they sat down. Beside them, the button that starts a race of the game
// picked above ("Race"), or, while one counts down that the player is not in, the one that
// joins it ("Join race"); and Discord's invite, where there is one.

import type { PageWords, TableData, TablePlayer } from "./page.gen";

export type PlayersWords = Pick<PageWords, "players" | "noGameYet" | "moveOne" | "moveOther" | "you" | "watch" | "privateBoards" | "invite" | "race" | "joinRace">;

// What the race buttons do: start one, join the one counting down (by its id).
export interface Racing { start: () => void; join: (race: string) => void }

export class Players {
  private shown = false;

  // ``watch``: open a player's table, to watch (their name with it); ``racing``: start and
  // join races; ``invite``: open Discord's invite to the Activity (null: none here).
  constructor(private el: HTMLElement, private words: PlayersWords, private language: string,
    private resized: () => void, private watch: (id: string, name: string) => void,
    private racing: Racing, private invite: (() => void) | null = null) {}

  show(table: TableData): void {
    // A row wider than the window scrolls sideways: from the keyboard too, once focused.
    this.el.setAttribute("aria-label", this.words.players);
    const list = document.createElement("ul");
    list.setAttribute("aria-label", this.words.players);
    const mine = table.players.filter((p) => p.id === table.you); // first: always in view
    const others = table.players.filter((p) => p.id !== table.you);
    list.append(...[...mine, ...others].map((p) => this.item(p, p.id === table.you)));
    this.el.replaceChildren(list);
    const race = table.race;
    if (race === null || race.status === "over") {
      this.el.append(button("race", this.words.race, () => { this.racing.start(); }));
    } else if (race.status === "counting" && !race.racers.some((r) => r.id === table.you)) {
      this.el.append(button("race join", this.words.joinRace, () => { this.racing.join(race.id); }));
    }
    if (this.invite) {
      const invite = this.invite;
      this.el.append(button("invite", this.words.invite, () => { invite(); }));
    }
    if (!this.shown) {
      this.shown = true;
      this.el.hidden = false;
      this.resized();
    }
  }

  // No longer at a table (refused one: the page plays alone).
  hide(): void {
    if (!this.shown) return;
    this.shown = false;
    this.el.hidden = true;
    this.el.replaceChildren();
    this.resized();
  }

  private item(p: TablePlayer, you: boolean): HTMLLIElement {
    const li = document.createElement("li");
    li.dataset.player = p.id;
    if (you) li.classList.add("you");
    if (p.won) li.classList.add("won");
    else if (p.finished) li.classList.add("over");
    const face = document.createElement("span");
    face.className = "face";
    face.setAttribute("aria-hidden", "true");
    face.textContent = initial(p.name);
    face.style.backgroundColor = `hsl(${String(hue(p.id))} 55% 28%)`; // (white on it: 4.5:1 at least)
    if (p.avatar !== null) avatar(face, p.id, p.avatar);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = p.game === null ? `${p.name} · ${this.words.noGameYet}`
      : `${p.name} · ${String(p.home)}/${String(p.cards)}`;
    const parts: HTMLElement[] = [face, who];
    if (p.game !== null) {
      const moves = document.createElement("span");
      moves.className = "moves";
      moves.textContent = this.moves(p.moves);
      parts.push(moves);
    }
    if (you) {
      li.title = this.words.you;
      li.append(...parts);
    } else if (p.private || p.game === null) { // nothing to watch: their progress only
      if (p.private) li.title = this.words.privateBoards;
      li.append(...parts);
    } else {
      const open = document.createElement("button");
      open.type = "button";
      open.className = "watch";
      open.title = this.words.watch;
      open.append(...parts);
      open.addEventListener("click", () => { this.watch(p.id, p.name); });
      li.append(open);
    }
    return li;
  }

  private moves(count: number): string {
    const one = new Intl.PluralRules(this.language).select(count) === "one";
    const number = new Intl.NumberFormat(this.language).format(count);
    return (one ? this.words.moveOne : this.words.moveOther).replace("{count}", number);
  }
}

// The player's Discord avatar over their badge, from Discord's CDN (as Discord's own
// Activity examples load it); their initials stay beneath while it loads, or if it fails.
function avatar(face: HTMLElement, id: string, hash: string): void {
  const img = document.createElement("img");
  img.alt = "";
  img.width = img.height = 22;
  img.decoding = "async";
  img.src = `https://cdn.discordapp.com/avatars/${id}/${hash}.png?size=64`; // (still, even an animated one's)
  img.addEventListener("error", () => { img.remove(); });
  face.append(img);
}

function button(kind: string, label: string, pressed: () => void): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = kind;
  b.textContent = label;
  b.addEventListener("click", pressed);
  return b;
}

// A name's initials for its badge: its first letter (a whole character, an emoji too), and
// its last word's first where it has several ("Player 12": "P1", "Ada Lovelace": "AL").
function initial(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const first = (w: string | undefined) => (w === undefined ? "" : Array.from(w)[0] ?? "");
  const letters = first(words[0]) + (words.length > 1 ? first(words[words.length - 1]) : "");
  return letters.toUpperCase() || "?";
}

// A colour of the player's own, the same on every page: their id, hashed (FNV-1a), turned
// by the golden angle, so that ids close together get colours far apart.
function hue(id: string): number {
  let h = 2166136261;
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return Math.round((h % 1000) * 137.508) % 360;
}
