// The Activity's page: signs the player in (through Discord's SDK, or in dev mode as the
// user the URL names), then shows their one saved game and sends what they do to the
// server, which plays it with the engine and answers with the board as it now is.

import { DiscordSDK } from "@discord/embedded-app-sdk";
import { ask, Offline, SignedOut, type BoardData, type ButtonData, type PageWords, type ReplyData, type SignedIn, type Unchanged } from "./api";
import { springBack, Table } from "./table";
import { lines, pieces, type ButtonPiece, type CopyWords, type Said } from "./words";

const POLL_MS = 3000; // how often the page asks whether the game moved elsewhere (a slash command)

interface Platform { signIn(): Promise<SignedIn> }

// Inside Discord: the SDK's handshake, its OAuth2 code exchanged by our server (the client
// secret never reaches the page), then the SDK told who signed in. The server the Activity
// was opened in (null in a DM) counts the player's games there once Discord says they are in it.
class InDiscord implements Platform {
  constructor(private clientId: string) {}
  async signIn(): Promise<SignedIn> {
    const sdk = new DiscordSDK(this.clientId);
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: this.clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    const signed = await ask<SignedIn>("api/signin", { code, guild: sdk.guildId });
    await sdk.commands.authenticate({ access_token: signed.access_token ?? "" });
    return signed;
  }
}

// The stand-in for the SDK, outside Discord: the server signs in the user the URL names,
// and only in dev mode (`solitaire-bot --web --dev`).
class Dev implements Platform {
  constructor(private user: string, private locale: string, private guild: string | null) {}
  signIn(): Promise<SignedIn> {
    return ask<SignedIn>("api/dev/signin", { user: this.user, locale: this.locale, guild: this.guild });
  }
}

// The page's own elements (index.html has each, of the kind named).
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the kind
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

// What api/board answers: the board, or that nothing changed since the one the page has.
type BoardAnswer = ReplyData | Unchanged;

class Page {
  private session = "";
  private table: Table;
  private busy = false;
  private words: Partial<PageWords> = {}; // none until signed in
  private noGame: Said = []; // what the page says before there is a game (the sign-in's)

  constructor(private platform: Platform) {
    this.table = new Table($("table"), (move, dragged) => { this.act("move", move, dragged); }, (t) => { this.say([[{ t: "text", text: t }]], true); });
    $("new").addEventListener("click", () => { void this.send("api/new", { game: this.game() }); });
    $("daily").addEventListener("click", () => { void this.send("api/daily", { game: this.game() }); });
    $("close").addEventListener("click", () => { $("say").hidden = true; });
    document.addEventListener("keydown", (e) => { this.shortcut(e); });
  }

  async start(): Promise<void> {
    try {
      const signed = await this.platform.signIn();
      this.session = signed.session;
      this.words = signed.words;
      this.noGame = signed.start;
      document.documentElement.lang = signed.language;
      this.dealing(signed.games, signed.words);
      this.take(await ask<BoardAnswer>("api/board", undefined, this.session));
      setInterval(() => this.poll(), POLL_MS);
    } catch (err) {
      this.failed(err);
    }
  }

  private dealing(games: SignedIn["games"], words: PageWords): void {
    const select = $<HTMLSelectElement>("game");
    select.setAttribute("aria-label", words.game);
    select.replaceChildren(...Object.entries(games).map(([id, name]) => new Option(name, id)));
    $("new").textContent = words.newDeal;
    $("daily").textContent = words.daily;
    $<HTMLButtonElement>("new").disabled = $<HTMLButtonElement>("daily").disabled = false;
  }

  private game(): string { return $<HTMLSelectElement>("game").value; }

  private act(action: string, move?: string, dragged: HTMLElement | null = null): void {
    const seen = this.table.board?.ref;
    void this.send("api/act", { action, move, seen }, dragged);
  }

  private async send(path: string, body: object, dragged: HTMLElement | null = null): Promise<void> {
    this.busy = true;
    try {
      const reply = await ask<ReplyData>(path, body, this.session);
      if (reply.refused && dragged) springBack(dragged);
      this.take(reply);
    } catch (err) {
      if (dragged) springBack(dragged);
      this.failed(err);
    } finally {
      this.busy = false;
    }
  }

  // A slash command may have moved the game, or the solver found no win possible after a
  // move (its verdict is not awaited): the server answers "same" until either happened.
  private async poll(): Promise<void> {
    const board = this.table.board;
    if (this.busy || this.table.dragging || document.hidden) return;
    try {
      const have = board ? `?have=${board.ref[0]}.${board.ref[1]}${board.lost ? "&lost=1" : ""}` : "";
      const reply = await ask<BoardAnswer>(`api/board${have}`, undefined, this.session);
      // A move or a drag may have begun while the server answered (TypeScript keeps the
      // narrowing from before the await):
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (!("same" in reply) && reply.board && !this.busy && !this.table.dragging) this.showBoard(reply.board);
    } catch {
      // the next poll tries again; a move made meanwhile says what went wrong
    }
  }

  private take(reply: BoardAnswer): void {
    if ("same" in reply) return; // (api/board's answer when nothing changed: nothing to show)
    if (reply.board) this.showBoard(reply.board);
    if (reply.noGame) { this.say(this.noGame, false); return; } // the page's own buttons deal
    const said: Said = [];
    if (reply.board) said.push(...reply.board.text.slice(1));
    if (reply.message) said.push(...reply.message.text);
    if (reply.note) said.push(...reply.note);
    const question = reply.message?.question ?? null;
    if (said.length || question) this.say(said, false);
    const answers = $("answers");
    answers.replaceChildren();
    if (question) {
      for (const [label, yes] of [[question.yes, true], [question.no, false]] as const) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = label;
        b.addEventListener("click", () => {
          $("say").hidden = true;
          void this.send("api/answer", { ask: question.ask, args: question.args, yes });
        });
        answers.append(b);
      }
      (answers.firstElementChild as HTMLElement).focus();
    }
  }

  private showBoard(board: BoardData): void {
    this.table.show(board);
    const select = $<HTMLSelectElement>("game");
    if (document.activeElement !== select) select.value = board.game;
    const h = $("headline");
    h.replaceChildren(...pieces(board.text[0] ?? [], (b) => { this.press(b); }, this.copyWords()));
    this.tools(board.buttons);
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

  private say(said: Said, brief: boolean): void {
    $("words").replaceChildren(...lines(said, (b) => { this.press(b); }, this.copyWords()));
    if (brief) $("answers").replaceChildren();
    $("say").hidden = !said.length && !brief;
  }

  // A button in what the server said: the same as the page's own button of that name.
  private press(b: ButtonPiece): void {
    const game = b.game ?? this.game();
    if (b.action === "new") void this.send("api/new", b.deal === undefined ? { game } : { game, deal: b.deal });
    else if (b.action === "daily") void this.send("api/daily", { game });
    else if (b.action === "rules") void this.send("api/rules", { game });
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
    this.say([[{ t: "text", text }]], false);
  }

  private shortcut(e: KeyboardEvent): void {
    if (e.target instanceof HTMLSelectElement) return;
    const z = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z";
    if (z && !e.shiftKey) this.act("undo");
    else if ((z && e.shiftKey) || ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y")) this.act("redo");
    else return;
    e.preventDefault();
  }
}

function platform(): Platform {
  const query = new URLSearchParams(location.search);
  const devUser = query.get("dev_user");
  const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
  if (devUser !== null) {
    return new Dev(devUser, query.get("locale") ?? navigator.language, query.get("guild"));
  }
  return new InDiscord(meta("client-id"));
}

void new Page(platform()).start();
