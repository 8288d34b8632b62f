/** What the document worker is asked and what it answers: plain data, so it crosses the thread boundary. */

export type DocumentFormat = 'pdf' | 'docx' | 'xlsx';

/** What one numbered part of a document is called in markers and results. */
export type DocumentUnit = 'page' | 'sheet' | 'part';

export const documentUnits: { readonly [Format in DocumentFormat]: DocumentUnit } = {
  pdf: 'page',
  docx: 'part',
  xlsx: 'sheet',
};

export interface DocumentTextRequest {
  readonly format: DocumentFormat;
  readonly bytes: Uint8Array;
  /** The first part to return, from 1. */
  readonly first: number;
  /** The last part to return; the last of the document when absent. */
  readonly last?: number | undefined;
  /** An XLSX sheet by name, instead of first/last. */
  readonly sheet?: string | undefined;
  /** Parts one call returns at most. */
  readonly maxParts: number;
  /** Characters after which no further part is extracted (the caller cuts the text to its byte cap). */
  readonly maxCharacters: number;
}

export interface DocumentPart {
  /** Its number, from 1. */
  readonly number: number;
  /** A sheet's name. */
  readonly name?: string;
  readonly text: string;
}

export interface DocumentText {
  /** Parts in the whole document. */
  readonly total: number;
  /** The parts extracted, in order; fewer than asked when a cap stopped the extraction. */
  readonly parts: readonly DocumentPart[];
  /** Every sheet's name, for an XLSX. */
  readonly sheets?: readonly string[];
}

/** The name of an error about the range asked for, not about the file: the tool says so differently. */
export const documentRangeErrorName = 'DocumentRangeError';

export function documentRangeError(message: string): Error {
  const error = new Error(message);
  error.name = documentRangeErrorName;
  return error;
}

/** Told after each page is read: how many of the range are done, of how many. */
export type DocumentProgress = (done: number, total: number) => void;

/** The numbers from `first` to `last` (clamped to `total`), at most `maxParts` of them. */
export function partRange(request: DocumentTextRequest, total: number): { first: number; last: number } {
  if (request.first > Math.max(total, 1)) {
    const unit = documentUnits[request.format];
    throw documentRangeError(`first is ${request.first}, but it has ${total} ${unit}${total === 1 ? '' : 's'}`);
  }
  const last = Math.min(request.last ?? total, total, request.first + request.maxParts - 1);
  return { first: request.first, last };
}
