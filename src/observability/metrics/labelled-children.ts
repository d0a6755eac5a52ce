interface Node<Child> {
  children: Map<string, Node<Child>> | undefined;
  child: Child | undefined;
}

/**
 * A family's children by label values, each made once and found by walking one small map per
 * label: no key string is built per lookup (prom-client would build one, and hash it, per call).
 */
export class LabelledChildren<Child> {
  private readonly root: Node<Child> = { children: undefined, child: undefined };
  private readonly made: Child[] = [];

  constructor(private readonly create: (labels: readonly string[]) => Child) {}

  get(labels: readonly string[]): Child {
    let node = this.root;
    for (const value of labels) {
      node.children ??= new Map();
      let next = node.children.get(value);
      if (next === undefined) {
        next = { children: undefined, child: undefined };
        node.children.set(value, next);
      }
      node = next;
    }
    if (node.child === undefined) {
      node.child = this.create([...labels]);
      this.made.push(node.child);
    }
    return node.child;
  }

  /** Every child made so far. */
  all(): readonly Child[] {
    return this.made;
  }
}

/** The label set of a series: each label name with its value, in the family's order. */
export function labelSet(names: readonly string[], values: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  names.forEach((name, index) => {
    labels[name] = values[index] ?? '';
  });
  return labels;
}
