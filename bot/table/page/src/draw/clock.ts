// The turn clock: the time left until the scene's deadline, counted down every quarter
// second. The server's clock may differ from ours: `skewMs` is server minus here.
import {el} from '../dom';
import type {Scene} from '../types';
import {w} from '../words';

let ticking: ReturnType<typeof setInterval> | null = null;

export function stopClock(): void {
  if (ticking !== null) clearInterval(ticking);
  ticking = null;
}

function shown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function clockEl(clock: NonNullable<Scene['clock']>, skewMs: number): HTMLElement {
  stopClock();
  const text = el('span', {class: 'clock-text'});
  const fill = el('span', {class: 'clock-fill'});
  const node = el(
    'div',
    {class: 'clock', attrs: {role: 'timer', 'aria-label': w('time_left')}},
    text,
    el('span', {class: 'clock-bar', attrs: {'aria-hidden': 'true'}}, fill),
  );
  const totalMs = Math.max(1, clock.total * 1000);
  const tick = () => {
    const left = clock.deadline - (Date.now() + skewMs);
    text.textContent = shown(left);
    fill.style.transform = `scaleX(${Math.min(1, Math.max(0, left / totalMs))})`;
    node.classList.toggle('short', left < 10_000);
    if (left <= 0) stopClock();
  };
  tick();
  ticking = setInterval(tick, 250);
  return node;
}
