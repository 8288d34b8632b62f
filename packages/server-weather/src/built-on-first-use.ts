/**
 * A value built the first time it is asked for, then kept. The schemas of
 * upstream answers are made this way: a server that is started and listed
 * parses no answer, so its start does not build them.
 */
export function builtOnFirstUse<Value>(build: () => Value): () => Value {
  let built: { value: Value } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
