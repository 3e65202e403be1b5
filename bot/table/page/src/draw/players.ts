// Everyone at the table: name, level, score, Pickomino's stack (its top tile and how
// many) or Picker's kept dice; whose turn it is and which one is you.
import {el, hiddenText} from '../dom';
import type {Player} from '../types';
import {w} from '../words';
import {pieceEl} from './pieces';

function stackEl(stack: NonNullable<Player['stack']>): HTMLElement {
  const count = String(stack.count);
  return el(
    'span',
    {class: 'stack'},
    stack.top ? pieceEl(stack.top) : el('span', {class: 'piece empty', attrs: {'aria-hidden': 'true'}}),
    el('span', {class: 'count', text: count, attrs: {'aria-hidden': 'true'}}),
    hiddenText(`${w('stack')}: ${count}`),
  );
}

export function playerEl(player: Player, host: boolean): HTMLLIElement {
  const classes = ['player'];
  if (player.to_move) classes.push('to-move');
  if (player.you) classes.push('you');
  if (player.left) classes.push('left');
  const card = el(
    'li',
    {class: classes.join(' '), attrs: {'data-seat': String(player.seat)}},
    el(
      'span',
      {class: 'who'},
      el('span', {class: 'name', text: player.name}),
      player.you && el('span', {class: 'tag you', text: w(player.to_move ? 'your_turn' : 'you')}),
      player.level && el('span', {class: 'tag level', text: player.level}),
      player.left && el('span', {class: 'tag', text: w('left')}),
      host && el('span', {class: 'tag', text: w('host')}),
    ),
    el('span', {class: 'score', text: player.score}),
  );
  if (player.to_move) card.setAttribute('aria-current', 'step');
  if (player.stack) card.append(stackEl(player.stack));
  if (player.pieces.length) {
    card.append(el('span', {class: 'kept-pieces'}, ...player.pieces.map(pieceEl)));
  }
  return card;
}

/** `host`: the lobby's host by name (the lobby tags them), else null. */
export function playersEl(players: Player[], host: string | null): HTMLElement {
  return el(
    'section',
    {class: 'players', attrs: {'aria-label': w('players')}},
    el('ol', {}, ...players.map((player) => playerEl(player, player.name === host))),
  );
}
