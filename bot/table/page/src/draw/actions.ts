// The buttons: one real <button> per action of the scene, named by the action's `name`,
// grouped (the dice to keep, the board, the turn, the lobby, the end) in a bar at the
// bottom where a thumb reaches; the lobby's and the end's main buttons (Start, Join, Play
// again) in the last row, nearest the thumb. End (the game, for everyone) is not there:
// it sits in the top bar, out of a thumb's way.
import {el} from '../dom';
import type {Action, Scene} from '../types';

const GROUPS: Action['group'][] = ['dice', 'board', 'turn', 'lobby', 'end'];
const MAIN_LAST: Action['group'][] = ['lobby', 'end'];

export type Press = (action: Action, button: HTMLButtonElement) => void;

export function actionKey(action: Pick<Action, 'action' | 'arg'>): string {
  return `${action.action}:${action.arg ?? ''}`;
}

/** The scene's actions; on the start scene, one Open a game per game if it sent none. */
export function sceneActions(scene: Scene): Action[] {
  if (scene.phase !== 'start' || !scene.start || scene.actions.some((a) => a.action === 'open')) {
    return scene.actions;
  }
  const opens: Action[] = scene.start.games.map((game) => ({
    action: 'open',
    arg: game.kind,
    label: game.title,
    name: game.title,
    style: 'primary',
    group: 'lobby',
    enabled: true,
  }));
  return [...opens, ...scene.actions];
}

/** Ending the game for everyone: drawn in the top bar, not the thumb's. */
export function isEnd(action: Action, scene: Scene): boolean {
  return action.action === 'end' && scene.phase === 'playing';
}

export function buttonEl(action: Action, press: Press, busy: boolean): HTMLButtonElement {
  const button = el('button', {
    class: `act ${action.style}`,
    attrs: {
      type: 'button',
      'aria-label': action.name,
      'data-key': actionKey(action),
      ...(action.target ? {'data-target': action.target} : {}),
    },
  });
  button.append(el('span', {class: 'text', text: action.label}));
  button.disabled = busy || !action.enabled;
  button.addEventListener('click', () => press(action, button));
  return button;
}

function isMain(action: Action): boolean {
  return action.style === 'primary' || action.style === 'success';
}

export function actionsEl(actions: Action[], press: Press, busy: (a: Action) => boolean): HTMLElement {
  const bar = el('nav', {class: 'actions'});
  const button = (action: Action) => buttonEl(action, press, busy(action));
  for (const group of GROUPS) {
    const members = actions.filter((a) => a.group === group);
    if (!members.length) continue;
    if (!MAIN_LAST.includes(group)) {
      bar.append(el('div', {class: `group group-${group}`}, ...members.map(button)));
      continue;
    }
    const others = members.filter((a) => !isMain(a));
    const main = members.filter(isMain);
    if (others.length) bar.append(el('div', {class: `group group-${group}`}, ...others.map(button)));
    if (main.length) bar.append(el('div', {class: `group group-${group} main`}, ...main.map(button)));
  }
  return bar;
}

/** Each button about a piece or a die shows it small, and points it out when hovered. */
export function linkTargets(root: HTMLElement): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-target]')) {
    const id = CSS.escape(button.dataset.target ?? '');
    const target = root.querySelector<HTMLElement>(`:not(button) > [data-id="${id}"]`);
    if (!target) continue;
    const icon = target.cloneNode(true) as HTMLElement;
    for (const name of ['role', 'aria-label', 'data-id']) icon.removeAttribute(name);
    icon.setAttribute('aria-hidden', 'true');
    icon.classList.add('icon');
    button.prepend(icon);
    const mark = (on: boolean) => () => target.classList.toggle('targeted', on);
    for (const on of ['pointerenter', 'focus']) button.addEventListener(on, mark(true));
    for (const off of ['pointerleave', 'blur']) button.addEventListener(off, mark(false));
  }
}
