// Building the DOM from server text safely: text goes in as text nodes, never markup.

export type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string>;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Text only assistive technology reads (the visible form is a picture or a colour). */
export function hiddenText(text: string): HTMLSpanElement {
  return el('span', {class: 'sr-only', text});
}

/** A colour from the server, if it is one (#rrggbb); anything else is dropped. */
export function safeColour(colour: string | null | undefined): string | null {
  return colour && /^#[0-9a-fA-F]{6}$/.test(colour) ? colour : null;
}
