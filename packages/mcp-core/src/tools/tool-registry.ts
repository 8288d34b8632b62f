import { LocalError } from '../errors/local-error.ts';
import type { ToolDescriptor } from '../protocol/mcp-types.ts';
import type { Tool } from './define-tool.ts';
import { decodeToolCursor, encodeToolCursor } from './tool-list-cursor.ts';

export interface ToolPage {
  tools: ToolDescriptor[];
  nextCursor?: string;
}

/**
 * The tools of one server, ordered by name so that listing is deterministic
 * however they were registered. Changes call `onChange` once each.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, { tool: Tool; enabled: boolean }>();
  readonly #onChange: () => void;
  #listed: ToolDescriptor[] | undefined;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  add(tool: Tool): void {
    if (this.#tools.has(tool.name)) {
      throw new LocalError('tool_name_taken', `A tool named "${tool.name}" is already registered`);
    }
    this.#tools.set(tool.name, { tool, enabled: true });
    this.#changed();
  }

  remove(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#changed();
    return removed;
  }

  setEnabled(name: string, enabled: boolean): void {
    const entry = this.#tools.get(name);
    if (entry === undefined) throw new LocalError('tool_definition_invalid', `No tool named "${name}"`);
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    this.#changed();
  }

  /** The enabled tool of that name. */
  get(name: string): Tool | undefined {
    const entry = this.#tools.get(name);
    return entry?.enabled ? entry.tool : undefined;
  }

  names(): string[] {
    return this.#descriptors().map((descriptor) => descriptor.name);
  }

  page(cursor: unknown, pageSize: number): ToolPage {
    const descriptors = this.#descriptors();
    let start = 0;
    if (cursor !== undefined) {
      const after = decodeToolCursor(cursor);
      start = descriptors.findIndex((descriptor) => descriptor.name > after);
      if (start === -1) start = descriptors.length;
    }
    const tools = descriptors.slice(start, start + pageSize);
    const last = tools.at(-1);
    return start + pageSize < descriptors.length && last !== undefined
      ? { tools, nextCursor: encodeToolCursor(last.name) }
      : { tools };
  }

  #descriptors(): ToolDescriptor[] {
    this.#listed ??= [...this.#tools.values()]
      .filter((entry) => entry.enabled)
      .map((entry) => entry.tool.descriptor)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return this.#listed;
  }

  #changed(): void {
    this.#listed = undefined;
    this.#onChange();
  }
}
