// The scene's blocks other than the players and the buttons: the board (the grill,
// Picker's table), the dice, the lobby, the end, the log.
import {el} from '../dom';
import type {Scene} from '../types';
import {w} from '../words';
import {dieEl, pieceEl} from './pieces';

// Up to nine pieces in one row (Picker's table); more in two rows (the grill's 16 or 18).
function columns(count: number): number {
  return count <= 9 ? Math.max(count, 1) : Math.ceil(count / 2);
}

export function boardEl(board: NonNullable<Scene['board']>): HTMLElement {
  const pieces = el('div', {class: 'pieces'}, ...board.pieces.map(pieceEl));
  pieces.style.setProperty('--columns', String(columns(board.pieces.length)));
  return el(
    'section',
    {class: 'board', attrs: {'aria-label': board.label}},
    el('h2', {text: board.label}),
    pieces,
  );
}

export function diceEl(dice: NonNullable<Scene['dice']>): HTMLElement {
  return el(
    'section',
    {class: 'dice', attrs: {'aria-label': dice.label}},
    el('h2', {text: dice.label}),
    el('div', {class: 'rolled'}, ...dice.rolled.map(dieEl)),
    el(
      'div',
      {class: 'kept-row'},
      el('div', {class: 'kept'}, ...dice.kept.map(dieEl)),
      el('p', {class: 'sum', text: dice.sum}),
    ),
  );
}

export function lobbyEl(lobby: NonNullable<Scene['lobby']>): HTMLElement {
  return el(
    'section',
    {class: 'lobby'},
    el('p', {class: 'seats', text: lobby.seats}),
    lobby.options.length > 0 &&
      el(
        'div',
        {class: 'options'},
        el('h2', {text: w('options')}),
        el('ul', {}, ...lobby.options.map((option) => el('li', {text: option}))),
      ),
  );
}

export function endEl(end: NonNullable<Scene['end']>): HTMLElement {
  const places = end.places.map((place) =>
    el(
      'li',
      {class: place.you ? 'you' : '', attrs: {'data-place': String(place.place)}},
      el('span', {class: 'place', text: String(place.place)}),
      el(
        'span',
        {class: 'who'},
        el('span', {class: 'name', text: place.name}),
        place.you && el('span', {class: 'tag', text: w('you')}),
      ),
      el('span', {class: 'score', text: place.score}),
    ),
  );
  return el(
    'section',
    // The outcome is the headline already: here it only names the section.
    {class: 'end', attrs: {'aria-label': end.outcome}},
    places.length > 0 && el('h2', {text: w('standings')}),
    places.length > 0 && el('ol', {class: 'places'}, ...places),
    end.ratings.length > 0 &&
      el(
        'div',
        {class: 'ratings'},
        el('h2', {text: w('ratings')}),
        el('ul', {}, ...end.ratings.map((line) => el('li', {text: line}))),
      ),
  );
}

export function logEl(log: string[]): HTMLElement {
  return el(
    'section',
    {class: 'log', attrs: {'aria-label': w('log')}},
    el('h2', {text: w('log')}),
    el('ol', {}, ...log.map((line) => el('li', {text: line}))),
  );
}
