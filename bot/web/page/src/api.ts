// The server's answers, as schema/page.schema.json declares them (the types generated from
// it: page.gen.ts), and the one way to ask for them.

export type {
  BoardData, ButtonData, CardData, Cell, Grid, Grids, HintData, PageWords, Pushed, QuestionData, ReplyData,
  SettingData, SignedIn, Unchanged,
} from "./page.gen";

// This page's own id, made up as it loads: its socket says it, and each request carries it
// (X-Page), so the server never pushes back to the page the board a request answered.
export const pageId = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");

export class Offline extends Error {}
export class SignedOut extends Error {}

// Relative addresses: the page works at the root of its host and behind Discord's proxy.
// The answer is the server's as the schema declares it (tests/web/test_page_schema.py
// holds the server to it): ``T`` names which of its answers this path gives.
export async function ask<T>(path: string, body?: object, session?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (session) {
    headers.Authorization = `Bearer ${session}`;
    headers["X-Page"] = pageId;
  }
  const init: RequestInit = { method: body ? "POST" : "GET", headers };
  if (body) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Offline();
  }
  if (response.status === 401) throw new SignedOut();
  if (!response.ok) throw new Offline();
  return (await response.json()) as T;
}
