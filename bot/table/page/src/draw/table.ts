// The scene, drawn afresh on every state: its title, the state of play (headline,
// prompt, notice) and the buttons at the bottom. The players, board and dice follow.
import {el} from '../dom';
import type {Action, Scene} from '../types';
import {type Press, actionKey, actionsEl, sceneActions} from './actions';

export interface Drawing {
  press: Press;
  busy: (action: Action) => boolean;
  skewMs: number;
}

export function drawScene(root: HTMLElement, scene: Scene, drawing: Drawing): void {
  document.title = scene.title;
  const table = el('main', {class: `table phase-${scene.phase}`});
  table.append(
    el('header', {class: 'bar'}, el('h1', {text: scene.title})),
    el(
      'section',
      {class: 'state'},
      el('p', {class: 'headline', text: scene.headline}),
      scene.prompt && el('p', {class: 'prompt', text: scene.prompt}),
      scene.notice && el('p', {class: 'notice', text: scene.notice}),
    ),
    el('div', {class: 'play'}),
    actionsEl(sceneActions(scene), drawing.press, drawing.busy),
  );
  root.replaceChildren(table);
  root.removeAttribute('aria-busy');
}

export function buttonFor(root: ParentNode, action: Pick<Action, 'action' | 'arg'>): HTMLButtonElement | null {
  return root.querySelector(`button[data-key="${CSS.escape(actionKey(action))}"]`);
}
