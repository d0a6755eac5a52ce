/** A family's children by label values, made once each: prom-client builds a new child per `labels()` call. */
export class LabelledChildren<Child> {
  private readonly children = new Map<string, Child>();

  constructor(private readonly create: (labels: string[]) => Child) {}

  get(labels: string[]): Child {
    const id = labels.join('\u0000');
    let child = this.children.get(id);
    if (child === undefined) {
      child = this.create(labels);
      this.children.set(id, child);
    }
    return child;
  }
}
