// The page's own strings (table.page.* in the server's catalogs): first from api/config
// in the browser's language, then from the socket's welcome in the person's Discord one.
// PAGE_WORDS lists every key the page uses (tsc holds the page to it; a test holds the
// catalog's words to it).
import type {Words} from './types';

export const PAGE_WORDS = [
  'authorize',
  'authorize_button',
  'close',
  'confirm',
  'confirm_cancel',
  'confirm_end',
  'connecting',
  'ended',
  'host',
  'keep_playing',
  'left',
  'log',
  'malformed',
  'not_yours',
  'open_from_discord',
  'options',
  'players',
  'ratings',
  'reconnecting',
  'refused',
  'retry',
  'slow_down',
  'stack',
  'standings',
  'time_left',
  'unavailable',
  'watching',
  'you',
  'your_turn',
] as const;

export type PageWord = (typeof PAGE_WORDS)[number];

const words: Words = {};

export function setWords(next: Words): void {
  Object.assign(words, next);
}

/** The text for a key; the key itself when the server sent none (a visible bug, not a blank). */
export function w(key: PageWord): string {
  return words[key] ?? key;
}
