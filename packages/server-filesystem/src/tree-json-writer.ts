/**
 * Writes the directory_tree JSON text while the walk runs — byte for byte
 * what `JSON.stringify(tree, null, 2)` gives for `{name, type, children}`
 * nodes, without building the tree first.
 *
 * Appending to one string makes a rope, and a rope of a whole tree (some
 * 130,000 cells for 15,000 entries, alive until the walk ends) is copied by
 * every young-generation collection on the way: on a server's first call,
 * while the heap is still small, that copying cost more than the walk. So
 * the text around a name is made once a level, an entry appends three pieces,
 * and every few hundred entries the rope so far is flattened into one
 * string. Replaying this tree's walk, the first build and serialization took
 * 48–65 ms of CPU against 83–90 ms for one long rope and 84–121 ms for a
 * growing byte buffer (a call into the buffer a piece costs more than it
 * saves).
 */
export class TreeJsonWriter {
  /** Text since the last flattening: a rope of a few cells an entry. */
  #recent = '[';
  #recentPieces = 0;
  /** Flat pieces of the text so far, in order. */
  readonly #flat: string[] = [];
  /** Entries written so far at each open level; the root array is level 0. */
  readonly #counts: number[] = [0];
  readonly #levels: LevelText[] = [];

  #level(level: number): LevelText {
    let text = this.#levels[level];
    if (text === undefined) {
      const outer = ' '.repeat(2 + 4 * level);
      text = {
        first: `\n${outer}{\n${outer}  "name": `,
        next: `,\n${outer}{\n${outer}  "name": `,
        file: `,\n${outer}  "type": "file"\n${outer}}`,
        directory: `,\n${outer}  "type": "directory",\n${outer}  "children": [`,
        emptyEnd: `]\n${outer}}`,
        end: `\n${outer}  ]\n${outer}}`,
      };
      this.#levels[level] = text;
    }
    return text;
  }

  #append(text: string): void {
    this.#recent += text;
    if (++this.#recentPieces < piecesPerFlattening) return;
    // ToNumber flattens a rope in place (V8), so its cells become garbage at once; the flat piece is one object.
    Number(this.#recent);
    this.#flat.push(this.#recent);
    this.#recent = '';
    this.#recentPieces = 0;
  }

  /** Opens an entry at the current level, up to its name; returns the level's text. */
  #open(name: string): LevelText {
    const level = this.#counts.length - 1;
    const text = this.#level(level);
    const count = this.#counts[level] as number;
    this.#counts[level] = count + 1;
    this.#append(count === 0 ? text.first : text.next);
    this.#append(needsEscape(name) ? JSON.stringify(name) : `"${name}"`);
    return text;
  }

  file(name: string): void {
    this.#append(this.#open(name).file);
  }

  enterDirectory(name: string): void {
    this.#append(this.#open(name).directory);
    this.#counts.push(0);
  }

  leaveDirectory(): void {
    const written = this.#counts.pop() as number;
    const text = this.#level(this.#counts.length - 1);
    this.#append(written === 0 ? text.emptyEnd : text.end);
  }

  toString(): string {
    return [...this.#flat, this.#recent, this.#counts[0] === 0 ? ']' : '\n]'].join('');
  }
}

// About 800 entries' text, under 100 kB: a flat piece stays an ordinary young-generation object (a larger one would
// be a large object, counted towards the next full collection), and a rope never holds many cells. On a new server,
// three calls of the 15,210-file tree took 206, 101 and 73 ms of CPU (medians of 10) against 200, 115 and 87 with
// pieces four times as long, and 218, 96 and 151 with one rope.
const piecesPerFlattening = 2_400;

/** The fixed text around entries at one level of indentation, made once. */
interface LevelText {
  readonly first: string;
  readonly next: string;
  readonly file: string;
  readonly directory: string;
  readonly emptyEnd: string;
  readonly end: string;
}

/**
 * Whether JSON.stringify would escape something in a name: quotes,
 * backslashes, control characters, lone surrogates. Most names need no
 * escape, and they are written as they are.
 */
function needsEscape(name: string): boolean {
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return true;
  }
  return false;
}
