// What the server says, as bot/web/words.py writes it: lines of pieces, each saying what it
// is. A command the page can do is a button in the sentence that does it; a line to share
// has a copy button; a moment is shown in the reader's own time zone. No Markdown. Its
// pieces are declared in schema/page.schema.json (the types generated from it: page.gen.ts).

import type { PageWords, Piece, Said } from "./page.gen";

export type { Piece, Said };

export type ButtonPiece = Extract<Piece, { t: "button" }>;

// The words the page itself adds (the copy button's two states), from the server's catalog.
export type CopyWords = Pick<PageWords, "copy" | "copied">;

export function lines(said: Said, press: (b: ButtonPiece) => void, words: CopyWords): HTMLElement[] {
  return said.map((line) => {
    const p = document.createElement("p");
    p.append(...pieces(line, press, words));
    return p;
  });
}

function smallPrint(parts: Piece[], press: (b: ButtonPiece) => void, words: CopyWords): HTMLElement {
  const s = document.createElement("small");
  s.append(...pieces(parts, press, words));
  return s;
}

export function pieces(parts: Piece[], press: (b: ButtonPiece) => void, words: CopyWords): Node[] {
  const nodes: Node[] = [];
  let box: HTMLElement | null = null; // the share line just made, whose punctuation it keeps
  for (const piece of parts) {
    if (box && piece.t === "text") {
      // The stop after a line to share stays beside its copy button, never alone on a line.
      const stop = /^[^\s\p{L}\p{N}]+/u.exec(piece.text)?.[0] ?? "";
      if (stop) {
        const kept = document.createElement("span");
        kept.textContent = stop;
        box.append(kept);
      }
      if (piece.text.length > stop.length) nodes.push(document.createTextNode(piece.text.slice(stop.length)));
      box = null;
      continue;
    }
    const made = node(piece, press, words);
    nodes.push(made);
    box = piece.t === "copy" ? made as HTMLElement : null;
  }
  return nodes;
}

function node(piece: Piece, press: (b: ButtonPiece) => void, words: CopyWords): Node {
  switch (piece.t) {
    case "text":
      return document.createTextNode(piece.text);
    case "strong": {
      const b = document.createElement("strong");
      b.append(...pieces(piece.parts, press, words));
      return b;
    }
    case "em": {
      const e = document.createElement("em");
      e.append(...pieces(piece.parts, press, words));
      return e;
    }
    case "small":
      return smallPrint(piece.parts, press, words);
    case "typed": {
      const c = document.createElement("code");
      c.textContent = piece.text;
      return c;
    }
    case "button": {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "inline";
      b.textContent = piece.label;
      b.addEventListener("click", () => { press(piece); });
      return b;
    }
    case "copy":
      return copyLine(piece.text, words);
    case "moment": {
      const t = document.createElement("time");
      const when = new Date(piece.when * 1000);
      t.dateTime = when.toISOString();
      t.textContent = when.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
      return t;
    }
  }
}

function copyLine(text: string, words: CopyWords): HTMLElement {
  const box = document.createElement("span");
  box.className = "share";
  const line = document.createElement("code");
  line.textContent = text;
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "copy";
  copy.textContent = words.copy;
  copy.addEventListener("click", () => {
    void navigator.clipboard.writeText(text).then(() => { copy.textContent = words.copied; }, () => {
      const range = document.createRange(); // no clipboard here: the line is selected to copy by hand
      range.selectNodeContents(line);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    });
  });
  box.append(line, copy);
  return box;
}
