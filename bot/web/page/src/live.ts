// The page's socket (the server's bot/web/live.py): it says what the table shows as it
// connects, and the server pushes the board whenever the game changes elsewhere, at once,
// and nothing while nothing changes (nor the boards the page's own requests are answered).
// Named an Activity's instance, the page sits at its table and is pushed who is there; one
// the server refuses (Discord does not list the player there), it connects again without
// it, and plays alone. A socket of its own watches another player's table there (`watch`),
// until it can no longer be. A dropped socket connects again by itself (sooner at first,
// then less often), saying what the table shows, so what changed meanwhile comes at once.

import { pageId, type Pushed } from "./api";

// What the table shows: its board's [row, revision] (null: no board), whether it says no
// win is possible, and in which deck's colours.
export interface Shows { have: readonly [number, number] | null; lost: boolean; fourColour: boolean }

const RETRY_MS = { least: 500, most: 15000 }; // between two tries to connect
const SIGNED_OUT = 4401; // the session has expired: signing in again is the page's to ask
const NOT_SEATED = 4403; // not at the table named: the page plays alone
const WATCH_ENDED = 4410; // the table watched can no longer be

export class Live {
  private ws: WebSocket | null = null;
  private retryMs = RETRY_MS.least;
  private timer = 0;

  private closing = false;

  // ``watch``: the player whose table this socket watches (null: the page's own game);
  // ``ended``: called once a table watched can no longer be (or a table refused).
  constructor(private session: string, private instance: string | null, private shows: () => Shows,
    private pushed: (p: Pushed) => void, private signedOut: () => void, private ended: () => void,
    private watch: string | null = null) {
    window.addEventListener("online", () => { this.now(); });
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.now(); });
  }

  connect(): void {
    const url = new URL("api/live", location.href); // relative: behind Discord's proxy too
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const at = this.instance === null ? {} : { instance: this.instance };
      const watching = this.watch === null ? {} : { watch: this.watch };
      ws.send(JSON.stringify({ session: this.session, page: pageId, ...this.shows(), ...at, ...watching }));
    });
    ws.addEventListener("message", (e: MessageEvent<string>) => {
      this.retryMs = RETRY_MS.least; // (a socket refused at once never gets this far)
      this.pushed(JSON.parse(e.data) as Pushed);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.closed(e.code);
    });
  }

  // No more: the socket is closed and not opened again (a table no longer watched).
  close(): void {
    this.closing = true;
    clearTimeout(this.timer);
    this.ws?.close();
    this.ws = null;
  }

  private closed(code: number): void {
    if (this.closing) return;
    if (code === SIGNED_OUT) { this.signedOut(); return; }
    if (this.watch !== null && (code === WATCH_ENDED || code === NOT_SEATED)) { this.ended(); return; }
    if (code === NOT_SEATED && this.instance !== null) {
      this.instance = null;
      this.ended();
      this.connect();
      return;
    }
    // The server going away (a restart) or the network dropping: try again soon, then
    // less often. A refusal (a code of the server's own, 4000 and up): wait longest.
    const wait = code >= 4000 ? RETRY_MS.most : this.retryMs;
    this.retryMs = Math.min(RETRY_MS.most, this.retryMs * 2);
    this.timer = window.setTimeout(() => { this.connect(); }, wait * (0.75 + Math.random() / 2));
  }

  // Back online, or shown again: connect at once if the socket is down.
  private now(): void {
    if (this.ws !== null || this.closing) return;
    clearTimeout(this.timer);
    this.connect();
  }
}
