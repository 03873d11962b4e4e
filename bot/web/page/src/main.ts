// The Activity's page: signs the player in (through Discord's SDK, or in dev mode as the
// user the URL names), then shows their one saved game and sends what they do to the
// server, which plays it with the engine and answers with the board as it now is. A socket
// (live.ts) brings the board whenever the game changes elsewhere: a slash command, the
// console, another of the player's pages, the solver finding no win possible.

import { DiscordSDK } from "@discord/embedded-app-sdk";
import { ask, Offline, pageId, SignedOut, type BoardData, type ButtonData, type HintData, type PageWords, type Pushed, type ReplyData, type SettingData, type SignedIn, type Unchanged } from "./api";
import { Clock, clockText } from "./clock";
import type { Layout } from "./layout";
import { motion, springBack } from "./motion";
import { Live, type Shows } from "./live";
import { Players } from "./players";
import { RacePanel } from "./race";
import { Table, won } from "./table";
import { lines, pieces, type ButtonPiece, type CopyWords, type Said } from "./words";

const MAX_DEAL = 2147483647;
const CATCH_UP_MS = 300; // a board pushed during a drag is shown once the drag is over
const SELECT_ARROW_PX = 30; // a list's padding and its arrow
const SAY_MS = { least: 5000, most: 15000, perChar: 55 }; // how long a message stays

// How the page signs in, the Activity's instance it is at (null: none, it plays alone),
// what Discord shows of the player meanwhile (their rich presence), Discord's invite to
// the Activity, and a picture shared as a moment in Discord (null: neither here).
interface Platform {
  signIn(): Promise<SignedIn>;
  instance(): string | null;
  present(p: Presence): void;
  invite(): (() => Promise<void>) | null;
  share(): ((picture: File) => Promise<void>) | null;
}

// The player's rich presence: their game and its cards home, and how many are at the table.
interface Presence { details: string; state: string; party: number }

// Inside Discord: the SDK's handshake, its OAuth2 code exchanged by our server (the client
// secret never reaches the page), then the SDK told who signed in. The server the Activity
// was opened in (null in a DM) counts the player's games there once Discord says they are in it.
class InDiscord implements Platform {
  private sdk: DiscordSDK | null = null;
  private accessToken = "";
  private presented = "";
  constructor(private clientId: string) {}
  instance(): string | null { return this.sdk?.instanceId ?? null; }

  // Sent when it changes; Discord may refuse it (an older client): the game goes on.
  present(p: Presence): void {
    const sdk = this.sdk;
    const said = JSON.stringify(p);
    if (!sdk || said === this.presented) return;
    this.presented = said;
    sdk.commands.setActivity({ activity: { type: 0, details: p.details, state: p.state,
      party: { id: sdk.instanceId, size: [p.party, p.party] } } }).catch(() => undefined);
  }

  // Only in a server's channel: Discord opens no invite in a DM.
  invite(): (() => Promise<void>) | null {
    const sdk = this.sdk;
    if (sdk?.guildId == null) return null; // (no SDK yet, or a DM)
    return async () => { await sdk.commands.openInviteDialog(); };
  }

  // The picture uploaded to Discord's CDN with the player's token (the attachment endpoint
  // the SDK documents), then Discord's client asked to share it: it refuses where it cannot
  // (an older client), and the page says so.
  share(): ((picture: File) => Promise<void>) | null {
    const sdk = this.sdk;
    if (!sdk || !this.accessToken) return null;
    return async (picture) => {
      const body = new FormData();
      body.append("file", picture);
      const response = await fetch(`https://discord.com/api/applications/${this.clientId}/attachment`,
        { method: "POST", headers: { Authorization: `Bearer ${this.accessToken}` }, body });
      if (!response.ok) throw new Error(`the upload was refused: ${String(response.status)}`);
      const uploaded = (await response.json()) as { attachment?: { url?: string } };
      const mediaUrl = uploaded.attachment?.url;
      if (!mediaUrl) throw new Error("the upload gave no address");
      await sdk.commands.openShareMomentDialog({ mediaUrl });
    };
  }

  async signIn(): Promise<SignedIn> {
    const sdk = new DiscordSDK(this.clientId);
    this.sdk = sdk;
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: this.clientId, response_type: "code", state: "", prompt: "none",
      scope: ["identify", "rpc.activities.write"], // (who plays; their rich presence)
    });
    const signed = await ask<SignedIn>("api/signin", { code, guild: sdk.guildId });
    this.accessToken = signed.access_token ?? "";
    await sdk.commands.authenticate({ access_token: this.accessToken });
    return signed;
  }
}

// The stand-in for the SDK, outside Discord: the server signs in the user the URL names,
// and only in dev mode (`solitaire-bot --web --dev`), at the table the URL names if any
// (`?instance=`: several tabs make one table).
class Dev implements Platform {
  constructor(private user: string, private locale: string, private guild: string | null,
    private at: string | null) {}
  instance(): string | null { return this.at; }
  present(): void { /* no Discord to show it */ }
  invite(): null { return null; }
  share(): null { return null; }
  signIn(): Promise<SignedIn> {
    return ask<SignedIn>("api/dev/signin", { user: this.user, locale: this.locale, guild: this.guild });
  }
}

// The page's own elements (index.html has each, of the kind named).
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the kind
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

// The board's headline, above the table; while there is no board (no game yet, or not
// signed in yet), the page's name: the page always has its heading, never an empty one.
function headline(parts: Node[], title: string | undefined): void {
  const h = $("headline");
  if (parts.length) h.replaceChildren(...parts);
  else h.textContent = title ?? document.title;
}

// What api/board answers: the board, or that nothing changed since the one the page has.
type BoardAnswer = ReplyData | Unchanged;

// What a request was for, where its answer is shown differently.
type Asked = "play" | "hint" | "rules" | "settings";

class Page {
  private session = "";
  private table: Table;
  private clock: Clock;
  private busy = false;
  private words: Partial<PageWords> = {}; // none until signed in
  private noGame: Said = []; // what the page says before there is a game (the sign-in's)
  private sayTimer = 0;
  private sayMs = 0;
  private pending: Pushed | null = null; // pushed while a move was under way: shown after it
  private players: Players | null = null; // who is at the Activity's table (once signed in)
  private race: RacePanel | null = null; // the table's race, if any (once signed in)
  private gameNames: SignedIn["games"] = {};
  private atTable = 0; // how many are at the table (0: none, the page plays alone)
  private watching: Live | null = null; // another player's table, watched on a socket of its own

  constructor(private platform: Platform) {
    this.table = new Table($("table"), (move, dragged) => { this.act("move", move, dragged); },
      (t) => { this.say([[{ t: "text", text: t }]]); }, (l) => { this.placed(l); });
    this.clock = new Clock($("clock"));
    $("new").addEventListener("click", () => { void this.send("api/new", { game: this.game() }); });
    $("daily").addEventListener("click", () => { void this.send("api/daily", { game: this.game() }); });
    $("game").addEventListener("change", () => { fitTexts(); });
    $("more").addEventListener("click", () => { $<HTMLDialogElement>("deals").showModal(); });
    $("gear").addEventListener("click", () => { void this.openSettings(); });
    $("winnable").addEventListener("click", () => { this.closeDialogs(); void this.send("api/new", { game: this.game(), winnable: true }); });
    $("deal-it").addEventListener("click", () => { this.dealNumber(); });
    $("deal-number").addEventListener("keydown", (e) => { if (e.key === "Enter") this.dealNumber(); });
    for (const b of document.querySelectorAll(".close-dialog")) b.addEventListener("click", () => { this.closeDialogs(); });
    $("close").addEventListener("click", () => { this.unsay(); });
    $("back").addEventListener("click", () => { this.backToMine(); });
    const say = $("say");
    say.addEventListener("pointerenter", () => { this.holdSay(); });
    say.addEventListener("pointerleave", () => { this.letSayGo(); });
    say.addEventListener("focusin", () => { this.holdSay(); });
    say.addEventListener("focusout", () => { this.letSayGo(); });
    document.addEventListener("keydown", (e) => { this.shortcut(e); });
    let queued = 0;
    window.addEventListener("resize", () => {
      cancelAnimationFrame(queued);
      queued = requestAnimationFrame(() => { fitTexts(); this.table.lay(); });
    });
  }

  async start(): Promise<void> {
    try {
      const signed = await this.platform.signIn();
      this.session = signed.session;
      this.words = signed.words;
      this.noGame = signed.start;
      this.gameNames = signed.games;
      document.documentElement.lang = signed.language;
      this.dealing(signed.games, signed.words);
      this.take(await ask<BoardAnswer>("api/board", undefined, this.session));
      const invite = this.platform.invite();
      const instance = this.platform.instance();
      this.players = new Players($("players"), signed.words, signed.language, () => { this.table.lay(); },
        (id, name) => { this.watch(id, name); },
        { start: () => { void this.racing("api/race", { instance, game: this.game() }); },
          join: (race) => { void this.racing("api/race/join", { instance, race }); } },
        invite && (() => { invite().catch(() => { this.say([[{ t: "text", text: signed.words.inviteFailed }]]); }); }));
      this.race = new RacePanel($("race"), signed.words, signed.language, (id) => this.gameNames[id] ?? id,
        () => { this.table.lay(); });
      new Live(this.session, this.platform.instance(), () => this.shows(), (p) => { this.pushed(p); },
        () => { this.failed(new SignedOut()); }, () => { this.notSeated(); }).connect();
    } catch (err) {
      this.failed(err);
    }
  }

  private dealing(games: SignedIn["games"], words: PageWords): void {
    const select = $<HTMLSelectElement>("game");
    select.setAttribute("aria-label", words.game);
    select.replaceChildren(...Object.entries(games).map(([id, name]) => new Option(name, id)));
    if (!this.table.board) headline([], words.title);
    $("new").textContent = words.newDeal;
    $("daily").textContent = words.daily;
    named($("more"), words.deals);
    named($("gear"), words.settings);
    $("deals-title").textContent = words.deals;
    $("winnable").textContent = words.winnable;
    $("deal-number-label").textContent = words.dealNumber;
    $("deal-it").textContent = words.dealIt;
    $("settings-title").textContent = words.settings;
    $("clock").setAttribute("aria-label", words.timePlayed);
    $("back").textContent = words.backToMine;
    named($("close"), words.close);
    for (const b of document.querySelectorAll(".close-dialog")) b.textContent = words.close;
    for (const id of ["new", "daily", "more", "gear"]) $<HTMLButtonElement>(id).disabled = false;
    fitTexts();
  }

  private game(): string { return $<HTMLSelectElement>("game").value; }

  private dealNumber(): void {
    const box = $<HTMLInputElement>("deal-number");
    const deal = Number(box.value);
    if (!Number.isInteger(deal) || deal < 1 || deal > MAX_DEAL) { box.focus(); box.select(); return; }
    this.closeDialogs();
    void this.send("api/new", { game: this.game(), deal });
  }

  private closeDialogs(): void {
    for (const d of document.querySelectorAll("dialog")) if (d.open) d.close();
  }

  private act(action: string, move?: string, dragged: HTMLElement | null = null): void {
    if (this.watching) return; // (a table watched is only looked at)
    const seen = this.table.board?.ref;
    void this.send("api/act", { action, move, seen }, dragged, action === "hint" ? "hint" : "play");
  }

  // A race started or joined: what the server says of it (the race itself comes on the
  // socket, with the table; the deal, as the player's own board, when it begins).
  private async racing(path: string, body: object): Promise<void> {
    try {
      this.take(await ask<ReplyData>(path, body, this.session));
    } catch (err) {
      this.failed(err);
    }
  }

  private async send(path: string, body: object, dragged: HTMLElement | null = null, asked: Asked = "play"): Promise<ReplyData | null> {
    if (this.stopWatching()) this.table.clear(); // (a deal or a setting: back to the own table)
    this.busy = true;
    try {
      const reply = await ask<ReplyData>(path, body, this.session);
      if (reply.refused && dragged) springBack(dragged);
      this.take(reply, asked);
      return reply;
    } catch (err) {
      if (dragged) springBack(dragged);
      this.failed(err);
      return null;
    } finally {
      this.busy = false;
      this.catchUp();
    }
  }

  // What the table shows, for the socket: the server pushes nothing the page has.
  private shows(): Shows {
    const board = this.table.board;
    return { have: board ? board.ref : null, lost: board?.lost ?? false, fourColour: board?.fourColour ?? false };
  }

  // The game changed elsewhere: shown at once, unless a move or a drag is under way (then
  // once it is over, if still news).
  private pushed(p: Pushed): void {
    if ("table" in p) { // (never held back: no cards move)
      this.players?.show(p.table);
      this.race?.show(p.table);
      this.atTable = p.table.players.length;
      this.present();
      return;
    }
    if (this.watching) return; // (the own game is asked for again when back to it)
    if (this.busy || this.table.dragging) {
      this.pending = p;
      window.setTimeout(() => { this.catchUp(); }, CATCH_UP_MS); // (a drag may end in nothing)
      return;
    }
    const held = this.table.board;
    if ("noGame" in p) {
      if (held) { this.clearTable(); this.say(this.noGame); }
      return;
    }
    if (held && !news(p.board, held)) return;
    const newly = p.board.lost && !(held?.lost && held.ref.join() === p.board.ref.join());
    // A game dealt elsewhere (a race's deal, another page's): what was said before is old.
    if (held?.ref[0] !== p.board.ref[0]) this.unsay();
    this.showBoard(p.board);
    if (newly) this.say(p.board.text.slice(1));
  }

  // What Discord shows of the player: the game on the page's own table and how far it has
  // got, and whether at a table.
  private present(): void {
    const board = this.table.board;
    if (!board || this.watching || !this.words.presence) return;
    const home = board.foundations.reduce((n, f) => n + f.count, 0);
    const cards = board.piles.reduce((n, p) => n + p.cards.length, home);
    this.platform.present({
      details: this.words.presence.replace("{game}", this.gameNames[board.game] ?? board.game)
        .replace("{home}", String(home)).replace("{cards}", String(cards)),
      state: (this.atTable > 1 ? this.words.presenceTable : this.words.presenceAlone) ?? "",
      party: Math.max(1, this.atTable),
    });
  }

  // The server would not seat the page at the table it named: it plays alone.
  private notSeated(): void {
    this.atTable = 0;
    this.stopWatching();
    this.players?.hide();
    this.race?.hide();
    if (this.words.notSeated) this.say([[{ t: "text", text: this.words.notSeated }]]);
  }

  // Another player's table, to watch: their board shown on the table, read-only, moving as
  // they play, the page's tools put away for a way back to its own game.
  private watch(id: string, name: string): void {
    this.stopWatching();
    this.unsay();
    this.table.readOnly = true;
    $("tools").hidden = true;
    $("watching-words").textContent = (this.words.watching ?? "{name}").replace("{name}", name);
    $("watching").hidden = false;
    this.watching = new Live(this.session, this.platform.instance(), () => ({ have: null, lost: false, fourColour: false }),
      (p) => { if ("board" in p) this.showWatched(p.board); },
      () => { this.failed(new SignedOut()); },
      () => { this.backToMine(this.words.watchEnded); },
      id);
    this.watching.connect();
    this.table.lay();
  }

  private showWatched(board: BoardData): void {
    this.table.show(board);
    headline(pieces(board.text[0] ?? [], () => undefined, this.copyWords()), this.words.title);
    this.clock.follow(board.ref, board.played, board.finished);
    fitTexts();
    this.table.lay();
  }

  private stopWatching(): boolean {
    if (!this.watching) return false;
    this.watching.close();
    this.watching = null;
    this.table.readOnly = false;
    $("watching").hidden = true;
    $("tools").hidden = false;
    return true;
  }

  // Back from a table watched to the page's own game, as it now is; ``why``: what to say
  // once it is shown (the game watched can no longer be).
  private backToMine(why?: string): void {
    if (!this.stopWatching()) return;
    this.pending = null;
    this.table.clear();
    this.table.lay();
    void (async () => {
      try {
        this.take(await ask<BoardAnswer>("api/board", undefined, this.session));
        if (why) this.say([[{ t: "text", text: why }]]);
      } catch (err) {
        this.failed(err);
      }
    })();
  }

  private catchUp(): void {
    const p = this.pending;
    this.pending = null;
    if (p) this.pushed(p);
  }

  private take(reply: BoardAnswer, asked: Asked = "play"): void {
    if ("same" in reply) return; // (api/board's answer when nothing changed: nothing to show)
    if (reply.board) this.showBoard(reply.board);
    if (reply.noGame) { this.say(this.noGame); return; } // the page's own buttons deal
    this.hint(reply.hint);
    if (asked === "hint" && !reply.refused) this.clock.hinted();
    const question = reply.message?.question ?? null;
    if (question && reply.message) { this.askYesNo(reply.message.text, question); return; }
    if (asked === "rules" && reply.message) { this.document(reply.message.text); return; }
    const said: Said = [];
    if (reply.board && !won(reply.board)) said.push(...reply.board.text.slice(1));
    if (reply.message && asked !== "settings") said.push(...reply.message.text);
    if (reply.note) said.push(...reply.note);
    if (said.length) this.say(said);
  }

  // The hint's card and where it goes lit on the table (or its button in the tool bar);
  // its words, which say both, are said as any note is.
  private hint(hint: HintData | null): void {
    this.table.hint(hint);
    for (const b of document.querySelectorAll("#tools .hinted")) b.classList.remove("hinted");
    if (hint && "action" in hint) document.querySelector(`#tools [data-action="${hint.action}"]`)?.classList.add("hinted");
  }

  // The one way a board reaches the table, whether answered or pushed.
  private showBoard(board: BoardData): void {
    this.table.show(board);
    this.present();
    const select = $<HTMLSelectElement>("game");
    if (document.activeElement !== select) select.value = board.game;
    headline(pieces(board.text[0] ?? [], (b) => { this.press(b); }, this.copyWords()), this.words.title);
    this.tools(board.buttons);
    this.clock.follow(board.ref, board.played, board.finished);
    this.celebration(board);
    fitTexts();
    this.table.lay();
  }

  // The game shown is gone (forgotten elsewhere): an empty table, as before the first deal.
  private clearTable(): void {
    this.table.clear();
    this.clock.clear();
    this.hint(null);
    headline([], this.words.title);
    $("won").hidden = true;
    const bar = $("tools");
    bar.replaceChildren();
    bar.classList.add("idle");
  }

  // A won game celebrated on the table, where its piles were: what the server says of it,
  // the time it took and the hints asked, and the buttons that deal again.
  private celebration(board: BoardData): void {
    const panel = $("won");
    if (!won(board)) { panel.hidden = true; return; }
    const facts = document.createElement("p");
    facts.className = "facts";
    const fact = (name: string | undefined, value: string) => {
      const b = document.createElement("span");
      b.textContent = `${name ?? ""} ${value}`;
      return b;
    };
    facts.append(fact(this.words.time, clockText(this.clock.ms)), fact(this.words.hints, String(this.clock.hints)));
    const again = document.createElement("p");
    for (const [action, label] of [["new", this.words.newDeal], ["daily", this.words.daily]] as const) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label ?? action;
      b.addEventListener("click", () => { void this.send(`api/${action}`, { game: board.game }); });
      again.append(b);
    }
    const share = this.platform.share();
    if (share) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "share";
      b.textContent = this.words.share ?? "Share";
      b.addEventListener("click", () => { void this.shareWin(share, b); });
      again.append(b);
    }
    $("won-words").replaceChildren(...lines(board.text.slice(1), (b) => { this.press(b); }, this.copyWords()), facts, again);
    panel.hidden = false;
  }

  // The game just won, as its replay (the server draws it), shared as a moment in Discord.
  private async shareWin(share: (picture: File) => Promise<void>, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      const response = await fetch("api/replay", { method: "POST",
        headers: { Authorization: `Bearer ${this.session}`, "X-Page": pageId } });
      if (response.status === 401) throw new SignedOut();
      if (!response.ok) throw new Offline();
      if (response.headers.get("Content-Type")?.startsWith("application/json")) {
        this.take((await response.json()) as ReplyData); // (why there is nothing to share now)
        return;
      }
      const name = /filename="([^"]+)"/u.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "replay.gif";
      await share(new File([await response.blob()], name, { type: "image/gif" }));
    } catch (err) {
      if (err instanceof SignedOut || err instanceof Offline) this.failed(err);
      else this.say([[{ t: "text", text: this.words.shareFailed ?? "" }]]);
    } finally {
      button.disabled = false;
    }
  }

  // The table is laid out: messages go where no card is, the celebration over the piles.
  private placed(l: Layout): void {
    const top = $("table").getBoundingClientRect().top;
    const say = $("say");
    Object.assign(say.style, { left: `${String(l.message.x)}px`, top: `${String(top + l.message.y)}px`,
      width: `${String(l.message.w)}px`, maxHeight: `${String(l.message.h)}px` });
    const piles = this.table.pilesBox();
    const panel = $("won");
    if (piles) Object.assign(panel.style, { left: `${String(piles.x)}px`, top: `${String(piles.y)}px`, width: `${String(piles.w)}px`, maxHeight: `${String(piles.h)}px` });
  }

  // The tool bar: the board's buttons the server sends, in its order (its table of player
  // actions says which); made anew only when they change, so a pressed one keeps its focus.
  private tools(buttons: ButtonData[]): void {
    const bar = $("tools");
    bar.classList.remove("idle"); // its place kept, unseen, until there is a game
    let made = [...bar.querySelectorAll<HTMLButtonElement>("button")];
    if (made.map((b) => b.dataset.action).join() !== buttons.map((d) => d.action).join()) {
      made = buttons.map((d) => {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.action = d.action;
        b.addEventListener("click", () => { this.act(d.action); });
        return b;
      });
      bar.replaceChildren(...made);
    }
    buttons.forEach((d, i) => {
      const b = made[i];
      if (b) { b.textContent = d.label; b.disabled = !d.enabled; }
    });
  }

  // A message, where no card is; it goes by itself (not while the pointer or focus is on it).
  private say(said: Said): void {
    if (!said.length) return;
    $("words").replaceChildren(...lines(said, (b) => { this.press(b); }, this.copyWords()));
    $("say").hidden = false;
    const chars = $("words").textContent.length;
    this.sayMs = Math.min(SAY_MS.most, Math.max(SAY_MS.least, chars * SAY_MS.perChar));
    this.letSayGo();
  }

  private unsay(): void {
    clearTimeout(this.sayTimer);
    $("say").hidden = true;
  }

  private holdSay(): void { clearTimeout(this.sayTimer); }

  private letSayGo(): void {
    clearTimeout(this.sayTimer);
    if ($("say").contains(document.activeElement) && document.activeElement !== document.body) return;
    this.sayTimer = window.setTimeout(() => { this.unsay(); }, this.sayMs);
  }

  // A yes or no the server asks (a new game over an unfinished one): the player answers.
  private askYesNo(text: Said, question: NonNullable<ReplyData["message"]>["question"] & object): void {
    const dialog = $<HTMLDialogElement>("ask");
    $("ask-words").replaceChildren(...lines(text, (b) => { this.press(b); }, this.copyWords()));
    const answers = $("answers");
    answers.replaceChildren();
    for (const [label, yes] of [[question.yes, true], [question.no, false]] as const) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.addEventListener("click", () => {
        dialog.close();
        void this.send("api/answer", { ask: question.ask, args: question.args, yes });
      });
      answers.append(b);
    }
    this.closeDialogs();
    dialog.showModal();
    (answers.firstElementChild as HTMLElement).focus();
  }

  // A text to read (the rules): in a box of its own, until closed.
  private document(text: Said): void {
    $("rules-words").replaceChildren(...lines(text, (b) => { this.closeDialogs(); this.press(b); }, this.copyWords()));
    $<HTMLDialogElement>("rules").showModal();
  }

  // The player's settings, the same as /settings, and the page's own (motion).
  private async openSettings(): Promise<void> {
    const reply = await this.send("api/settings", {}, null, "settings");
    if (!reply?.settings) return;
    this.settings(reply.settings);
    $<HTMLDialogElement>("settings").showModal();
  }

  private settings(list: SettingData[]): void {
    const box = $("setting-list");
    const row = (label: string, on: boolean, change: (on: boolean) => void, note?: string) => {
      const l = document.createElement("label");
      const c = document.createElement("input");
      c.type = "checkbox";
      c.checked = on;
      c.disabled = note !== undefined;
      c.addEventListener("change", () => { change(c.checked); });
      l.append(c, document.createTextNode(label));
      if (note !== undefined) {
        const s = document.createElement("small");
        s.textContent = note;
        l.append(s);
      }
      return l;
    };
    const server = list.map((s) => {
      const l = row(s.label, s.on, (on) => { void this.change(s.name, on); });
      l.dataset.setting = s.name;
      return l;
    });
    const moving = row(this.words.motion ?? "Motion", motion.on, (on) => { motion.chosen = on; },
      motion.reduced ? this.words.reducedMotion ?? "" : undefined);
    moving.dataset.setting = "motion";
    box.replaceChildren(...server, moving);
  }

  private async change(name: string, on: boolean): Promise<void> {
    const reply = await this.send("api/settings", { [name]: on }, null, "settings");
    if (reply?.settings) this.settings(reply.settings);
    if (name === "four_colour") await this.reload();
  }

  // A button in what the server said: the same as the page's own button of that name.
  private press(b: ButtonPiece): void {
    const game = b.game ?? this.game();
    if (b.action === "new") void this.send("api/new", b.deal === undefined ? { game } : { game, deal: b.deal });
    else if (b.action === "daily") void this.send("api/daily", { game });
    else if (b.action === "rules") void this.send("api/rules", { game }, null, "rules");
    else if (b.action === "show") void this.reload();
    else this.act(b.action);
  }

  private async reload(): Promise<void> {
    try {
      this.take(await ask<BoardAnswer>("api/board", undefined, this.session));
    } catch (err) {
      this.failed(err);
    }
  }

  private copyWords(): CopyWords {
    return { copy: this.words.copy ?? "Copy", copied: this.words.copied ?? "Copied" };
  }

  private failed(err: unknown): void {
    const text = err instanceof SignedOut ? this.words.signedOut ?? "Signed out: open the Activity again."
      : err instanceof Offline ? this.words.offline ?? "The server cannot be reached."
      : String(err instanceof Error ? err.message : err);
    this.say([[{ t: "text", text }]]);
  }

  private shortcut(e: KeyboardEvent): void {
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    const z = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z";
    if (z && !e.shiftKey) this.act("undo");
    else if ((z && e.shiftKey) || ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y")) this.act("redo");
    else return;
    e.preventDefault();
  }
}

// Whether a pushed board is news to the page holding ``held``: a later game or position, or
// the same one with a verdict or a deck of its own.
function news(board: BoardData, held: BoardData): boolean {
  const [row, revision] = board.ref;
  const [heldRow, heldRevision] = held.ref;
  if (row !== heldRow) return row > heldRow; // (rows grow: a later game has a larger one)
  if (revision !== heldRevision) return revision > heldRevision;
  return board.lost !== held.lost || board.fourColour !== held.fourColour;
}

// A button shown by a sign alone: its words for a screen reader and the pointer's rest.
function named(b: HTMLElement, words: string): void {
  b.setAttribute("aria-label", words);
  b.title = words;
}

// Words that do not fit their box are set smaller until they do (in any language); a
// list's chosen line must leave room for its arrow.
function fitTexts(): void {
  const ruler = document.createElement("canvas").getContext("2d");
  for (const el of document.querySelectorAll<HTMLElement>("header button, header select, #headline")) {
    el.style.fontSize = "";
    const style = getComputedStyle(el);
    let size = parseFloat(style.fontSize);
    const over = (): boolean => {
      if (el instanceof HTMLSelectElement) {
        if (!ruler) return false;
        ruler.font = `${String(size)}px ${style.fontFamily}`;
        const chosen = el.selectedOptions[0]?.text ?? "";
        return ruler.measureText(chosen).width > el.clientWidth - SELECT_ARROW_PX;
      }
      return el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5;
    };
    while (over() && size > 9) {
      size -= 0.5;
      el.style.fontSize = `${String(size)}px`;
    }
  }
}

function platform(): Platform {
  const query = new URLSearchParams(location.search);
  const devUser = query.get("dev_user");
  const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
  if (devUser !== null) {
    return new Dev(devUser, query.get("locale") ?? navigator.language, query.get("guild"),
      query.get("instance"));
  }
  return new InDiscord(meta("client-id"));
}

void new Page(platform()).start();
