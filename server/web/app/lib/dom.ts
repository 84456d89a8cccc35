// A small element builder: the views describe their DOM as nested calls instead of innerHTML strings,
// so text is never parsed as markup and the strict CSP (no inline styles or scripts) holds.

type Child = Node | string | number | null | undefined | false;
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | Handler | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") node.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function fill(node: Element, ...children: (Child | Child[])[]): void {
  node.replaceChildren();
  append(node, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(
  tag: string,
  attrs: Record<string, string | number> = {},
  ...children: Node[]
): SVGElement {
  const node = document.createElementNS(SVG_NS, tag) as SVGElement;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) node.appendChild(child);
  return node;
}

let nextId = 0;
/** A unique id for label/aria wiring. */
export function uid(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/** Calls `then` once `box` is laid out and whenever its size changes, until it leaves the page. */
export function whenResized(box: HTMLElement, then: () => void): void {
  const observer = new ResizeObserver(() => {
    if (!box.isConnected) {
      observer.disconnect();
      return;
    }
    then();
  });
  observer.observe(box);
}
