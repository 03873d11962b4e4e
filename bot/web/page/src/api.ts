// The server's answers, as bot/web/view.py writes them, and the one way to ask for them.

import type { Said } from "./words";

export interface CardData { code: string; rank: string; suit: number; name: string }
export interface PileData { label: string; name: string; cards: CardData[] }
export interface FoundationData { label: string; base: string; count: number; size: number; cards: CardData[] }
export interface Cell { kind: "pile" | "foundation"; index: number; col: number; row: number; rows: number }
export interface ButtonData { action: string; label: string; enabled: boolean }
export interface BoardData {
  ref: [number, number]; game: string; text: Said; finished: boolean; lost: boolean;
  fourColour: boolean; piles: PileData[]; foundations: FoundationData[]; moves: string[];
  buttons: ButtonData[]; grid: { cols: number; cells: Cell[] };
}
export interface QuestionData { ask: string; args: string[]; yes: string; no: string }
export interface ReplyData {
  board: BoardData | null; message: { text: Said; question: QuestionData | null } | null;
  note: Said | null; refused: boolean; noGame?: boolean; same?: boolean;
}
export interface SignedIn {
  session: string; language: string; words: Record<string, string>; start: Said;
  games: Record<string, string>; access_token?: string;
}

export class Offline extends Error {}
export class SignedOut extends Error {}

// Relative addresses: the page works at the root of its host and behind Discord's proxy.
export async function ask<T>(path: string, body?: object, session?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (session) headers.Authorization = `Bearer ${session}`;
  if (body) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method: body ? "POST" : "GET", headers, body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new Offline();
  }
  if (response.status === 401) throw new SignedOut();
  if (!response.ok) throw new Offline();
  return (await response.json()) as T;
}
