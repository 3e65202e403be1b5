// A piece (a tile, or a die on Picker's table) and a die, drawn from the scene: the
// server's picture when it has one, else the label drawn in CSS. Each is one image to
// assistive technology, named by the server's text.
import {el, safeColour} from '../dom';
import type {Die, Piece} from '../types';

// Pip positions on a 3 x 3 grid, counted left to right, top to bottom.
const PIPS: Record<string, number[]> = {
  '1': [4],
  '2': [0, 8],
  '3': [0, 4, 8],
  '4': [0, 2, 6, 8],
  '5': [0, 2, 4, 6, 8],
  '6': [0, 2, 3, 5, 6, 8],
};

function picture(src: string, fallback: () => HTMLElement): HTMLImageElement {
  const img = el('img', {attrs: {src, alt: '', draggable: 'false'}});
  img.decoding = 'async';
  // A picture that does not load is replaced by the drawn form.
  img.addEventListener('error', () => img.replaceWith(fallback()), {once: true});
  return img;
}

function colourise(node: HTMLElement, colour: string | null): void {
  const safe = safeColour(colour);
  if (!safe) return;
  node.style.setProperty('--colour', safe);
  node.classList.add(isDark(safe) ? 'dark' : 'light');
}

function isDark(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}

function drawnPiece(piece: Piece): HTMLElement {
  const marks = el('span', {class: 'marks'});
  for (let i = 0; i < (piece.marks ?? 0); i++) marks.append(el('span', {class: 'mark'}));
  const label = el('span', {class: 'label', text: piece.label});
  if (!piece.marks) return el('span', {class: 'drawn plain'}, label);
  return el('span', {class: 'drawn'}, label, marks);
}

/** What the label says beyond the piece's value (a token sitting on a tile): shown over
    its picture, which draws the value only. */
function beyondValue(piece: Piece): string {
  if (piece.value === null) return '';
  return piece.label.replace(String(piece.value), '').trim();
}

export function pieceEl(piece: Piece): HTMLElement {
  const node = el('span', {
    class: `piece state-${piece.state}`,
    attrs: {role: 'img', 'aria-label': piece.name, 'data-id': piece.id},
  });
  colourise(node, piece.colour);
  if (!piece.picture) {
    node.append(drawnPiece(piece));
    return node;
  }
  node.append(picture(piece.picture, () => drawnPiece(piece)));
  const extra = beyondValue(piece);
  if (extra) node.append(el('span', {class: 'badge', text: extra}));
  return node;
}

function drawnDie(die: Die): HTMLElement {
  const pips = PIPS[die.face];
  if (!pips) return el('span', {class: 'drawn face', text: die.face});
  const grid = el('span', {class: 'drawn pips'});
  for (let cell = 0; cell < 9; cell++) {
    grid.append(el('span', {class: pips.includes(cell) ? 'pip' : 'blank'}));
  }
  return grid;
}

export function dieEl(die: Die): HTMLElement {
  const node = el('span', {
    class: `die${die.kept ? ' kept' : ''}`,
    attrs: {role: 'img', 'aria-label': die.name, 'data-id': die.id},
  });
  colourise(node, die.colour);
  node.append(die.picture ? picture(die.picture, () => drawnDie(die)) : drawnDie(die));
  return node;
}
