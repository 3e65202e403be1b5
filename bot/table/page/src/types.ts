// The shapes the server sends (the socket protocol and the scene it draws). The page
// knows no game: every text here arrives translated, and is set as text, never markup.

export type Words = Record<string, string>;

export interface Piece {
  id: string;
  label: string;
  name: string;
  picture: string | null;
  value: number | null;
  marks: number | null;
  state: 'free' | 'taken' | 'turned' | 'top' | 'gone';
  colour: string | null;
}

export interface Die {
  id: string;
  face: string;
  name: string;
  picture: string | null;
  colour: string | null;
  kept: boolean;
}

export interface Player {
  seat: number;
  name: string;
  you: boolean;
  to_move: boolean;
  left: boolean;
  level: string | null;
  score: string;
  stack: {top: Piece | null; count: number} | null;
  pieces: Piece[];
}

export type ActionGroup = 'dice' | 'board' | 'turn' | 'lobby' | 'end';

export interface Action {
  action: string;
  arg?: string | null;
  label: string;
  name: string;
  style: 'primary' | 'secondary' | 'success' | 'danger';
  group: ActionGroup;
  enabled: boolean;
  target?: string | null;
}

export interface Cue {
  kind: 'roll' | 'keep' | 'take' | 'steal' | 'bust' | 'turn' | 'end' | 'join';
  text: string;
  ids: string[];
}

export interface Scene {
  kind: string | null;
  title: string;
  phase: 'start' | 'lobby' | 'playing' | 'ended';
  you: {seat: number | null; host: boolean};
  headline: string;
  prompt: string;
  notice: string | null;
  clock: {deadline: number; total: number} | null;
  players: Player[];
  board: {label: string; pieces: Piece[]} | null;
  dice: {label: string; rolled: Die[]; kept: Die[]; sum: string} | null;
  actions: Action[];
  cue: Cue | null;
  log: string[];
  lobby: {host: string; options: string[]; seats: string; levels: string[]} | null;
  end: {
    places: {place: number; name: string; score: string; you: boolean}[];
    ratings: string[];
    review: boolean;
    outcome: string;
  } | null;
  start: {games: {kind: string; title: string}[]} | null;
}

export interface Config {
  client_id: string;
  words: Words;
}

export type ServerFrame =
  | {t: 'welcome'; you: {id: string; name: string}; locale: string; words: Words}
  | {t: 'state'; session: number | null; version: number; scene: Scene; now?: number}
  | {t: 'done'; n: number}
  | {t: 'refused'; n: number; text: string}
  | {t: 'private'; n: number; title: string; lines: string[]};

export interface ActFrame {
  t: 'act';
  n: number;
  session: number | null;
  version: number;
  action: string;
  arg?: string;
}
