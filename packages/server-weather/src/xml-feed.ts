import type { XMLParser } from 'fast-xml-parser';

/** An XML element as fast-xml-parser gives it: text, or an object of children and `@_` attributes. */
export type XmlNode = string | number | boolean | { [name: string]: unknown } | undefined;

/** Elements that may repeat and are always read as lists, even when a feed has one. */
const repeated = new Set(['entry', 'polygon', 'link', 'category', 'geocode', 'area', 'info']);

let parser: Promise<XMLParser> | undefined;

/**
 * fast-xml-parser is loaded on the first feed, not at start: only alerts
 * outside the United States read XML.
 */
function loadParser(): Promise<XMLParser> {
  parser ??= import('fast-xml-parser').then(
    ({ XMLParser }) =>
      new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '@_',
        // `cap:event` and `event` are the same field in the feeds read here.
        removeNSPrefix: true,
        parseTagValue: false,
        parseAttributeValue: false,
        trimValues: true,
        // Decodes numeric character references (`&#xB0;`) as XML requires; without it they stay as written.
        htmlEntities: true,
        isArray: (name) => repeated.has(name),
      }),
  );
  return parser;
}

/**
 * An Atom (or CAP) document as a tree, or undefined when it is not one.
 * Documents with a DOCTYPE are refused before parsing: no feed read here has
 * one, and a DOCTYPE is where entity expansion attacks live.
 */
export async function parseXmlFeed(text: string): Promise<Record<string, unknown> | undefined> {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return undefined;
  const xml = await loadParser();
  try {
    const tree = xml.parse(text) as unknown;
    return typeof tree === 'object' && tree !== null ? (tree as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The text of an element (its `#text` when it has attributes), or null when absent or empty. */
export function xmlText(node: unknown): string | null {
  if (typeof node === 'string') return node === '' ? null : node;
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (typeof node === 'object' && node !== null && '#text' in node)
    return xmlText((node as { '#text': unknown })['#text']);
  if (Array.isArray(node)) return xmlText(node[0]);
  return null;
}

/** An element's attribute, or null. */
export function xmlAttribute(node: unknown, name: string): string | null {
  if (typeof node !== 'object' || node === null) return null;
  const value = (node as Record<string, unknown>)[`@_${name}`];
  return typeof value === 'string' ? value : null;
}

/** A repeated element as a list of objects, whatever the feed had there. */
export function xmlList(node: unknown): Record<string, unknown>[] {
  const items = Array.isArray(node) ? node : node === undefined ? [] : [node];
  return items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}
