/**
 * Writes the directory_tree JSON text while the walk runs — byte for byte
 * what `JSON.stringify(tree, null, 2)` gives for `{name, type, children}`
 * nodes, without building the tree first: for a large tree that halves the
 * time and the garbage.
 */
export class TreeJsonWriter {
  readonly #parts: string[] = ['['];
  /** Entries written so far at each open level; the root array is level 0. */
  readonly #counts: number[] = [0];

  #indent(level: number): string {
    return ' '.repeat(2 + 4 * level);
  }

  #open(): void {
    const level = this.#counts.length - 1;
    this.#parts.push(this.#counts[level] === 0 ? '\n' : ',\n');
    this.#counts[level] = (this.#counts[level] as number) + 1;
  }

  file(name: string): void {
    const level = this.#counts.length - 1;
    this.#open();
    const outer = this.#indent(level);
    const inner = `${outer}  `;
    this.#parts.push(`${outer}{\n${inner}"name": ${JSON.stringify(name)},\n${inner}"type": "file"\n${outer}}`);
  }

  enterDirectory(name: string): void {
    const level = this.#counts.length - 1;
    this.#open();
    const outer = this.#indent(level);
    const inner = `${outer}  `;
    this.#parts.push(
      `${outer}{\n${inner}"name": ${JSON.stringify(name)},\n${inner}"type": "directory",\n${inner}"children": [`,
    );
    this.#counts.push(0);
  }

  leaveDirectory(): void {
    const written = this.#counts.pop() as number;
    const level = this.#counts.length - 1;
    const outer = this.#indent(level);
    this.#parts.push(written === 0 ? `]\n${outer}}` : `\n${outer}  ]\n${outer}}`);
  }

  toString(): string {
    return this.#parts.join('') + (this.#counts[0] === 0 ? ']' : '\n]');
  }
}
