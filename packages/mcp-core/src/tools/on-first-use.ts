/**
 * A function that builds a value the first time it is called and returns the
 * same value after: for schemas and tables a server needs only once a call
 * arrives, which it then need not build at start.
 *
 * @example
 * const answerSchema = onFirstUse(() => z.object({ temperature: z.number() }));
 * answerSchema().parse(body);
 */
export function onFirstUse<Value>(build: () => Value): () => Value {
  let built = false;
  let value: Value;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
