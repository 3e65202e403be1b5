// What lies over the table: the connection banner ("Reconnecting…"), a refusal shown
// for a moment, the private dialog (a hint, a review), and the full-page messages
// shown instead of the table (outside Discord, signing in failed).
import {el} from './dom';
import {w} from './words';

const REFUSAL_MS = 3_500;

let refusalTimer: ReturnType<typeof setTimeout> | null = null;

function layer(id: string, make: () => HTMLElement): HTMLElement {
  const found = document.getElementById(id);
  if (found) return found;
  const node = make();
  node.id = id;
  document.body.append(node);
  return node;
}

/** "Connecting…"/"Reconnecting…" while the socket is down; nothing when it is up. */
export function showConnection(key: 'connecting' | 'reconnecting' | null): void {
  const banner = layer('connection', () => el('div', {class: 'banner', attrs: {role: 'status'}}));
  banner.textContent = key ? w(key) : '';
  banner.hidden = key === null;
  document.body.classList.toggle('offline', key !== null);
}

export function showRefusal(text: string): void {
  const toast = layer('refusal', () => el('div', {class: 'toast', attrs: {role: 'alert'}}));
  toast.textContent = text;
  toast.hidden = false;
  if (refusalTimer !== null) clearTimeout(refusalTimer);
  refusalTimer = setTimeout(() => {
    toast.hidden = true;
    refusalTimer = null;
  }, REFUSAL_MS);
}

function openDialog(title: string, lines: string[], buttons: HTMLButtonElement[]): HTMLDialogElement {
  document.getElementById('dialog')?.remove();
  const dialog = el(
    'dialog',
    {class: 'private', attrs: {id: 'dialog', 'aria-labelledby': 'dialog-title'}},
    el('h2', {text: title, attrs: {id: 'dialog-title'}}),
    el('div', {class: 'lines'}, ...lines.map((line) => el('p', {text: line}))),
    el('div', {class: 'buttons'}, ...buttons),
  );
  for (const button of buttons) button.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

function dialogButton(text: string, style: string): HTMLButtonElement {
  return el('button', {class: `act ${style}`, text, attrs: {type: 'button'}});
}

/** A hint's or a review's text, for this tab only. */
export function showPrivate(title: string, lines: string[]): void {
  openDialog(title, lines, [dialogButton(w('close'), 'secondary')]);
}

/** Asks before an action that ends something for everyone (Cancel, End). */
export function confirm(question: string, onYes: () => void): void {
  const yes = dialogButton(w('confirm'), 'danger');
  yes.addEventListener('click', onYes, {once: true});
  openDialog(question, [], [dialogButton(w('keep_playing'), 'secondary'), yes]);
}

/** A page of its own instead of the table, with a button (Try again) when one is given. */
export function showMessage(
  root: HTMLElement,
  text: string,
  label?: string,
  onPress?: () => void,
): void {
  const box = el('div', {class: 'message', attrs: {role: 'alert'}}, el('p', {text}));
  if (label && onPress) {
    const button = el('button', {class: 'act primary', text: label, attrs: {type: 'button'}});
    button.addEventListener('click', onPress, {once: true});
    box.append(button);
  }
  root.replaceChildren(box);
  root.removeAttribute('aria-busy');
}
