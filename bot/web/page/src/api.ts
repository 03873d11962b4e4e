// The server's answers, as schema/page.schema.json declares them (the types generated from
// it: page.gen.ts), and the one way to ask for them.

export type {
  BoardData, ButtonData, CardData, Cell, Grid, Grids, HintData, PageWords, QuestionData, ReplyData, SettingData,
  SignedIn, Unchanged,
} from "./page.gen";

export class Offline extends Error {}
export class SignedOut extends Error {}

// Relative addresses: the page works at the root of its host and behind Discord's proxy.
// The answer is the server's as the schema declares it (tests/web/test_page_schema.py
// holds the server to it): ``T`` names which of its answers this path gives.
export async function ask<T>(path: string, body?: object, session?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (session) headers.Authorization = `Bearer ${session}`;
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
