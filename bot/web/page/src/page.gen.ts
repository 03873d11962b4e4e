// Generated from schema/page.schema.json by npm run types: edit the schema, not this file.

/**
 * Every JSON answer the page's server (bot/web/server.py, view.py, words.py) sends the page, declared once: src/page.gen.ts is generated from it (npm run types), and tests/web/test_page_schema.py checks the server's real answers against it.
 */
export type PageJson = SignedIn | ReplyData | Unchanged;
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
  grid: Grid;
}
export interface PileData {
  label: string;
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
  base: string;
  count: number;
  size: number;
  /**
   * Its top card, if any.
   *
   * @maxItems 1
   */
  cards: [] | [CardData];
}
export interface ButtonData {
  action: string;
  label: string;
  enabled: boolean;
}
/**
 * Where each pile and foundation sits on the page (view.grid).
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
 * api/board's answer when the game and its verdict are still those the page has.
 */
export interface Unchanged {
  same: true;
}
