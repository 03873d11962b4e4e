// Generated from schema/page.schema.json by npm run types: edit the schema, not this file.

/**
 * Every JSON answer the page's server (bot/web/server.py, view.py, words.py) sends the page, declared once: src/page.gen.ts is generated from it (npm run types), and tests/web/test_page_schema.py checks the server's real answers against it.
 */
export type PageJson = SignedIn | ReplyData | Unchanged | Pushed;
/**
 * One piece of a line, saying what it is: no Markdown reaches the page.
 */
export type Piece =
  | {
      t: "text";
      text: string;
    }
  | {
      t: "strong";
      parts: Piece[];
    }
  | {
      t: "em";
      parts: Piece[];
    }
  | {
      t: "small";
      parts: Piece[];
    }
  | {
      t: "typed";
      text: string;
    }
  | {
      t: "button";
      action: string;
      label: string;
      game?: string;
      deal?: number;
    }
  | {
      t: "copy";
      text: string;
    }
  | {
      t: "moment";
      when: number;
    };
/**
 * Lines of pieces (bot/web/words.py).
 */
export type Said = Piece[][];
/**
 * A hint's step: a move as BoardData.moves has it ("7 3", "7 f2", "redeal"), or a tool bar button to press (its action).
 */
export type HintData =
  | {
      move: string;
    }
  | {
      action: string;
    };
/**
 * What the page's socket (api/live) pushes: the board as it now is, when it differs from what the page shows; or, when the game the page shows is gone (forgotten), that there is none; or, at a table (the page named an instance), who is at it now.
 */
export type Pushed =
  | {
      board: BoardData;
    }
  | {
      noGame: true;
    }
  | {
      table: TableData;
    };

/**
 * The answer to signing in (api/signin, api/dev/signin); start: what the page says while there is no game yet.
 */
export interface SignedIn {
  session: string;
  language: string;
  words: PageWords;
  start: Said;
  /**
   * Each game's id and its name.
   */
  games: {
    [k: string]: string;
  };
  /**
   * Discord's, for the SDK's authenticate (api/signin only).
   */
  access_token?: string;
}
/**
 * The page's own words, besides those a board brings (view.PAGE_WORDS).
 */
export interface PageWords {
  newDeal: string;
  daily: string;
  game: string;
  signedOut: string;
  offline: string;
  copy: string;
  copied: string;
  deals: string;
  winnable: string;
  dealNumber: string;
  dealIt: string;
  settings: string;
  close: string;
  timePlayed: string;
  time: string;
  hints: string;
  motion: string;
  reducedMotion: string;
  players: string;
  you: string;
  noGameYet: string;
  moveOne: string;
  moveOther: string;
  notSeated: string;
  watch: string;
  watching: string;
  backToMine: string;
  watchEnded: string;
  privateBoards: string;
  presence: string;
  presenceAlone: string;
  presenceTable: string;
  invite: string;
  inviteFailed: string;
  race: string;
  joinRace: string;
  raceStarts: string;
  raceJoined: string;
  raceRunning: string;
  raceOver: string;
  raceWins: string;
  raceTie: string;
  raceNobody: string;
  racerWon: string;
  racerWonHints: string;
  racerLost: string;
  racerResigned: string;
  racerLeft: string;
  racerPlaying: string;
  racerUnfinished: string;
  title: string;
  share: string;
  shareFailed: string;
}
/**
 * What one call of the core showed (view.reply_json): every answer of api/act, api/new, api/daily, api/rules, api/answer, and api/board's unless nothing changed.
 */
export interface ReplyData {
  board: BoardData | null;
  message: MessageData | null;
  note: Said | null;
  refused: boolean;
  /**
   * Refused because there is no game yet: the page says so in its own words.
   */
  noGame: boolean;
  /**
   * A hint's step as data (api/act's hint only): its card and where it goes, to light on the table.
   */
  hint: HintData | null;
  /**
   * The player's settings (api/settings only).
   */
  settings: SettingData[] | null;
}
/**
 * A board as data (view.board_json): the page lays out the cards itself; the first line of its text is the headline, the rest is said under it.
 */
export interface BoardData {
  /**
   * The game's row and revision, sent back as seen.
   *
   * @minItems 2
   * @maxItems 2
   */
  ref: [number, number];
  game: string;
  text: Said;
  finished: boolean;
  lost: boolean;
  fourColour: boolean;
  piles: PileData[];
  foundations: FoundationData[];
  /**
   * The legal moves, as typed: "3 7", "2 f1".
   */
  moves: string[];
  buttons: ButtonData[];
  grids: Grids;
  /**
   * The time played on the game and the hints asked for it, as its result counts them (the page's clock goes on from these).
   */
  played: {
    seconds: number;
    hints: number;
  };
}
export interface PileData {
  label: string;
  /**
   * As hints and refusals name it: "7", Corner Stones' "3 (S1)".
   */
  name: string;
  cards: CardData[];
}
export interface CardData {
  code: string;
  rank: string;
  suit: number;
  /**
   * As a screen reader says it: "Queen of hearts".
   */
  name: string;
}
export interface FoundationData {
  label: string;
  /**
   * As hints and moves name it: "f2".
   */
  name: string;
  base: string;
  count: number;
  size: number;
  /**
   * Its cards, bottom to top.
   */
  cards: CardData[];
}
export interface ButtonData {
  action: string;
  label: string;
  enabled: boolean;
}
/**
 * Where each pile and foundation may sit on the page (bot/web/grids.py): the game's own arrangement first, then any the page may fold it into for a wide window; and the cards dealt to each pile.
 */
export interface Grids {
  /**
   * @minItems 1
   */
  arrangements: [Grid, ...Grid[]];
  dealt: number[];
}
/**
 * One arrangement: a grid of cols columns, a cell for each pile and foundation.
 */
export interface Grid {
  cols: number;
  cells: Cell[];
}
export interface Cell {
  kind: "pile" | "foundation";
  /**
   * 0-based.
   */
  index: number;
  /**
   * 1-based, as the grid's column and row.
   */
  col: number;
  row: number;
  /**
   * The rows it spans.
   */
  rows: number;
}
export interface MessageData {
  text: Said;
  question: QuestionData | null;
}
/**
 * A yes or no the page asks, sent back as it came to api/answer.
 */
export interface QuestionData {
  ask: string;
  args: string[];
  yes: string;
  no: string;
}
/**
 * One of the player's settings, as /settings has it: its option's name, its words, whether it is on.
 */
export interface SettingData {
  name: string;
  label: string;
  on: boolean;
}
/**
 * api/board's answer when the game and its verdict are still those the page has.
 */
export interface Unchanged {
  same: true;
}
/**
 * An Activity's table: everyone whose page is connected to it, in the order they sat down; you: the id of the page's own player; now: the server's time as it sent this (Unix seconds: the race's times are the server's); race: the table's race, under way or just over (null: none).
 */
export interface TableData {
  you: string;
  players: TablePlayer[];
  now: number;
  race: TableRace | null;
}
/**
 * A player at the table and their game's progress (game null: none yet); avatar: Discord's avatar hash, null for none; private: their boards are private, so their table cannot be watched.
 */
export interface TablePlayer {
  id: string;
  name: string;
  avatar: string | null;
  game: string | null;
  home: number;
  cards: number;
  moves: number;
  finished: boolean;
  won: boolean;
  private: boolean;
}
/**
 * A race at the table: counting down (players may join until startsAt), running (every racer dealt deal; over by endsAt at the latest) or over; by: who started it; racers best first; winner: the winner's id once it is over (null: nobody won, or a tie, or not over).
 */
export interface TableRace {
  id: string;
  game: string;
  status: "counting" | "running" | "over";
  by: string;
  startsAt: number;
  endsAt: number | null;
  deal: number | null;
  winner: string | null;
  racers: TableRacer[];
}
/**
 * A racer: outcome null while playing (or, the race over, not finished in time); moves, seconds, hints and home (cards home) as their game ended (null while playing).
 */
export interface TableRacer {
  id: string;
  name: string;
  outcome: "won" | "lost" | "resigned" | "abandoned" | null;
  moves: number | null;
  seconds: number | null;
  hints: number;
  home: number | null;
}
