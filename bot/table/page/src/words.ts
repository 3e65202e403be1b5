// The page's own strings (table.page.* in the server's catalogs): first from api/config
// in the browser's language, then from the socket's welcome in the person's Discord one.
import type {Words} from './types';

const words: Words = {};

export function setWords(next: Words): void {
  Object.assign(words, next);
}

/** The text for a key; the key itself when the server sent none (a visible bug, not a blank). */
export function w(key: string): string {
  return words[key] ?? key;
}
