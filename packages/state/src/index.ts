/** The state store: one contract, two engines. */
export const stateStoreEngines: readonly string[] = ['sqlite', 'postgres'];
