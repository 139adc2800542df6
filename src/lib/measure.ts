/**
 * The size of a JSON value as a budget counts it (lib/budgets.ts): its items (the elements of its
 * lists, at any depth) and its bytes as JSON (about: a string's escapes are not counted). The walk
 * stops as soon as either passes its bound, so measuring a value far over budget costs no more than
 * one at it, and a value that refers to itself cannot hold it forever.
 */
export interface Size {
  items: number;
  bytes: number;
}

/** The size of `value`; `over` names the bound it passed first (the counts then stop there), or null. */
export function measure(value: unknown, bounds: Size): Size & { over: keyof Size | null } {
  let items = 0;
  let bytes = 0;
  const stack: unknown[] = [value];
  const over = (): keyof Size | null =>
    items > bounds.items ? 'items' : bytes > bounds.bytes ? 'bytes' : null;
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) bytes += 4;
    else if (typeof node === 'string') bytes += node.length + 2;
    else if (typeof node !== 'object') bytes += String(node).length;
    else if (Array.isArray(node)) {
      items += node.length;
      // The brackets and the commas between the elements.
      bytes += Math.max(2, 1 + node.length);
      // Checked before the children are taken: a list far over budget is not walked.
      if (over()) break;
      for (const child of node) stack.push(child);
    } else {
      const keys = Object.keys(node);
      bytes += Math.max(2, 1 + keys.length);
      for (const key of keys) {
        bytes += key.length + 3;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
    if (over()) break;
  }
  return { items, bytes, over: over() };
}
