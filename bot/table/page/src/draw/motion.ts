// What just happened, moved: the dice tumble on a roll, kept dice and taken tiles pop, a
// bust shakes. Every animation ends within 600 ms, and none runs when the person asked
// for reduced motion.
import type {Cue} from '../types';

export const LONGEST_MS = 600;

type Frames = Keyframe[];

const TUMBLE: Frames = [
  {transform: 'translateY(-14px) rotate(-200deg) scale(0.8)', opacity: 0.2},
  {transform: 'translateY(3px) rotate(20deg) scale(1.05)', opacity: 1, offset: 0.7},
  {transform: 'none', opacity: 1},
];
const POP: Frames = [
  {transform: 'scale(0.6)', opacity: 0.3},
  {transform: 'scale(1.15)', opacity: 1, offset: 0.6},
  {transform: 'none', opacity: 1},
];
const SHAKE: Frames = [
  {transform: 'none'},
  {transform: 'translateX(-6px)'},
  {transform: 'translateX(6px)'},
  {transform: 'translateX(-4px)'},
  {transform: 'translateX(3px)'},
  {transform: 'none'},
];
const GLOW: Frames = [
  {boxShadow: '0 0 0 0 rgba(255, 204, 77, 0)'},
  {boxShadow: '0 0 0 6px rgba(255, 204, 77, 0.8)', offset: 0.4},
  {boxShadow: '0 0 0 0 rgba(255, 204, 77, 0)'},
];

export function reducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function run(nodes: Element[], frames: Frames, duration: number, stagger = 0): void {
  nodes.forEach((node, index) => {
    // Staggered, but the last one still ends by LONGEST_MS.
    const delay = Math.min(index * stagger, LONGEST_MS - duration);
    node.animate(frames, {duration, delay, easing: 'ease-out', fill: 'backwards'});
  });
}

function byIds(root: ParentNode, ids: string[]): Element[] {
  return ids.flatMap((id) => Array.from(root.querySelectorAll(`[data-id="${CSS.escape(id)}"]`)));
}

export function animate(root: ParentNode, cue: Cue): void {
  if (reducedMotion()) return;
  const named = byIds(root, cue.ids);
  switch (cue.kind) {
    case 'roll':
      run(named.length ? named : Array.from(root.querySelectorAll('.rolled .die')), TUMBLE, 450, 20);
      break;
    case 'keep':
    case 'join':
      run(named, POP, 300, 20);
      break;
    case 'take':
    case 'steal':
      run(named, POP, 400);
      run(named, GLOW, 600);
      break;
    case 'bust':
      run(named.length ? named : Array.from(root.querySelectorAll('.dice')), SHAKE, 400);
      break;
    case 'turn':
      run(Array.from(root.querySelectorAll('.player.to-move')), GLOW, 600);
      break;
    case 'end':
      run(Array.from(root.querySelectorAll('.end .places li')), POP, 300, 60);
      break;
  }
}
