/** What a completer knows besides the partial value: the other arguments already filled in. */
export interface CompletionContext {
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Suggests values for one prompt argument or template variable: either the
 * full list of choices (filtered here by prefix, ignoring case) or a function
 * that does its own matching.
 */
export type Completer =
  | readonly string[]
  | ((value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>);

export interface CompletionResult {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** The spec caps one answer at 100 values; `total` and `hasMore` tell the client there were more. */
const maxValues = 100;

export async function runCompleter(
  completer: Completer | undefined,
  value: string,
  context: CompletionContext,
): Promise<CompletionResult> {
  if (completer === undefined) return { values: [], total: 0, hasMore: false };
  let all: readonly string[];
  if (typeof completer === 'function') {
    all = await completer(value, context);
  } else {
    const prefix = value.toLowerCase();
    all = (completer as readonly string[]).filter((choice) => choice.toLowerCase().startsWith(prefix));
  }
  const values = all.slice(0, maxValues).map(String);
  return { values, total: all.length, hasMore: all.length > values.length };
}
