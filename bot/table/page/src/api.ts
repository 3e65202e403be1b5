// The table server's two plain HTTP routes. Relative URLs only: the page may be mounted
// under a path prefix (Discord's URL mapping, the stand-in's proxy).
import type {Config} from './types';

export type TokenResult =
  | {ok: true; accessToken: string}
  | {ok: false; error: 'code_refused' | 'discord_unavailable' | 'malformed' | 'unreachable'};

/** The application's client id and the page's words in the browser's language. */
export async function fetchConfig(): Promise<Config> {
  const url = new URL('api/config', location.href);
  url.searchParams.set('locale', navigator.language || '');
  const answer = await fetch(url, {headers: {Accept: 'application/json'}, cache: 'no-store'});
  if (!answer.ok) throw new Error(`api/config answered ${answer.status}`);
  const body = (await answer.json()) as Partial<Config>;
  if (typeof body.client_id !== 'string' || !body.client_id) {
    throw new Error('api/config sent no client_id');
  }
  return {client_id: body.client_id, words: body.words ?? {}};
}

/** Trades AUTHORIZE's code for an access token; the server holds the client secret. */
export async function exchangeCode(code: string): Promise<TokenResult> {
  let answer: Response;
  try {
    answer = await fetch('api/token', {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({code}),
    });
  } catch {
    return {ok: false, error: 'unreachable'};
  }
  const body = (await answer.json().catch(() => ({}))) as {access_token?: unknown; error?: unknown};
  if (answer.ok && typeof body.access_token === 'string') {
    return {ok: true, accessToken: body.access_token};
  }
  if (answer.status === 403) return {ok: false, error: 'code_refused'};
  if (answer.status === 400) return {ok: false, error: 'malformed'};
  return {ok: false, error: 'discord_unavailable'};
}
