// The whole scene, drawn afresh on every state: the bar (title, turn clock), the state
// of play (headline, prompt, notice), the players, the board and dice or the lobby or
// the end, the log, and the buttons at the bottom.
import {el} from '../dom';
import type {Action, Scene} from '../types';
import {w} from '../words';
import {type Press, actionKey, actionsEl, buttonEl, isEnd, linkTargets, sceneActions} from './actions';
import {clockEl, stopClock} from './clock';
import {playersEl} from './players';
import {boardEl, diceEl, endEl, lobbyEl, logEl} from './sections';

export interface Drawing {
  press: Press;
  busy: (action: Action) => boolean;
  skewMs: number;
}

function statusEl(scene: Scene): HTMLElement {
  const watching = scene.phase === 'playing' && scene.you.seat === null;
  return el(
    'section',
    {class: 'state'},
    el('p', {class: 'headline', text: scene.headline}),
    scene.prompt && el('p', {class: 'prompt', text: scene.prompt}),
    scene.notice && el('p', {class: 'notice', text: scene.notice}),
    watching && el('p', {class: 'watching', text: w('watching')}),
  );
}

function yourTurn(scene: Scene): boolean {
  return scene.phase === 'playing' && scene.players.some((p) => p.you && p.to_move);
}

export function drawScene(root: HTMLElement, scene: Scene, drawing: Drawing): void {
  stopClock();
  const focused = document.activeElement?.getAttribute('data-key') ?? null;
  document.title = scene.title;
  const table = el('main', {class: `table phase-${scene.phase}`});
  if (scene.kind) table.dataset.kind = scene.kind;
  table.classList.toggle('your-turn', yourTurn(scene));
  const players = scene.players.length > 0 && playersEl(scene.players, scene.lobby?.host ?? null);
  const play = el(
    'div',
    {class: 'play'},
    // The end's places first: they are what an ended game is about.
    scene.end && endEl(scene.end),
    players,
    scene.lobby && lobbyEl(scene.lobby),
    scene.board && boardEl(scene.board),
    scene.dice && diceEl(scene.dice),
    scene.log.length > 0 && logEl(scene.log),
  );
  const actions = sceneActions(scene);
  const button = (action: Action) => buttonEl(action, drawing.press, drawing.busy(action));
  table.append(
    el(
      'header',
      {class: 'bar'},
      el('h1', {text: scene.title}),
      scene.clock && clockEl(scene.clock, drawing.skewMs),
      ...actions.filter((a) => isEnd(a, scene)).map(button),
    ),
    statusEl(scene),
    play,
    actionsEl(
      actions.filter((a) => !isEnd(a, scene)),
      drawing.press,
      drawing.busy,
    ),
  );
  root.replaceChildren(table);
  root.removeAttribute('aria-busy');
  linkTargets(table);
  // A keyboard user keeps their place when the same button is drawn again.
  if (focused) {
    const again = root.querySelector<HTMLButtonElement>(`button[data-key="${CSS.escape(focused)}"]`);
    if (again && !again.disabled) again.focus();
  }
}

export function buttonFor(root: ParentNode, action: Pick<Action, 'action' | 'arg'>): HTMLButtonElement | null {
  return root.querySelector(`button[data-key="${CSS.escape(actionKey(action))}"]`);
}
