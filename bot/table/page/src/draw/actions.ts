// The buttons: one real <button> per action of the scene, named by the action's `name`,
// grouped (the dice to keep, the board, the turn, the lobby, the end) in a bar at the
// bottom where a thumb reaches; the lobby's and the end's main buttons (Start, Join, Play
// again) in the last row, nearest the thumb.
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
